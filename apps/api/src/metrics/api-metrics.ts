import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Why a request was refused `401`: no key, not a bearer token, a key never issued, a revoked key. */
export const AUTH_FAILURE_REASONS = ['missing', 'malformed', 'unknown', 'revoked'] as const;
export type AuthFailureReason = (typeof AUTH_FAILURE_REASONS)[number];

/** What a store error was: the database unreachable, a wait that ran out, anything else. */
export const STORE_ERROR_KINDS = ['unavailable', 'timeout', 'other'] as const;
export type StoreErrorKind = (typeof STORE_ERROR_KINDS)[number];

/** The `PetStore` operations the store metrics name. */
export const STORE_OPERATIONS = ['create', 'createOnce', 'get', 'list', 'ping'] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];

/** What became of a create sent with an `Idempotency-Key` (`IdempotentCreateResult`). */
export const IDEMPOTENT_OUTCOMES = ['created', 'replayed', 'key-reused', 'in-flight'] as const;
export type IdempotentOutcome = (typeof IDEMPOTENT_OUTCOMES)[number];

/** The route label of a request no route matched (404, 405): never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Where @koa/router records the template of the route it matched. */
interface RoutedContext {
  _matchedRoute?: string | RegExp;
}

/** The template of the route that answered (e.g. `/v1/pets/:petId`), if any matched. */
export function routeTemplate(ctx: object): string | undefined {
  const matched = (ctx as RoutedContext)._matchedRoute;
  return typeof matched === 'string' ? matched : undefined;
}

// From 0.5 ms: most answers of the in-memory store take well under 5 ms.
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/**
 * The service's Prometheus metrics, on a registry of their own (one per app, so tests never
 * share the global one). Every label has a bounded set of values: route templates, HTTP
 * methods Node accepts, status codes, store operation names.
 *
 * The request count is the latency histogram's `http_request_duration_seconds_count` series (a
 * counter, as Prometheus defines histograms): one observation per request, no second metric to
 * update on the hot path.
 */
export class ApiMetrics {
  readonly registry: Registry;
  readonly #duration: Histogram<'method' | 'route' | 'status'>;
  /**
   * `#duration`'s series, each bound once, by method, route and status: a request names no
   * labels. The sets of those are bounded (see above), and so is this map.
   */
  readonly #durationSeries = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  /** Time each `PetStore` operation takes, by operation and outcome (`ok` or `error`). */
  readonly storeDuration: Histogram<'operation' | 'outcome'>;
  /** Requests refused with `429` by the per-key rate limit. */
  readonly rateLimited: Counter<never>;
  /** Leases of a key's quota taken from MongoDB (`RATE_LIMIT_SCOPE=cluster`). */
  readonly rateLimitLeases: Counter<never>;
  /** Times the shared rate limit could not reach MongoDB and counted per process instead. */
  readonly rateLimitFallbacks: Counter<never>;
  /** Requests Node refused before the application saw them (`400`, `408`, `413`, `431`). */
  readonly protocolErrors: Counter<'status'>;
  /** Connections closed unanswered because `maxConnections` were already open. */
  readonly droppedConnections: Counter<never>;
  /** Store operations that failed, by operation and kind (`StoreErrorKind`). */
  readonly storeErrors: Counter<'operation' | 'kind'>;
  /** Requests refused `401`, by reason (`AuthFailureReason`). */
  readonly authFailures: Counter<'reason'>;
  /** Creates sent with an `Idempotency-Key`, by outcome (`IdempotentOutcome`). */
  readonly idempotentCreates: Counter<'outcome'>;
  /** Reads the requests in flight at scrape time (`countInFlight`); none until told. */
  #inFlight: () => number = () => 0;
  /** Reads the store calls in flight at scrape time (`countStoreCalls`); none until told. */
  #storeCalls: () => number = () => 0;

  constructor(registry: Registry = new Registry(), options: { processMetrics?: boolean } = {}) {
    this.registry = registry;
    const registers = [registry];
    this.#duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Requests answered and the time to decide each answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.storeDuration = new Histogram({
      name: 'pet_store_operation_duration_seconds',
      help: 'Time each pet store operation takes, by operation and outcome',
      labelNames: ['operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.rateLimited = new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429 because their API key was over its rate limit',
      registers,
    });
    this.rateLimitLeases = new Counter({
      name: 'rate_limit_leases_total',
      help: 'Leases of a key quota taken from MongoDB by the shared rate limit (one round-trip each)',
      registers,
    });
    this.rateLimitFallbacks = new Counter({
      name: 'rate_limit_fallbacks_total',
      help: 'Times the shared rate limit could not reach MongoDB and counted in this process until the window ended',
      registers,
    });
    this.protocolErrors = new Counter({
      name: 'http_protocol_errors_total',
      help: 'Requests refused before routing (malformed, too slow, headers too large), by status',
      labelNames: ['status'],
      registers,
    });
    this.droppedConnections = new Counter({
      name: 'http_dropped_connections_total',
      help: 'Connections closed at once, unanswered, because the maximum were already open',
      registers,
    });
    this.storeErrors = new Counter({
      name: 'pet_store_errors_total',
      help: 'Pet store operations that failed, by operation and kind (unavailable, timeout, other)',
      labelNames: ['operation', 'kind'],
      registers,
    });
    for (const operation of STORE_OPERATIONS) {
      for (const kind of STORE_ERROR_KINDS) this.storeErrors.inc({ operation, kind }, 0);
    }
    this.authFailures = new Counter({
      name: 'auth_failures_total',
      help: 'Requests refused 401, by reason (missing, malformed, unknown, revoked)',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of AUTH_FAILURE_REASONS) this.authFailures.inc({ reason }, 0);
    this.idempotentCreates = new Counter({
      name: 'idempotent_creates_total',
      help: 'Creates sent with an Idempotency-Key, by outcome (created, replayed, key-reused, in-flight)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of IDEMPOTENT_OUTCOMES) this.idempotentCreates.inc({ outcome }, 0);
    const metrics = this;
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests the application has started to answer and not finished',
      registers,
      collect() {
        this.set(metrics.#inFlight());
      },
    });
    new Gauge({
      name: 'pet_store_calls_in_flight',
      help: 'Pet store calls waiting on the store now; at STORE_MAX_IN_FLIGHT more are answered 503 at once',
      registers,
      collect() {
        this.set(metrics.#storeCalls());
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  }

  /**
   * Has `http_requests_in_flight` read `count` at each scrape: the server counts its requests
   * for its drain already, so a request pays nothing more for the gauge.
   */
  countInFlight(count: () => number): void {
    this.#inFlight = count;
  }

  /** Has `pet_store_calls_in_flight` read `count` at each scrape (the store counts its calls). */
  countStoreCalls(count: () => number): void {
    this.#storeCalls = count;
  }

  /** Records one answered request; `route` is its template, absent when no route matched. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number) {
    const key = `${method} ${status} ${route ?? ''}`;
    let series = this.#durationSeries.get(key);
    if (series === undefined) {
      series = this.#duration.labels({ method, route: route ?? UNMATCHED_ROUTE, status });
      this.#durationSeries.set(key, series);
    }
    series.observe(seconds);
  }
}
