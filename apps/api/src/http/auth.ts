import type { IncomingMessage } from 'node:http';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { ApiKeyVerdict, ApiKeyVerifier } from '../keys/api-key.js';
import type { AuthFailureReason } from '../metrics/api-metrics.js';
import type { AppState } from './app-state.js';
import { BadRequestError, UnauthorizedError } from './errors.js';

/** How many `Authorization` fields a request carries (Node keeps only the first). */
function authorizationFields(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (
      (rawHeaders[i] as string).length === 13 &&
      /^authorization$/i.test(rawHeaders[i] as string)
    ) {
      count++;
    }
  }
  return count;
}

// RFC 6750 token68 characters; the scheme name is case-insensitive (RFC 9110 §11.1).
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of an `Authorization: Bearer <token>` header, if it is one. */
export function bearerToken(header: string): string | undefined {
  return BEARER.exec(header)?.[1];
}

/**
 * The request's `Authorization` header, if it has one; `400` for two (empty ones included):
 * Node keeps the first, a proxy may read the last, so the caller would be ambiguous.
 */
export function soleAuthorization(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined && authorizationFields(req.rawHeaders) > 1) {
    throw new BadRequestError({
      message: 'more than one Authorization header: send exactly one',
    });
  }
  return header;
}

/**
 * The API key a request presents as `Authorization: Bearer <key>`; a request without exactly
 * one well-formed bearer header is refused (`401`, or `400` for two headers, empty ones included).
 */
export function presentedApiKey(req: IncomingMessage): string {
  const header = soleAuthorization(req);
  if (header === undefined || header === '') {
    throw new UnauthorizedError({
      message: 'missing API key: send Authorization: Bearer <key>',
      reason: 'missing',
    });
  }
  const token = bearerToken(header);
  if (token === undefined) {
    throw new UnauthorizedError({
      message: 'malformed Authorization header: expected Bearer <key>',
      reason: 'malformed',
    });
  }
  return token;
}

/**
 * Refuses any request without a valid bearer API key, before anything after it looks at the
 * request; records the key's name (never the key) in `ctx.state.apiKeyName` and its identity in
 * `ctx.state.apiKeyId`. `refused` hears the reason of each `401` (the metrics). A verifier that
 * answers at once (keys from configuration) is not awaited: the request goes on in the same turn.
 */
export function requireApiKey(
  verifier: ApiKeyVerifier,
  refused?: (reason: AuthFailureReason) => void,
): Middleware<AppState> {
  const admit = (ctx: ParameterizedContext<AppState>, next: Next, verdict: ApiKeyVerdict) => {
    if (verdict === undefined || verdict === 'revoked') {
      const reason = verdict ?? 'unknown';
      refused?.(reason);
      // The same answer for both: a caller learns nothing about a key it does not hold.
      throw new UnauthorizedError({ message: 'invalid API key', reason });
    }
    ctx.state.apiKeyName = verdict.name;
    ctx.state.apiKeyId = verdict.id;
    return next();
  };
  return (ctx, next) => {
    // Answers to keyed requests are the caller's own: no cache may keep them, 401s included.
    ctx.set('Cache-Control', 'no-store');
    let key: string;
    try {
      key = presentedApiKey(ctx.req);
    } catch (error) {
      if (error instanceof UnauthorizedError && error.reason) refused?.(error.reason);
      throw error;
    }
    const verdict = verifier.verify(key);
    return verdict instanceof Promise
      ? verdict.then((found) => admit(ctx, next, found))
      : admit(ctx, next, verdict);
  };
}
