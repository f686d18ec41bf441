/**
 * Options of every router: a path matches only as written, in its letter case and without a
 * trailing slash, so `/METRICS` and `/metrics/` are `404` like any unknown path (a proxy rule
 * on the exact path `/metrics` covers every spelling the API answers).
 */
export const EXACT_ROUTES = { sensitive: true, strict: true } as const;
