/** Per-request state shared by the middleware. */
export interface AppState {
  requestId: string;
  /** The request's trace id, when tracing is on (the access-log line carries it). */
  traceId?: string;
  /** Name of the API key the request authenticated with, for logs; never the key itself. */
  apiKeyName?: string;
  /** Identity of that key (its whole digest): whose quota and idempotency records these are. */
  apiKeyId?: string;
}
