import { AND_MORE } from '../plural.js';
import type { CheckResult } from '../types.js';

/**
 * What a failure says went wrong, apart from the request that showed it: the text after
 * `answered <status>: ` on its first line (`not a valid Error body: status is required`), without
 * the count of the check's other failing cases (` (and 2 more)`), which says nothing of the cause.
 */
export function causeOf(result: CheckResult): string | undefined {
  const first = result.message.split('\n')[0] ?? '';
  return /\banswered \d{3}: (.+)$/.exec(first)?.[1]?.replace(AND_MORE, '');
}

/** Failures that share one cause: the first shown in full, the others folded under it. */
export interface CauseGroup {
  readonly cause?: string;
  readonly results: readonly CheckResult[];
}

/**
 * `failed` grouped by shared cause, in the order each cause first appears: one root cause (say,
 * Error bodies without `status`) is one entry with the checks it breaks under it, not one card each.
 */
export function groupByCause(failed: readonly CheckResult[]): CauseGroup[] {
  const groups: { cause?: string; results: CheckResult[] }[] = [];
  const byCause = new Map<string, { results: CheckResult[] }>();
  for (const result of failed) {
    const cause = causeOf(result);
    const found = cause === undefined ? undefined : byCause.get(cause);
    if (found !== undefined) {
      found.results.push(result);
      continue;
    }
    const group = { cause, results: [result] };
    groups.push(group);
    if (cause !== undefined) byCause.set(cause, group);
  }
  return groups;
}
