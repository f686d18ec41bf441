import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import {
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config-error.js';
import { RootSampling, samplerFromEnv } from '../src/tracing/root-sampling.js';

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;

describe('the sampler OTEL_TRACES_SAMPLER names', () => {
  it('is parent-based and samples every root by default', () => {
    const { sampler, rootRatio } = samplerFromEnv({});
    expect(rootRatio).toBe(1);
    expect(sampler.toString()).toBe(
      'ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}',
    );
  });

  it('takes every standard name, in any case, with the ratio of OTEL_TRACES_SAMPLER_ARG', () => {
    const named = (OTEL_TRACES_SAMPLER: string, OTEL_TRACES_SAMPLER_ARG?: string) =>
      samplerFromEnv({ OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG }).sampler.toString();
    expect(named('always_on')).toBe('AlwaysOnSampler');
    expect(named('ALWAYS_OFF')).toBe('AlwaysOffSampler');
    expect(named('traceidratio', '0.25')).toBe('TraceIdRatioBased{0.25}');
    expect(named('traceidratio')).toBe('TraceIdRatioBased{1}');
    expect(named('parentbased_always_off')).toMatch(/^ParentBased\{root=AlwaysOffSampler,/);
    expect(named(' parentbased_traceidratio ', '0.01')).toMatch(
      /^ParentBased\{root=TraceIdRatioBased\{0.01\},/,
    );
  });

  it('gives the share of root requests each samples', () => {
    const share = (OTEL_TRACES_SAMPLER: string, OTEL_TRACES_SAMPLER_ARG?: string) =>
      samplerFromEnv({ OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG }).rootRatio;
    expect(share('always_on')).toBe(1);
    expect(share('always_off')).toBe(0);
    expect(share('traceidratio', '0.25')).toBe(0.25);
    expect(share('traceidratio')).toBe(1);
    expect(share('parentbased_always_on')).toBe(1);
    expect(share('parentbased_always_off')).toBe(0);
    expect(share('parentbased_traceidratio', '0.01')).toBe(0.01);
  });

  it('stops the start on a name or ratio the SDK would replace', () => {
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'ratio' })).toThrow(ConfigError);
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'ratio' })).toThrow(/parentbased_always_on/);
    for (const arg of ['1.5', '-0.1', 'half']) {
      expect(() =>
        samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: arg }),
      ).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1/);
    }
  });
});

/** A `random` that returns `draws` in turn, then Math.random's. */
const drawing =
  (...draws: number[]) =>
  () =>
    draws.shift() ?? Math.random();

const sdkKeeps = (sampler: Sampler, traceId: string) =>
  sampler.shouldSample(ROOT_CONTEXT, traceId, 'GET', SpanKind.SERVER, {}, []).decision ===
  SamplingDecision.RECORD_AND_SAMPLED;

describe('root sampling (decided before any span)', () => {
  it('leaves out every root at ratio 0 and hands nothing over', () => {
    const roots = new RootSampling(0, drawing(0));
    expect(roots.sampleRoot()).toBe(false);
    for (let i = 0; i < 100; i++) expect(roots.sampleRoot()).toBe(false);
    const next = roots.generateTraceId();
    expect(next).toMatch(TRACE_ID);
    expect(roots.generateTraceId()).not.toBe(next);
  });

  it('keeps a root when its one draw falls below the ratio, as the SDK bounds it', () => {
    const bound = Math.floor(0.01 * 0xffffffff);
    expect(new RootSampling(0.01, drawing(bound / 2 ** 32)).sampleRoot()).toBe(false);
    expect(new RootSampling(0.01, drawing((bound - 1) / 2 ** 32)).sampleRoot()).toBe(true);
    expect(new RootSampling(0.01, drawing(0.5)).sampleRoot()).toBe(false);
    expect(new RootSampling(1, drawing(0.999_999_999_9)).sampleRoot()).toBe(true);
  });

  it('hands a kept root trace id to the next root span, once', () => {
    const roots = new RootSampling(1);
    expect(roots.sampleRoot()).toBe(true);
    const traceId = roots.generateTraceId();
    expect(traceId).toMatch(TRACE_ID);
    expect(roots.generateTraceId()).not.toBe(traceId);
    expect(roots.generateSpanId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it('hands over only trace ids the SDK keeps at the same ratio, distinct, never all zero', () => {
    for (const ratio of [0.01, 0.5, 1]) {
      const sampler = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
      const roots = new RootSampling(ratio);
      const kept = new Set<string>();
      while (kept.size < 200) {
        if (!roots.sampleRoot()) continue;
        const traceId = roots.generateTraceId();
        expect(traceId).toMatch(TRACE_ID);
        expect(sdkKeeps(sampler, traceId)).toBe(true);
        kept.add(traceId);
      }
    }
  });

  it('builds a valid trace id when every word it draws is zero', () => {
    const roots = new RootSampling(0.5, drawing(0, 0, 0, 0));
    expect(roots.sampleRoot()).toBe(true);
    const traceId = roots.generateTraceId();
    expect(traceId).toMatch(TRACE_ID);
    expect(sdkKeeps(new TraceIdRatioBasedSampler(0.5), traceId)).toBe(true);
  });

  it('keeps the share of roots the ratio asks for', () => {
    // 20 000 draws at 0.25: the share kept lies within 0.22-0.28 but once in about 10^23 runs.
    const roots = new RootSampling(0.25);
    let kept = 0;
    for (let i = 0; i < 20_000; i++) if (roots.sampleRoot()) kept++;
    expect(kept / 20_000).toBeGreaterThan(0.22);
    expect(kept / 20_000).toBeLessThan(0.28);
  });
});
