import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  type IdGenerator,
  ParentBasedSampler,
  RandomIdGenerator,
  type Sampler,
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

/** The sampler the environment names, and the share of root requests it samples. */
export interface EnvSampler {
  /** The SDK's sampler, as the SDK itself would build it from the same variables. */
  readonly sampler: Sampler;
  /** The share of requests without a caller's trace context that `sampler` samples, 0 to 1. */
  readonly rootRatio: number;
}

/**
 * The sampler `OTEL_TRACES_SAMPLER` (and `OTEL_TRACES_SAMPLER_ARG`) names, built as the SDK would
 * (default `parentbased_always_on`; a ratio sampler without a ratio samples all), except that a
 * value the SDK would log and replace stops the process with `ConfigError`. The API builds it
 * itself to decide a root request before any span exists (`RootSampling`).
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): EnvSampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  switch (name as (typeof SAMPLERS)[number]) {
    case 'always_on':
      return { sampler: new AlwaysOnSampler(), rootRatio: 1 };
    case 'always_off':
      return { sampler: new AlwaysOffSampler(), rootRatio: 0 };
    case 'traceidratio': {
      const ratio = ratioFrom(env);
      return { sampler: new TraceIdRatioBasedSampler(ratio), rootRatio: ratio };
    }
    case 'parentbased_always_on':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), rootRatio: 1 };
    case 'parentbased_always_off':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), rootRatio: 0 };
    case 'parentbased_traceidratio': {
      const ratio = ratioFrom(env);
      const root = new TraceIdRatioBasedSampler(ratio);
      return { sampler: new ParentBasedSampler({ root }), rootRatio: ratio };
    }
    default:
      throw new ConfigError(
        `OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got ${JSON.stringify(name)})`,
      );
  }
}

const TWO_TO_32 = 0x100000000;

/** A random unsigned 32-bit integer drawn from `random` (uniform in [0, 1)). */
const word = (random: () => number) => (random() * TWO_TO_32) >>> 0;

const hex8 = (value: number) => value.toString(16).padStart(8, '0');

/**
 * The sampling of requests that start a trace (no `traceparent`), decided by one random draw
 * before any span or id exists: a root request left out costs that draw and nothing more.
 *
 * The SDK's ratio sampler keeps a trace id when the XOR of its four 32-bit words is below
 * `floor(ratio × 0xffffffff)` (all of them at ratio 1). `sampleRoot` draws that XOR first, and
 * when it is below the bound builds a trace id that folds to it: three random words and the one
 * that makes the XOR come out. Roots are kept with the SDK's probability, every kept trace id is
 * one the SDK's sampler (and any service deciding by trace id at the same or a higher ratio) also
 * keeps, and the kept ids are uniform among those. The id goes to the provider through this
 * `IdGenerator`, for the span the caller starts at once.
 */
export class RootSampling implements IdGenerator {
  readonly #bound: number;
  readonly #random: () => number;
  readonly #ids = new RandomIdGenerator();
  /** The trace id the next root span takes: one `sampleRoot` kept. */
  #handedOver: string | undefined;

  /** `rootRatio` as `EnvSampler.rootRatio`; `random` as `Math.random`, for tests to replace. */
  constructor(rootRatio: number, random: () => number = Math.random) {
    this.#bound = rootRatio >= 1 ? TWO_TO_32 : Math.floor(Math.max(rootRatio, 0) * 0xffffffff);
    this.#random = random;
  }

  /**
   * Whether a request that starts a trace is sampled. When it is, the next root span started
   * (at once, by the caller) takes a trace id the sampler keeps.
   */
  sampleRoot(): boolean {
    const folded = word(this.#random);
    if (folded >= this.#bound) return false;
    this.#handedOver = this.#foldingTo(folded);
    return true;
  }

  /** A valid (not all-zero) trace id whose four words XOR to `folded`. */
  #foldingTo(folded: number): string {
    for (;;) {
      const a = word(this.#random);
      const b = word(this.#random);
      const c = word(this.#random);
      const d = (folded ^ a ^ b ^ c) >>> 0;
      if ((a | b | c | d) !== 0) return hex8(a) + hex8(b) + hex8(c) + hex8(d);
    }
  }

  generateTraceId(): string {
    const traceId = this.#handedOver;
    if (traceId === undefined) return this.#ids.generateTraceId();
    this.#handedOver = undefined;
    return traceId;
  }

  generateSpanId(): string {
    return this.#ids.generateSpanId();
  }
}
