import type { ParameterizedContext } from 'koa';
import type { AppState } from './app-state.js';

/**
 * Answers with a JSON body the Koa way: the headers gathered in `ctx.state.headers`, in their
 * order, then the status and the body, which Koa serialises and gives `Content-Type` and
 * `Content-Length` (and answers a HEAD with the headers alone). It costs more than the bench's
 * noise: API/limit on `GET /v1/pets/{id}` 0.43-0.45, 0.59 with cached texts, writeHead and
 * patched Koa (short runs, issue #40); kept plain until a trick that is safe is measured.
 */
export function sendJson(ctx: ParameterizedContext<AppState>, status: number, body: object): void {
  ctx.set(ctx.state.headers);
  ctx.status = status;
  ctx.body = body;
}
