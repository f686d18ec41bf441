import type { Context } from 'koa';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The one writer of the app's answers (successes, errors, the router's own): the status, and the
 * body with its type (JSON unless told). Koa sends them with the headers the middleware set on
 * the response (`ctx.set`) and the body's `Content-Length`, and answers a `HEAD` with the head
 * alone. A JSON body comes as text: the store keeps each pet's JSON text, so an answer
 * serialises nothing it has already serialised.
 */
export function answer(
  ctx: Context,
  status: number,
  body?: string | Buffer,
  type: string = JSON_TYPE,
): void {
  ctx.status = status;
  if (body === undefined) return;
  ctx.set('Content-Type', type);
  ctx.body = body;
}
