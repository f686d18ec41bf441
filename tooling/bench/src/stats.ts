/** Latency samples in milliseconds, kept exactly (a few hundred thousand per run at most). */
export class Samples {
  readonly #values: number[] = [];

  add(ms: number): void {
    this.#values.push(ms);
  }

  addAll(other: Samples): void {
    for (const ms of other.#values) this.#values.push(ms);
  }

  /** The samples' quantile for each `q` (0 < q <= 1), in milliseconds (NaN when empty). */
  quantiles(...qs: number[]): number[] {
    const sorted = Float64Array.from(this.#values).sort();
    return qs.map((q) =>
      sorted.length === 0
        ? Number.NaN
        : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number),
    );
  }
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
  const r = (v: number) => round(v, 3);
  return { median: r(median(values)), min: r(Math.min(...values)), max: r(Math.max(...values)) };
}

/** Rounds to `digits` decimals, for the report. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
