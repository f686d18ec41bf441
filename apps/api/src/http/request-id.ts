import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

// A caller's id is echoed only when it cannot smuggle anything into logs or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's `X-Request-Id` when sane, otherwise a fresh UUID. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

// The id of each request whose body is being read, for the answer Node's client-error path
// writes when that body is too slow: the request's own headers are only written at the end.
const assigned = new WeakMap<ServerResponse, string>();

/** Records the request id of a response whose request body is about to be read. */
export function assignRequestId(res: ServerResponse, requestId: string): void {
  assigned.set(res, requestId);
}

/** The request id a response in flight was given, if any. */
export function assignedRequestId(res: ServerResponse): string | undefined {
  return assigned.get(res);
}
