import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { answer } from './answer.js';
import type { AppState } from './app-state.js';
import { MethodNotAllowedError, NotFoundError } from './errors.js';

/** The methods the routes on the request's path serve, as `Allow` lists them (`''`: none). */
function allowedMethods(ctx: RouterContext<AppState>): string {
  const methods = new Set<string>();
  for (const layer of ctx.matched ?? []) for (const method of layer.methods) methods.add(method);
  return [...methods].join(', ');
}

/**
 * The answer to a request no route took, after the router (which calls it only then, so a routed
 * request never passes here): `OPTIONS` on a known path is `204` with `Allow`; any other method
 * there is `405` with `Allow`, methods the router does not know included (e.g. `TRACE`); any
 * other path is `404`. The errors become Error answers in `errorAnswers`.
 */
export function routerAnswers(): Middleware<AppState> {
  return (ctx) => {
    const allow = allowedMethods(ctx as RouterContext<AppState>);
    if (allow === '')
      throw new NotFoundError({ message: `no route for ${ctx.method} ${ctx.path}` });
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allow);
      answer(ctx, 204);
      return;
    }
    throw new MethodNotAllowedError({
      message: `${ctx.method} is not allowed on ${ctx.path}`,
      allow,
    });
  };
}
