// The two Express majors the framework test runs, installed under aliases: both as the types of
// `express` (@types/express) describe them, which hold for what the test's app uses of either.
declare module 'express4' {
  const express: typeof import('express');
  export default express;
}
declare module 'express5' {
  const express: typeof import('express');
  export default express;
}
