import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';
import {
  BadRequestError,
  NotImplementedError,
  RequestHeaderFieldsTooLargeError,
  UriTooLongError,
} from './errors.js';
import { MAX_HEADER_FIELDS } from './server-limits.js';

/**
 * A valid `Host` value (RFC 9112 §3.2, RFC 3986 §3.2.2): an IP literal in brackets or a
 * registered name (unreserved, percent-encoded and sub-delimiter characters, possibly none),
 * then an optional port.
 */
const HOST = /^(?:\[[\w.:~!$&'()*+,;=-]+\]|(?:[\w.~!$&'()*+,;=-]|%[\dA-Fa-f]{2})*)(?::\d*)?$/;

/** The only transfer coding the API reads: `chunked` alone (empty list elements allowed). */
const CHUNKED_ONLY = /^[\t ,]*chunked[\t ,]*$/i;

/** How many `Host` fields a request carries (Node keeps only the first). */
function hostFields(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/**
 * What the API refuses before anything else looks at a request, with an Error body: a request
 * target longer than `maxUrlBytes` (`414`), more than `MAX_HEADER_FIELDS` header fields
 * (`431`), an HTTP/1.1 request without `Host` (which Node would refuse with an empty body), with
 * two, or with one that is no host (`400`, RFC 9112 §3.2), and a transfer coding other than
 * `chunked` (`501`, RFC 9112 §6.1).
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
  const { host } = req.headers;
  if (host === undefined) {
    if (req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
      throw new BadRequestError({ message: 'an HTTP/1.1 request needs a Host header' });
    }
  } else if (!HOST.test(host)) {
    throw new BadRequestError({ message: 'the Host header is not a host and port' });
  } else if (hostFields(req.rawHeaders) > 1) {
    throw new BadRequestError({ message: 'more than one Host header: send exactly one' });
  }
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined && !CHUNKED_ONLY.test(codings)) {
    throw new NotImplementedError({
      message: `Transfer-Encoding ${JSON.stringify(codings.slice(0, 100))} is not supported: send the body chunked alone or with Content-Length`,
    });
  }
}

/** `assertAcceptableRequest` as middleware, before routing. */
export function requestChecks(maxUrlBytes: number): Middleware<AppState> {
  return (ctx, next) => {
    assertAcceptableRequest(ctx.req, maxUrlBytes);
    return next();
  };
}
