/** Per-request state shared by the middleware. */
export interface AppState {
  requestId: string;
  /** Name of the API key the request authenticated with; never the key itself. */
  apiKeyName?: string;
  /** Route template, for logs and metrics (e.g. `/v1/pets/:petId`). */
  route?: string;
}
