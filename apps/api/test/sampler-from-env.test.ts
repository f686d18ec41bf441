import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config-error.js';
import { samplerFromEnv } from '../src/tracing/sampler-from-env.js';

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
    expect(named('traceidratio', '0')).toBe('TraceIdRatioBased{0}');
    expect(named('traceidratio', '1')).toBe('TraceIdRatioBased{1}');
    expect(named('traceidratio', ' 0.5 ')).toBe('TraceIdRatioBased{0.5}');
    expect(named('traceidratio', '  ')).toBe('TraceIdRatioBased{1}');
    expect(named('parentbased_always_off')).toMatch(/^ParentBased\{root=AlwaysOffSampler,/);
    expect(named(' parentbased_traceidratio ', '0.01')).toMatch(
      /^ParentBased\{root=TraceIdRatioBased\{0.01\},/,
    );
  });

  it('stops the start on a name or ratio the SDK would replace', () => {
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'ratio' })).toThrow(ConfigError);
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'ratio' })).toThrow(
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio (got "ratio")',
    );
    for (const arg of ['1.5', '-0.1', 'half']) {
      expect(() =>
        samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: arg }),
      ).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1/);
    }
  });
});
