import type { Middleware, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import { routeTemplate } from '../metrics/api-metrics.js';
import type { AppState } from './app-state.js';

/** Writes one access-log line: the key's name, never the key; the trace id when tracing is on. */
export function logRequest(
  logger: Logger,
  requestId: string,
  method: string | undefined,
  route: string,
  status: number,
  ms: number,
  key: string | undefined,
  traceId?: string,
): void {
  logger.info(
    { requestId, method, route, status, ms: Math.round(ms * 100) / 100, key, traceId },
    'request',
  );
}

/**
 * The outermost middleware: once a request is answered, its access-log line (`logRequest`) and
 * `observe` with the time it took (the request metrics).
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
    const route = routeTemplate(ctx) ?? ctx.path;
    const { requestId, apiKeyName, traceId } = ctx.state;
    logRequest(
      logger,
      requestId,
      ctx.req.method,
      route,
      ctx.res.statusCode,
      ms,
      apiKeyName,
      traceId,
    );
  };
}
