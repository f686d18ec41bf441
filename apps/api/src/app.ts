import { API_PREFIX, BODY_LIMIT_BYTES } from '@animal-store/contract';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { AppState } from './http/app-state.js';
import { requireApiKey } from './http/auth.js';
import { corsFor } from './http/cors.js';
import { edge } from './http/edge.js';
import {
  FixedWindowRateLimiter,
  RateLimit,
  type RateLimiter,
  type RateLimitSettings,
} from './http/rate-limit.js';
import type { ApiKeyVerifier } from './keys/api-key.js';
import { ApiMetrics, routeTemplate } from './metrics/api-metrics.js';
import { docsPageRoutes } from './routes/docs-page.js';
import { documentRoutes, probeRoutes } from './routes/meta.js';
import { metricsHandler } from './routes/metrics.js';
import { petRoutes } from './routes/pets.js';
import { InstrumentedPetStore } from './store/instrumented-pet-store.js';
import type { PetStore } from './store/pet-store.js';

export interface AppDeps {
  store: PetStore;
  apiKeys: ApiKeyVerifier;
  logger: Logger;
  /** Injected so tests can move time (the getPet sunset). */
  clock?: () => Date;
  bodyLimitBytes?: number;
  /** How long a request body may take to arrive (default 10 s). */
  bodyTimeoutMs?: number;
  /** Longest request target answered (default 8 KiB). */
  maxUrlBytes?: number;
  /** Requests per window per API key; no rate limit when absent. */
  rateLimit?: RateLimitSettings;
  /** Who counts them; counted in this process alone when absent (`FixedWindowRateLimiter`). */
  rateLimiter?: RateLimiter;
  /** The rate limit's clock in epoch milliseconds, injected so tests can move time. */
  rateLimitClock?: () => number;
  /** Where the metrics go; a fresh registry with process metrics when absent. */
  metrics?: ApiMetrics;
  /** Bearer token `GET /metrics` asks for; open when absent. */
  metricsToken?: string;
  /** Origins whose pages may call the API (`*`: any); no CORS when absent or empty. */
  corsOrigins?: readonly string[];
}

/** Builds the Koa application without listening. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  const metrics = deps.metrics ?? new ApiMetrics();
  const store = new InstrumentedPetStore(deps.store, metrics.storeDuration);
  const rateLimit =
    deps.rateLimit &&
    new RateLimit(
      deps.rateLimit,
      deps.rateLimiter ?? new FixedWindowRateLimiter(deps.rateLimit, deps.rateLimitClock),
      () => metrics.rateLimited.inc(),
    );
  const v1 = new Router<AppState>({ prefix: API_PREFIX });
  const pets = petRoutes({
    store,
    clock: deps.clock ?? (() => new Date()),
    bodyLimitBytes: deps.bodyLimitBytes ?? BODY_LIMIT_BYTES,
    bodyTimeoutMs: deps.bodyTimeoutMs,
    guard: requireApiKey(
      deps.apiKeys,
      rateLimit && ((ctx, identity) => rateLimit.enforce(ctx, identity.name)),
    ),
  });
  v1.use(documentRoutes().routes());
  v1.use(docsPageRoutes().routes());
  v1.use(pets.routes());
  const probes = probeRoutes(store);
  probes.get('/metrics', metricsHandler(metrics.registry, deps.metricsToken));
  // One router holds every route (mounting copies a nested router's routes into the parent),
  // so a request costs one route match and one allowedMethods (404/405 with Allow) pass instead
  // of one per router: about 5% of the API's CPU per request (see tooling/bench).
  const root = new Router<AppState>();
  root.use(probes.routes());
  root.use(v1.routes());

  app.use(
    edge(deps.logger, {
      maxUrlBytes: deps.maxUrlBytes,
      observe: (ctx, ms) =>
        metrics.observeRequest(ctx.method, routeTemplate(ctx), ctx.status, ms / 1000),
    }),
  );
  if (deps.corsOrigins && deps.corsOrigins.length > 0) app.use(corsFor(deps.corsOrigins));
  app.use(root.routes()).use(root.allowedMethods());
  // Koa logs what reaches it to stderr; the edge has already answered and logged it.
  app.silent = true;
  return app;
}
