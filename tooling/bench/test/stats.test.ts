import { describe, expect, it } from 'vitest';
import { Samples } from '../src/stats.js';

describe('Samples', () => {
  it('pools runs: the quantiles of runs added together are those of all their latencies', () => {
    const [first, second, pooled] = [new Samples(), new Samples(), new Samples()];
    // 99 fast requests in one run and one stalled request in the other.
    for (let i = 1; i <= 99; i++) first.add(i / 100);
    second.add(50);
    pooled.addAll(first);
    pooled.addAll(second);
    expect(pooled.quantiles(0.5, 0.99, 1)).toEqual([0.5, 0.99, 50]);
    // The runs themselves are unchanged.
    expect(first.quantiles(1)).toEqual([0.99]);
  });

  it('keeps every sample of a long run', () => {
    const many = new Samples();
    for (let i = 0; i < 200_000; i++) many.add(i % 1000);
    const pooled = new Samples();
    pooled.addAll(many);
    expect(pooled.quantiles(0.5, 1)).toEqual([499, 999]);
  });
});
