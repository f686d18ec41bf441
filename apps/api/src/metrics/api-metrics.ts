import { Counter, collectDefaultMetrics, Registry } from 'prom-client';
import { LabelledHistogram } from './labelled-histogram.js';

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
  readonly #duration: LabelledHistogram<'method' | 'route' | 'status'>;
  /** Time each `PetStore` operation takes, by operation and outcome (`ok` or `error`). */
  readonly storeDuration: LabelledHistogram<'operation' | 'outcome'>;
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

  constructor(registry: Registry = new Registry(), options: { processMetrics?: boolean } = {}) {
    this.registry = registry;
    const registers = [registry];
    this.#duration = new LabelledHistogram({
      name: 'http_request_duration_seconds',
      help: 'Requests answered and the time to decide each answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.storeDuration = new LabelledHistogram({
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
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  }

  /** Records one answered request; `route` is its template, absent when no route matched. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number) {
    this.#duration.observe([method, route ?? UNMATCHED_ROUTE, status], seconds);
  }
}
