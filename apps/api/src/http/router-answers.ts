import type { Middleware } from 'koa';
import { answer } from './answer.js';
import type { AppState } from './app-state.js';
import { MethodNotAllowedError, NotFoundError } from './errors.js';

/**
 * Turns the router's bare answers into the API's, around the router: `OPTIONS` on a known path is
 * `204` with `Allow`; an answer no route gave a body becomes an Error (`errorAnswers` writes it):
 * `405` with `Allow` where the path exists, for a method it does not serve or does not know
 * (e.g. `TRACE`, the router's `501`), and `404` elsewhere.
 */
export function routerAnswers(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    const allow = ctx.response.get('Allow');
    if (ctx.method === 'OPTIONS' && ctx.status === 200 && allow !== '') {
      answer(ctx, 204);
      return;
    }
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 404 || (ctx.status === 501 && allow === '')) {
      throw new NotFoundError({ message: `no route for ${ctx.method} ${ctx.path}` });
    }
    if (ctx.status === 405 || ctx.status === 501) {
      throw new MethodNotAllowedError({
        message: `${ctx.method} is not allowed on ${ctx.path}`,
        allow,
      });
    }
  };
}
