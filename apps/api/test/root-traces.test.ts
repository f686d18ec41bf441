import { type Context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { RequestTraceIds, ROOT_TRACES_PER_DRAW, RootTraces } from '../src/tracing/root-traces.js';

/** `count` root traces of `sampler`: each a trace id, or undefined where it was left out. */
function draw(sampler: Sampler, count: number): (string | undefined)[] {
  const roots = new RootTraces(sampler, new RequestTraceIds());
  return Array.from({ length: count }, () => roots.next());
}

/** Keeps every `nth` trace it is asked about, and records what it was asked. */
class EveryNth implements Sampler {
  readonly asked: { context: Context; traceId: string; kind: SpanKind }[] = [];
  constructor(private readonly nth: number) {}
  shouldSample(context: Context, traceId: string, _name: string, kind: SpanKind): SamplingResult {
    const keep = this.asked.length % this.nth === 0;
    this.asked.push({ context, traceId, kind });
    return { decision: keep ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
  }
}

describe('RootTraces', () => {
  it('gives each trace the decision the sampler made on its id, in order, across draws', () => {
    const sampler = new EveryNth(3);
    const count = 2 * ROOT_TRACES_PER_DRAW + 7;
    const traces = draw(sampler, count);
    expect(sampler.asked.length).toBe(3 * ROOT_TRACES_PER_DRAW);
    traces.forEach((traceId, i) => {
      expect(traceId).toBe(i % 3 === 0 ? sampler.asked[i]?.traceId : undefined);
    });
  });

  it('asks about a root server span: no parent span', () => {
    const sampler = new EveryNth(1);
    draw(sampler, 1);
    expect(sampler.asked).toHaveLength(ROOT_TRACES_PER_DRAW);
    for (const { context, kind } of sampler.asked) {
      expect(trace.getSpanContext(context)).toBeUndefined();
      expect(kind).toBe(SpanKind.SERVER);
    }
  });

  it('keeps the ids a ratio sampler keeps, and about its share of them', () => {
    const ratio = 0.5;
    const count = 4 * ROOT_TRACES_PER_DRAW;
    const kept = draw(new TraceIdRatioBasedSampler(ratio), count).filter((id) => id !== undefined);
    const judge = new TraceIdRatioBasedSampler(ratio);
    for (const id of kept) {
      expect(judge.shouldSample(ROOT_CONTEXT, id).decision).toBe(
        SamplingDecision.RECORD_AND_SAMPLED,
      );
    }
    // 1,024 fair draws: outside 35-65% has odds below 1 in 10^20.
    expect(kept.length).toBeGreaterThan(0.35 * count);
    expect(kept.length).toBeLessThan(0.65 * count);
    expect(new Set(kept).size).toBe(kept.length);
  });

  it('keeps every trace under always_on, each a valid id of its own, and none under always_off', () => {
    const count = ROOT_TRACES_PER_DRAW + 1;
    const all = draw(new AlwaysOnSampler(), count);
    for (const id of all) expect(id).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(new Set(all).size).toBe(count);
    expect(draw(new AlwaysOffSampler(), count).every((id) => id === undefined)).toBe(true);
  });
});

describe('RequestTraceIds', () => {
  it('gives the next trace the id handed over, once, and random ids otherwise', () => {
    const ids = new RequestTraceIds();
    const decided = ids.next();
    ids.handOver(decided);
    expect(ids.generateTraceId()).toBe(decided);
    const after = [ids.generateTraceId(), ids.generateTraceId()];
    for (const id of after) expect(id).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(new Set([decided, ...after]).size).toBe(3);
    const spans = [ids.generateSpanId(), ids.generateSpanId()];
    for (const id of spans) expect(id).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
    expect(spans[0]).not.toBe(spans[1]);
  });
});
