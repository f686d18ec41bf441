import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { answer } from '../http/answer.js';
import type { AppState } from '../http/app-state.js';
import { bearerToken, soleAuthorization } from '../http/auth.js';
import { UnauthorizedError } from '../http/errors.js';
import { digestKey } from '../keys/api-key.js';

/**
 * The handler of `GET /metrics`: the Prometheus text format, outside `/v1` and without an API
 * key. Meant for the platform's scraper, not the public: with `token`, it asks for
 * `Authorization: Bearer <token>` (compared by digest, in constant time). Mounted on the probes'
 * router, so it adds no router to the path of every other request.
 */
export function metricsHandler(registry: Registry, token?: string): Middleware<AppState> {
  const expected = token === undefined ? undefined : Buffer.from(digestKey(token));
  return async (ctx) => {
    // Two Authorization headers are `400` here as on /v1, token or not.
    const header = soleAuthorization(ctx.req) ?? '';
    if (expected) {
      // METRICS_TOKEN is token68 like an API key, so the API's bearer parse serves both.
      const presented = bearerToken(header);
      if (
        presented === undefined ||
        !timingSafeEqual(Buffer.from(digestKey(presented)), expected)
      ) {
        throw new UnauthorizedError({
          message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
        });
      }
    }
    answer(ctx, 200, await registry.metrics(), registry.contentType);
  };
}
