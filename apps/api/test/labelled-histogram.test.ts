import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelledHistogram } from '../src/metrics/labelled-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const LABELS = ['method', 'route', 'status'] as const;

/** A scrape's sample lines, each with its labels in name order, sorted: the order is free. */
function samples(text: string, prefix: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${prefix}_`))
    .map((line) =>
      line
        .slice(prefix.length)
        .replace(/\{(.*)\}/, (_, labels: string) => `{${labels.split(',').sort().join(',')}}`),
    )
    .sort();
}

function pair() {
  const registry = new Registry();
  const ours = new LabelledHistogram({
    name: 'ours',
    help: 'h',
    labelNames: LABELS,
    buckets: BUCKETS,
    registers: [registry],
  });
  const theirs = new Histogram({
    name: 'theirs',
    help: 'h',
    labelNames: [...LABELS],
    buckets: BUCKETS,
    registers: [registry],
  });
  return { registry, ours, theirs };
}

describe('LabelledHistogram', () => {
  it("scrapes exactly as prom-client's Histogram does after the same observations", async () => {
    const observation = fc.record({
      method: fc.constantFrom('GET', 'POST', 'HEAD'),
      route: fc.constantFrom('/v1/pets', '/v1/pets/:petId', 'unmatched', 'a "quoted"\\route'),
      status: fc.constantFrom(200, 201, 404, 500),
      // Bounds themselves included: a value equal to a bound counts in that bound's bucket.
      seconds: fc.oneof(fc.constantFrom(0, ...BUCKETS), fc.double({ min: 0, max: 5, noNaN: true })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const { registry, ours, theirs } = pair();
        for (const { method, route, status, seconds } of observations) {
          ours.observe([method, route, status], seconds);
          theirs.observe({ method, route, status }, seconds);
        }
        const text = await registry.metrics();
        expect(samples(text, 'ours')).toEqual(samples(text, 'theirs'));
        expect(samples(text, 'ours').length).toBe(
          new Set(observations.map((o) => `${o.method} ${o.route} ${o.status}`)).size *
            (BUCKETS.length + 3),
        );
      }),
    );
  });

  it('gives the JSON of prom-client (no exemplars), and a reset empties it', async () => {
    const { registry, ours, theirs } = pair();
    ours.observe(['GET', '/v1/pets', 200], 0.02);
    theirs.observe({ method: 'GET', route: '/v1/pets', status: 200 }, 0.02);
    const [json] = (await registry.getMetricsAsJSON()).filter((m) => m.name === 'ours');
    const [reference] = (await registry.getMetricsAsJSON()).filter((m) => m.name === 'theirs');
    expect(json).toEqual({ ...reference, name: 'ours', values: expect.any(Array) });
    // prom-client also gives each value an exemplar (null: exemplars are off).
    const renamed = (value: object) => {
      const {
        exemplar: _,
        metricName,
        ...rest
      } = value as { exemplar?: unknown; metricName?: string };
      return { ...rest, metricName: metricName?.replace('theirs', 'ours') };
    };
    expect(json?.values).toEqual(reference?.values.map(renamed));
    registry.resetMetrics();
    expect(samples(await registry.metrics(), 'ours')).toEqual([]);
    ours.observe(['GET', '/v1/pets', 200], 0.5);
    expect(samples(await registry.metrics(), 'ours')).toContain(
      '_count{method="GET",route="/v1/pets",status="200"} 1',
    );
  });

  it('refuses label values that do not match its label names, and values that are not finite', () => {
    const { ours } = pair();
    expect(() => ours.observe(['GET', '/v1/pets'], 1)).toThrow(/method, route, status/);
    expect(() => ours.observe(['GET', '/v1/pets', 200], Number.NaN)).toThrow(TypeError);
    expect(() => ours.observe(['GET', '/v1/pets', 200], Number.POSITIVE_INFINITY)).toThrow(
      TypeError,
    );
    expect(
      () =>
        new LabelledHistogram({
          name: 'x',
          help: 'h',
          labelNames: ['le'],
          buckets: BUCKETS,
          registers: [],
        }),
    ).toThrow(/reserved/);
  });
});
