import type { ErrorBody } from '@animal-store/contract';
import type { Middleware, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import { KeyLookupThrottledError } from '../keys/api-key.js';
import { StoreUnavailableError } from '../store/pet-store.js';
import type { AppState } from './app-state.js';
import {
  HttpError,
  InternalError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
} from './errors.js';
import { sendJson } from './json-response.js';
import { assertAcceptableRequest } from './request-checks.js';
import { requestIdFor } from './request-id.js';
import { DEFAULT_MAX_URL_BYTES } from './server-limits.js';

/** Seconds a client should wait before retrying while the database is down. */
const STORE_RETRY_AFTER_SECONDS = 5;

function toHttpError(error: unknown, logger: Logger): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof KeyLookupThrottledError) {
    return new RateLimitedError({
      retryAfterSeconds: error.retryAfterSeconds,
      message: 'too many failed API key checks from this address; retry later',
    });
  }
  if (error instanceof StoreUnavailableError) {
    logger.warn({ err: error.message }, 'store unavailable');
    return new ServiceUnavailableError({
      message: 'the store is unavailable; retry later',
      retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
    });
  }
  logger.error({ err: error }, 'unhandled error');
  return new InternalError();
}

/**
 * Turns the router's bare answers into the API's: `404`, and `405` or `501` (a method it does not
 * know, e.g. `TRACE`) become Error bodies (`405` with `Allow` where the path exists, `404`
 * elsewhere); `OPTIONS` on a known path is `204` with `Allow`.
 */
function routerAnswer(ctx: ParameterizedContext<AppState>): void {
  if (ctx.body !== undefined && ctx.body !== null && ctx.method !== 'OPTIONS') return;
  const allow = ctx.response.get('Allow');
  if (ctx.method === 'OPTIONS' && ctx.status === 200 && allow !== '') {
    ctx.status = 204;
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
}

function bodyOf(error: HttpError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message, status: error.status };
  if (error.details && error.details.length > 0) body.details = error.details;
  return body;
}

export interface EdgeOptions {
  /** Longest request target (path and query) answered; longer is `414` (default 8 KiB). */
  maxUrlBytes?: number;
  /** Called once per request, its answer decided, with the milliseconds it took. */
  observe?: (ctx: ParameterizedContext<AppState>, ms: number) => void;
}

/**
 * The outermost middleware: request id, Error bodies for every failure (including the router's
 * bare 404/405), and one access-log line per request. JSON answers and errors go out through
 * `sendJson`; an answer some route left to Koa (documents, metrics) gets the gathered headers.
 */
export function edge(logger: Logger, options: EdgeOptions = {}): Middleware<AppState> {
  const { maxUrlBytes = DEFAULT_MAX_URL_BYTES, observe } = options;
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdFor(ctx.req.headers['x-request-id']);
    ctx.state.requestId = requestId;
    ctx.state.headers = { 'X-Request-Id': requestId, 'X-Content-Type-Options': 'nosniff' };
    try {
      assertAcceptableRequest(ctx.req, maxUrlBytes);
      await next();
      // Not yet answered with `sendJson`: a route left the answer to Koa, or none matched.
      if (ctx.respond !== false) {
        routerAnswer(ctx);
        ctx.set(ctx.state.headers);
      }
    } catch (caught) {
      const error = toHttpError(caught, logger.child({ requestId }));
      Object.assign(ctx.state.headers, error.headers);
      // A route that wrote its answer before failing keeps it: nothing can be added.
      if (!ctx.res.headersSent) sendJson(ctx, error.status, bodyOf(error));
    }
    const ms = performance.now() - started;
    observe?.(ctx, ms);
    logger.info(
      {
        requestId,
        method: ctx.req.method,
        route: ctx.state.route ?? ctx.path,
        status: ctx.res.statusCode,
        ms: Math.round(ms * 100) / 100,
        key: ctx.state.apiKeyName,
      },
      'request',
    );
  };
}
