/** Latency samples in milliseconds, kept exactly (a few hundred thousand per run at most). */
export class Samples {
  #values = new Float64Array(1 << 16);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  add(ms: number): void {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count++] = ms;
  }

  /** p50, p90, p99, p99.9 and max, in milliseconds (NaN when empty). */
  summary(): LatencySummary {
    const sorted = this.#values.slice(0, this.#count).sort();
    const at = (q: number) =>
      sorted.length === 0
        ? Number.NaN
        : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99), p999: at(0.999), max: at(1) };
  }
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The median with the smallest and largest value: how a figure moved between rounds. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Rounds to `digits` decimals, for the report. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
