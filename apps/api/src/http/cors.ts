import { API_PREFIX } from '@animal-store/contract';
import cors from '@koa/cors';
import type { Middleware } from 'koa';
import { ConfigError } from '../config-error.js';
import type { AppState } from './app-state.js';

/** Request headers a page on an allowed origin may send (answered in preflights). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
] as const;

/** Response headers a page's script may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'Location',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'Deprecation',
  'Sunset',
  'Link',
  'Next-After',
  'Idempotency-Replayed',
  'WWW-Authenticate',
  'Allow',
] as const;

/** Where CORS applies: the API and its documents; not `/metrics`, `/readyz` nor `/healthz`. */
const API_PATHS = `${API_PREFIX}/`;

/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Parses `CORS_ORIGINS`: empty for none, `*` for any origin, or a comma list of origins written
 * as a browser sends them (`https://app.example`, `http://127.0.0.1:5173`: scheme, host and port,
 * no path). Throws `ConfigError` naming the first bad entry.
 */
export function parseCorsOrigins(raw: string): string[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) {
      throw new ConfigError('CORS_ORIGINS is either * alone or a list of origins, not both');
    }
    return ['*'];
  }
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (origin !== entry) {
      throw new ConfigError(
        `CORS_ORIGINS entries are origins such as https://app.example or http://127.0.0.1:5173 (got ${JSON.stringify(entry)})`,
      );
    }
  }
  return entries;
}

/**
 * Cross-origin access for the listed origins (`*`: any) through `@koa/cors`. Credentials
 * (cookies) are never allowed: callers send their key in `Authorization`, which a page sets
 * itself. A preflight is answered here, before any key is asked for; an origin not listed gets
 * no CORS headers, so the browser keeps the answer from the page, as do the probes and
 * `/metrics` whatever the origin.
 */
export function corsFor(origins: readonly string[]): Middleware<AppState> {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const middleware = cors({
    origin: (ctx) => {
      if (any) return '*';
      const origin = ctx.get('Origin');
      return allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST'],
    allowHeaders: [...CORS_ALLOWED_HEADERS],
    exposeHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    credentials: false,
    // errorAnswers turns errors into answers and keeps headers set on the response.
    keepHeadersOnError: false,
  }) as Middleware<AppState>;
  // Only the API is for pages: never the probes nor the metrics.
  return (ctx, next) => (ctx.path.startsWith(API_PATHS) ? middleware(ctx, next) : next());
}
