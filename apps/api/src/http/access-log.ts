import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { routeTemplate } from '../metrics/api-metrics.js';
import type { AppState } from './app-state.js';
import { PLATFORM_PATHS } from './platform-paths.js';

/**
 * The outermost middleware: once a request is answered, its access-log line (the key's name,
 * never the key; the trace id when tracing is on), and `observe` with its method, route template
 * (absent when no route matched), status and the time it took (the request metrics). Unless
 * `observeProbes`, a `2xx` answer on a platform path (`PLATFORM_PATHS`) is counted but not
 * logged: any other answer there (a `503 draining`, a `401` to a scraper without the token)
 * still is.
 */
export function accessLog(
  logger: Logger,
  observe?: (method: string, route: string | undefined, status: number, ms: number) => void,
  observeProbes = false,
): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    const { method, res } = ctx;
    const template = routeTemplate(ctx);
    const status = res.statusCode;
    observe?.(method, template, status, ms);
    const route = template ?? ctx.path;
    if (!observeProbes && status < 300 && PLATFORM_PATHS.has(route)) return;
    const { requestId, apiKeyName: key, traceId } = ctx.state;
    logger.info(
      { requestId, method, route, status, ms: Math.round(ms * 100) / 100, key, traceId },
      'request',
    );
  };
}
