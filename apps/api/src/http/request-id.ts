import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

// A caller's id is echoed only when it cannot smuggle anything into logs or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's `X-Request-Id` when sane, otherwise a fresh UUID. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Gives each request its id (the caller's `X-Request-Id` when sane) and sets the headers every
 * answer carries: the id and `X-Content-Type-Options: nosniff`. The response's `X-Request-Id` is
 * also where Node's client-error path finds the id of a request it refuses mid-body.
 */
export function requestId(): Middleware<AppState> {
  return (ctx, next) => {
    const id = requestIdFor(ctx.req.headers['x-request-id']);
    ctx.state.requestId = id;
    ctx.set({ 'X-Request-Id': id, 'X-Content-Type-Options': 'nosniff' });
    return next();
  };
}
