import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';
import { BadRequestError, RequestHeaderFieldsTooLargeError, UriTooLongError } from './errors.js';
import { MAX_HEADER_FIELDS } from './server-limits.js';

/**
 * What the API refuses before anything else looks at a request, with an Error body: a request
 * target longer than `maxUrlBytes` (`414`), more than `MAX_HEADER_FIELDS` header fields (`431`), and an HTTP/1.1 request without `Host` (`400`,
 * RFC 9112 §3.2), which Node would otherwise refuse itself with an empty body.
 */
export function assertAcceptableRequest(req: IncomingMessage, maxUrlBytes: number): void {
  // Node reads the request target as latin1: one character per byte.
  if ((req.url as string).length > maxUrlBytes)
    throw new UriTooLongError({ limitBytes: maxUrlBytes });
  if (req.rawHeaders.length > 2 * MAX_HEADER_FIELDS) {
    throw new RequestHeaderFieldsTooLargeError({
      message: `the request has more than ${MAX_HEADER_FIELDS} header fields`,
    });
  }
  if (req.headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
    throw new BadRequestError({ message: 'an HTTP/1.1 request needs a Host header' });
  }
}

/** `assertAcceptableRequest` as middleware, before routing. */
export function requestChecks(maxUrlBytes: number): Middleware<AppState> {
  return (ctx, next) => {
    assertAcceptableRequest(ctx.req, maxUrlBytes);
    return next();
  };
}
