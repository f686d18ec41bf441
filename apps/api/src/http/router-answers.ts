import type { Middleware, ParameterizedContext } from 'koa';
import type { AppState } from './app-state.js';
import { MethodNotAllowedError, NotFoundError } from './errors.js';

/**
 * Turns the router's bare answers into the API's: `404`, and `405` or `501` (a method it does not
 * know, e.g. `TRACE`) become Error bodies (`405` with `Allow` where the path exists, `404`
 * elsewhere); `OPTIONS` on a known path is `204` with `Allow`.
 */
function answerForRouter(ctx: ParameterizedContext<AppState>): void {
  if (ctx.body !== undefined && ctx.body !== null && ctx.method !== 'OPTIONS') return;
  const allow = ctx.response.get('Allow');
  if (ctx.method === 'OPTIONS' && ctx.status === 200 && allow !== '') {
    ctx.status = 204;
    return;
  }
  if (ctx.body !== undefined && ctx.body !== null) return;
  // Each status is set before the throw: Koa then gives it its own reason phrase, not the
  // router's `501 Not Implemented`.
  if (ctx.status === 404 || (ctx.status === 501 && allow === '')) {
    ctx.status = 404;
    throw new NotFoundError({ message: `no route for ${ctx.method} ${ctx.path}` });
  }
  if (ctx.status === 405 || ctx.status === 501) {
    ctx.status = 405;
    throw new MethodNotAllowedError({
      message: `${ctx.method} is not allowed on ${ctx.path}`,
      allow,
    });
  }
}

/**
 * Wraps the router: an answer no route gave a body (a route left it to Koa, or none matched)
 * gets the API's 404/405; every answer gets the headers gathered in `ctx.state.headers`.
 */
export function routerAnswers(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    // A route that wrote its answer itself (`sendJsonText`) is done with: nothing can be added.
    if (ctx.res.headersSent) return;
    answerForRouter(ctx);
    ctx.set(ctx.state.headers);
  };
}
