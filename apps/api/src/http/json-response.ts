import type { ParameterizedContext } from 'koa';
import type { AppState } from './app-state.js';

/**
 * Answers with a JSON body the Koa way: the headers gathered in `ctx.state.headers`, in their
 * order, then the status and the body, which Koa serialises and gives `Content-Type` and
 * `Content-Length` (and answers a HEAD with the headers alone). The error answers use it.
 */
export function sendJson(ctx: ParameterizedContext<AppState>, status: number, body: object): void {
  ctx.set(ctx.state.headers);
  ctx.status = status;
  ctx.body = body;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with JSON text already made (the store's texts of its pets): the same status, headers
 * in the same order and bytes as `sendJson`, but the head in one `writeHead` and the body in one
 * `end`, outside Koa's respond (`ctx.respond = false`): it costs less than the bench's noise,
 * Koa's header by header `setHeader` does not (tooling/bench, issue #47). Headers set on the
 * response before (CORS) come first, as with Koa; a HEAD gets the head alone (Node sends no
 * body for it).
 */
export function sendJsonText(
  ctx: ParameterizedContext<AppState>,
  status: number,
  text: string,
): void {
  const headers: Record<string, string | number> = ctx.state.headers;
  headers['Content-Type'] = JSON_TYPE;
  headers['Content-Length'] = Buffer.byteLength(text);
  ctx.status = status;
  ctx.respond = false;
  ctx.res.writeHead(status, headers);
  ctx.res.end(text);
}
