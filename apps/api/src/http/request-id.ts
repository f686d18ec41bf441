import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

// A caller's id is echoed only when it cannot smuggle anything into logs or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's `X-Request-Id` when sane, otherwise a fresh UUID. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

// The id each response in flight was given, for an answer Node's client-error path writes
// for it (a body too slow): its headers are only written at the end.
const assigned = new WeakMap<ServerResponse, string>();

/** Records the request id a response carries. */
export function assignRequestId(res: ServerResponse, requestId: string): void {
  assigned.set(res, requestId);
}

/** The request id a response in flight was given, if any. */
export function assignedRequestId(res: ServerResponse): string | undefined {
  return assigned.get(res);
}
