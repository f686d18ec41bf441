import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';
import { expectsContinue } from './json-body.js';

/**
 * The most of an answered request's unread body that the API reads and drops: twice the 2 MiB
 * body the conformance kit sends to a `413`, far beyond the JSON body limit.
 */
export const DISCARD_LIMIT_BYTES = 4 * 1024 * 1024;

/** How `unreadBodies` bounds what it drops. */
export interface DiscardLimits {
  /** The most bytes read and dropped; a body declared or found longer closes the connection. */
  limitBytes: number;
  /**
   * The most read and dropped of a request without a valid key: the JSON body limit, what a
   * create may carry, so that such a client can make the API read no more than a create (and
   * never more than `limitBytes`).
   */
  keylessLimitBytes: number;
  /** How long the rest of the body may take; then the connection closes. */
  timeoutMs: number;
}

/**
 * Starts reading and dropping the rest of `req`'s body, and returns true; or returns false,
 * reading nothing, when its declared length is beyond the limit. The connection is destroyed
 * if more than the limit comes, or if the body has not ended in time.
 */
function discardRest(req: IncomingMessage, limitBytes: number, timeoutMs: number): boolean {
  // A chunked body declares no length: it is counted as it comes.
  if (Number(req.headers['content-length']) > limitBytes) return false;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, timeoutMs);
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limitBytes) cut();
  });
  finished(req, () => clearTimeout(timer));
  req.resume();
  return true;
}

/**
 * What becomes of a body the request's answer leaves unread (a `401`, a `413`, a `415`, a body
 * on a `GET`): it is read and dropped, within `limits`, so that its answer goes out at once and
 * the connection stays open for the next request. Closing it at once instead would leave the
 * body's bytes unread in the socket, and the kernel would answer them with a reset that can
 * reach the client before the answer does, or a front still sending the body (Caddy, Varnish),
 * which then answers `502` or `503` in the `401`'s place. A request without a valid key has
 * only as much dropped as a create may carry (`keylessLimitBytes`). A body beyond the limits
 * gets `Connection: close`, and so does one a client waits for `100 Continue` to send, which it
 * may never send (RFC 9110 §10.1.1: the server says it closes the connection).
 */
export function unreadBodies(limits: DiscardLimits): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    const { req } = ctx;
    // An answer that closes the connection says so as the errors write it (`errors.ts`).
    if (req.complete || ctx.respond === false || ctx.response.get('Connection') === 'close') return;
    const limitBytes =
      ctx.state.apiKeyId === undefined ? limits.keylessLimitBytes : limits.limitBytes;
    if (expectsContinue(req) || !discardRest(req, limitBytes, limits.timeoutMs)) {
      ctx.set('Connection', 'close');
    }
  };
}
