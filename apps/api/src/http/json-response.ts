import type { ParameterizedContext } from 'koa';
import type { AppState } from './app-state.js';

/**
 * Answers with a JSON body the Koa way: the headers gathered in `ctx.state.headers`, in their
 * order, then the status and the body, which Koa serialises and gives `Content-Type` and
 * `Content-Length` (and answers a HEAD with the headers alone).
 */
export function sendJson(ctx: ParameterizedContext<AppState>, status: number, body: object): void {
  ctx.set(ctx.state.headers);
  ctx.status = status;
  ctx.body = body;
}
