import type { ErrorBody } from '@animal-store/contract';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { StoreUnavailableError } from '../store/pet-store.js';
import { answer } from './answer.js';
import type { AppState } from './app-state.js';
import { HttpError, InternalError, ServiceUnavailableError } from './errors.js';

/** Seconds a client should wait before retrying while the database is down. */
const STORE_RETRY_AFTER_SECONDS = 5;

function toHttpError(error: unknown, logger: Logger): HttpError {
  if (error instanceof HttpError) return error;
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

/** The Error body (spec §2) an `HttpError` answers with. */
export function errorBody(error: HttpError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message, status: error.status };
  if (error.details && error.details.length > 0) body.details = error.details;
  return body;
}

/**
 * The status the access log and the metrics record for a request whose client closed the
 * connection before its answer (nginx's "client closed request"); nothing is sent.
 */
export const CLIENT_GONE_STATUS = 499;

/**
 * Turns whatever the middleware after it throws into an Error answer: an `HttpError` as it says,
 * a store that cannot be reached as `503`, anything else as a `500` that leaks nothing (and is
 * logged). A failure after the client has gone (its body can no longer be read) is no fault of
 * the service: it is logged at info and answered to nobody.
 */
export function errorAnswers(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      if (ctx.req.socket.destroyed && !ctx.res.headersSent) {
        logger.info(
          { requestId: ctx.state.requestId, err: (caught as Error)?.message },
          'client closed the connection before its answer',
        );
        ctx.respond = false;
        ctx.res.statusCode = CLIENT_GONE_STATUS;
        return;
      }
      const error = toHttpError(caught, logger.child({ requestId: ctx.state.requestId }));
      ctx.set(error.headers);
      answer(ctx, error.status, JSON.stringify(errorBody(error)));
    }
  };
}
