// `@animal-store/api/internals`: the pieces of the request path the benchmark's matched baseline
// (tooling/bench) does the API's work with, outside Koa. For the bench alone: not an embedder's
// interface, and no promise it stays the same.
export { logRequest } from './http/access-log.js';
export { presentedApiKey } from './http/auth.js';
export { errorBody } from './http/error-answers.js';
export { type JsonBody, readJsonRequest } from './http/json-body.js';
export { nextPageLink } from './http/next-link.js';
export { assertAcceptableRequest } from './http/request-checks.js';
export { requestIdFor } from './http/request-id.js';
export { InstrumentedPetStore } from './store/instrumented-pet-store.js';
