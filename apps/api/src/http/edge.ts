import type { ErrorBody } from '@animal-store/contract';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { StoreUnavailableError } from '../store/pet-store.js';
import type { AppState } from './app-state.js';
import { HttpError, internalError, ServiceUnavailableError } from './errors.js';
import { requestIdFor } from './request-id.js';

/** Seconds a client should wait before retrying while the database is down. */
const STORE_RETRY_AFTER_SECONDS = 5;

function toHttpError(error: unknown, logger: Logger): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof StoreUnavailableError) {
    logger.warn({ err: error.message }, 'store unavailable');
    return new ServiceUnavailableError(
      'the store is unavailable; retry later',
      STORE_RETRY_AFTER_SECONDS,
    );
  }
  logger.error({ err: error }, 'unhandled error');
  return internalError();
}

function bodyOf(error: HttpError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message, status: error.status };
  if (error.details && error.details.length > 0) body.details = error.details;
  return body;
}

/**
 * The outermost middleware: request id, Error bodies for every failure (including the router's
 * bare 404/405), and one access-log line per request. Koa serialises object bodies as
 * `application/json; charset=utf-8`.
 */
export function edge(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdFor(ctx.get('X-Request-Id'));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) {
          throw new HttpError(404, 'not_found', `no route for ${ctx.method} ${ctx.path}`);
        }
        if (ctx.status === 405) {
          throw new HttpError(
            405,
            'method_not_allowed',
            `${ctx.method} is not allowed on ${ctx.path}`,
          );
        }
      }
    } catch (caught) {
      const error = toHttpError(caught, logger.child({ requestId }));
      ctx.set(error.headers);
      ctx.status = error.status;
      ctx.body = bodyOf(error);
    }
    logger.info(
      {
        requestId,
        method: ctx.method,
        route: ctx.state.route ?? ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        key: ctx.state.apiKeyName,
      },
      'request',
    );
  };
}
