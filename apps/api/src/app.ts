import { API_PREFIX, BODY_LIMIT_BYTES } from '@animal-store/contract';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import { type Clock, systemClock } from './clock.js';
import { accessLog } from './http/access-log.js';
import type { AppState } from './http/app-state.js';
import { requireApiKey } from './http/auth.js';
import { corsFor } from './http/cors.js';
import { errorAnswers } from './http/error-answers.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './http/json-body.js';
import { PLATFORM_PATHS } from './http/platform-paths.js';
import {
  FixedWindowRateLimiter,
  RateLimit,
  type RateLimiter,
  type RateLimitSettings,
} from './http/rate-limit.js';
import { requestChecks } from './http/request-checks.js';
import { requestId } from './http/request-id.js';
import { routerAnswers } from './http/router-answers.js';
import { DEFAULT_MAX_URL_BYTES } from './http/server-limits.js';
import { DISCARD_LIMIT_BYTES, unreadBodies } from './http/unread-bodies.js';
import type { ApiKeyVerifier } from './keys/api-key.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { Readiness } from './readiness.js';
import { docsPageRoutes } from './routes/docs-page.js';
import { EXACT_ROUTES } from './routes/exact-routes.js';
import { documentRoutes, probeRoutes } from './routes/meta.js';
import { metricsHandler } from './routes/metrics.js';
import { petRoutes } from './routes/pets.js';
import { InstrumentedPetStore, type StoreLimits } from './store/instrumented-pet-store.js';
import type { PetStore } from './store/pet-store.js';
import type { RequestTracing } from './tracing/request-tracing.js';

export interface AppDeps {
  store: PetStore;
  apiKeys: ApiKeyVerifier;
  logger: Logger;
  /** The time (the getPet sunset, the rate limit's windows); injected so tests can move it. */
  clock?: Clock;
  bodyLimitBytes?: number;
  /** How long a request body may take to arrive (default 10 s). */
  bodyTimeoutMs?: number;
  /** Longest request target answered (default 8 KiB). */
  maxUrlBytes?: number;
  /** Requests per window per API key; no rate limit when absent. */
  rateLimit?: RateLimitSettings;
  /** Who counts them; counted in this process alone when absent (`FixedWindowRateLimiter`). */
  rateLimiter?: RateLimiter;
  /** Where the metrics go; a fresh registry with process metrics when absent. */
  metrics?: ApiMetrics;
  /** Bearer token `GET /metrics` asks for; open when absent. */
  metricsToken?: string;
  /** Spans for each request and store call (`startTracing`); none when absent. */
  tracing?: RequestTracing;
  /** Origins whose pages may call the API (`*`: any); no CORS when absent or empty. */
  corsOrigins?: readonly string[];
  /**
   * Access-log and trace the probes and `/metrics` like every request; by default a `2xx` answer
   * there is neither (`PLATFORM_PATHS`).
   */
  observeProbes?: boolean;
  /** How long store calls may take and how many may wait at once (`503` beyond either). */
  storeLimits?: StoreLimits;
  /** What `/readyz` reports; a process that is never draining, its database never checked, when absent. */
  readiness?: Readiness;
}

/** The tracing middleware, skipping the platform's paths unless `observeProbes`. */
function traced(middleware: Middleware<AppState>, observeProbes: boolean): Middleware<AppState> {
  if (observeProbes) return middleware;
  return (ctx, next) => (PLATFORM_PATHS.has(ctx.path) ? next() : middleware(ctx, next));
}

/** Builds the Koa application without listening. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  const metrics = deps.metrics ?? new ApiMetrics();
  const clock = deps.clock ?? systemClock;
  // One body timeout for the body a route reads and for the rest of one it leaves unread.
  const bodyTimeoutMs = deps.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const store = new InstrumentedPetStore(
    deps.tracing ? deps.tracing.traceStore(deps.store) : deps.store,
    metrics,
    deps.storeLimits,
  );
  metrics.countStoreCalls(() => store.inFlight);
  const rateLimit =
    deps.rateLimit &&
    new RateLimit(
      deps.rateLimit,
      deps.rateLimiter ?? new FixedWindowRateLimiter(deps.rateLimit, clock),
      () => metrics.rateLimited.inc(),
    );
  const authenticate = requireApiKey(deps.apiKeys, (reason) =>
    metrics.authFailures.inc({ reason }),
  );
  const v1 = new Router<AppState>({ ...EXACT_ROUTES, prefix: API_PREFIX });
  const pets = petRoutes({
    store,
    clock,
    bodyLimitBytes: deps.bodyLimitBytes ?? BODY_LIMIT_BYTES,
    bodyTimeoutMs,
    guard: rateLimit ? [authenticate, rateLimit.middleware()] : [authenticate],
  });
  v1.use(documentRoutes().routes());
  v1.use(docsPageRoutes().routes());
  v1.use(pets.routes());
  const probes = probeRoutes(deps.readiness ?? new Readiness(deps.store));
  probes.get('/metrics', metricsHandler(metrics.registry, deps.metricsToken));
  // One router holds every route (mounting copies a nested router's routes into the parent),
  // so a request costs one route match instead of one per router.
  const root = new Router<AppState>(EXACT_ROUTES);
  root.use(probes.routes());
  root.use(v1.routes());

  // Each middleware does one thing; the order is the order a request meets them.
  if (deps.tracing) app.use(traced(deps.tracing.middleware, deps.observeProbes ?? false));
  app.use(requestId());
  app.use(
    accessLog(
      deps.logger,
      (method, route, status, ms) => metrics.observeRequest(method, route, status, ms / 1000),
      deps.observeProbes,
    ),
  );
  app.use(
    unreadBodies({
      limitBytes: DISCARD_LIMIT_BYTES,
      keylessLimitBytes: Math.min(deps.bodyLimitBytes ?? BODY_LIMIT_BYTES, DISCARD_LIMIT_BYTES),
      timeoutMs: bodyTimeoutMs,
    }),
  );
  app.use(errorAnswers(deps.logger));
  app.use(requestChecks(deps.maxUrlBytes ?? DEFAULT_MAX_URL_BYTES));
  if (deps.corsOrigins && deps.corsOrigins.length > 0) app.use(corsFor(deps.corsOrigins));
  app.use(root.routes());
  // What no route takes (404, 405, OPTIONS): the router calls it only for those.
  app.use(routerAnswers());
  // Koa logs what reaches it to stderr; errorAnswers has already answered and logged it.
  app.silent = true;
  return app;
}
