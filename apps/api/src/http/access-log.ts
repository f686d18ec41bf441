import type { Middleware, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import { routeTemplate } from '../metrics/api-metrics.js';
import type { AppState } from './app-state.js';

/**
 * The outermost middleware: once a request is answered, one access-log line (never the key,
 * only its name) and `observe` with the time it took (the request metrics).
 */
export function accessLog(
  logger: Logger,
  observe?: (ctx: ParameterizedContext<AppState>, ms: number) => void,
): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    observe?.(ctx, ms);
    logger.info(
      {
        requestId: ctx.state.requestId,
        method: ctx.req.method,
        route: routeTemplate(ctx) ?? ctx.path,
        status: ctx.res.statusCode,
        ms: Math.round(ms * 100) / 100,
        key: ctx.state.apiKeyName,
      },
      'request',
    );
  };
}
