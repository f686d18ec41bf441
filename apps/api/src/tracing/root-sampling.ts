import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  type IdGenerator,
  ParentBasedSampler,
  RandomIdGenerator,
  type Sampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ConfigError } from '../config-error.js';

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

function ratioFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!raw) return 1;
  const ratio = Number(raw);
  if (!(ratio >= 0 && ratio <= 1)) {
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got ${JSON.stringify(raw)})`,
    );
  }
  return ratio;
}

/**
 * The sampler `OTEL_TRACES_SAMPLER` (and `OTEL_TRACES_SAMPLER_ARG`) names, built as the SDK would
 * (default `parentbased_always_on`; a ratio sampler without a ratio samples all), except that a
 * value the SDK would log and replace stops the process with `ConfigError`. The API builds it
 * itself to ask it about a request before any span exists (`RootSampling`).
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  switch (name as (typeof SAMPLERS)[number]) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioFrom(env));
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioFrom(env)) });
    default:
      throw new ConfigError(
        `OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got ${JSON.stringify(name)})`,
      );
  }
}

/**
 * The sampling of requests that start a trace (no `traceparent`), decided before any span: a root
 * request the sampler leaves out gets a trace id (for its log line) and nothing more, where the
 * SDK's `startSpan` would also make a span id, a span context and a non-recording span. Every
 * sampler `samplerFromEnv` builds decides a root on its trace id alone, so asking it here gives
 * the answer the SDK gets when it asks again for the span of a sampled request, which takes the
 * same trace id: it is the provider's `IdGenerator`, and hands the id over.
 */
export class RootSampling implements IdGenerator {
  readonly #sampler: Sampler;
  readonly #random = new RandomIdGenerator();
  /** The trace id the next root span takes: one `decide` made and sampled. */
  #handedOver: string | undefined;

  constructor(sampler: Sampler) {
    this.#sampler = sampler;
  }

  /**
   * A fresh trace id and whether a root request with it is sampled. When it is, the next root
   * span started (at once, by the caller) takes that trace id.
   */
  decide(spanName: string): { traceId: string; sampled: boolean } {
    const traceId = this.#random.generateTraceId();
    const { decision } = this.#sampler.shouldSample(
      ROOT_CONTEXT,
      traceId,
      spanName,
      SpanKind.SERVER,
      {},
      [],
    );
    const sampled = decision !== SamplingDecision.NOT_RECORD;
    if (sampled) this.#handedOver = traceId;
    return { traceId, sampled };
  }

  generateTraceId(): string {
    const traceId = this.#handedOver;
    if (traceId === undefined) return this.#random.generateTraceId();
    this.#handedOver = undefined;
    return traceId;
  }

  generateSpanId(): string {
    return this.#random.generateSpanId();
  }
}
