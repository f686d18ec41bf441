import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import {
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config-error.js';
import { RootSampling, samplerFromEnv } from '../src/tracing/root-sampling.js';

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;

describe('the sampler OTEL_TRACES_SAMPLER names', () => {
  it('is parent-based and samples every root by default', () => {
    const sampler = samplerFromEnv({});
    expect(sampler.toString()).toBe(
      'ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}',
    );
  });

  it('takes every standard name, in any case, with the ratio of OTEL_TRACES_SAMPLER_ARG', () => {
    const named = (OTEL_TRACES_SAMPLER: string, OTEL_TRACES_SAMPLER_ARG?: string) =>
      samplerFromEnv({ OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG }).toString();
    expect(named('always_on')).toBe('AlwaysOnSampler');
    expect(named('ALWAYS_OFF')).toBe('AlwaysOffSampler');
    expect(named('traceidratio', '0.25')).toBe('TraceIdRatioBased{0.25}');
    expect(named('traceidratio')).toBe('TraceIdRatioBased{1}');
    expect(named('parentbased_always_off')).toMatch(/^ParentBased\{root=AlwaysOffSampler,/);
    expect(named(' parentbased_traceidratio ', '0.01')).toMatch(
      /^ParentBased\{root=TraceIdRatioBased\{0.01\},/,
    );
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

describe('root sampling (decided before any span)', () => {
  it('leaves out a root the sampler leaves out, with a trace id of its own for the log', () => {
    const roots = new RootSampling(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }));
    const first = roots.decide('GET');
    const second = roots.decide('GET');
    expect(first).toEqual({ traceId: expect.stringMatching(TRACE_ID), sampled: false });
    expect(second.traceId).not.toBe(first.traceId);
    // Nothing was handed over: the next root span gets a fresh id.
    const next = roots.generateTraceId();
    expect(next).toMatch(TRACE_ID);
    expect([first.traceId, second.traceId]).not.toContain(next);
  });

  it('hands a sampled root trace id to the next root span, once', () => {
    const roots = new RootSampling(samplerFromEnv({}));
    const { traceId, sampled } = roots.decide('GET');
    expect(sampled).toBe(true);
    expect(roots.generateTraceId()).toBe(traceId);
    expect(roots.generateTraceId()).not.toBe(traceId);
    expect(roots.generateSpanId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it('decides as the SDK does when it asks the same sampler about the same trace id', () => {
    const sampler = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.5) });
    const roots = new RootSampling(sampler);
    const decisions = Array.from({ length: 200 }, () => roots.decide('GET'));
    for (const { traceId, sampled } of decisions) {
      const sdk = sampler.shouldSample(ROOT_CONTEXT, traceId, 'GET', SpanKind.SERVER, {}, []);
      expect(sampled).toBe(sdk.decision === SamplingDecision.RECORD_AND_SAMPLED);
      if (sampled) roots.generateTraceId();
    }
    // Half the ids are sampled: both answers occur in 200 decisions.
    expect(new Set(decisions.map((d) => d.sampled))).toEqual(new Set([true, false]));
  });
});
