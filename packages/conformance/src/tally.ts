// The counts and verdict of a list of results: of a run, of a report checked against
// `--expect-fail`, of judged traffic.
import {
  type CheckResult,
  type NotRun,
  type Outcome,
  READ_ONLY_SKIP,
  type RunVerdict,
  type Summary,
} from './types.js';

/** The results' counts, the `must` checks among them that could not judge, and the verdict. */
export function tally(results: readonly CheckResult[]): {
  summary: Summary;
  notRun: NotRun[];
  verdict: RunVerdict;
} {
  const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
  const summary = {
    passed: count('pass'),
    failed: count('fail'),
    advisories: count('advisory'),
    skipped: count('skip'),
  };
  const notRun = notRunOf(results);
  const verdict: RunVerdict =
    summary.failed > 0 ? 'fail' : notRun.length > 0 ? 'incomplete' : 'pass';
  return { summary, notRun, verdict };
}

/**
 * The `must` checks that could not judge the server, and why. A check a `--read-only` run leaves
 * out on purpose, or whose statement has nothing to apply to, is not among them.
 */
export function notRunOf(results: readonly CheckResult[]): NotRun[] {
  return results
    .filter(
      (r) =>
        r.level === 'must' &&
        r.outcome === 'skip' &&
        r.message !== READ_ONLY_SKIP &&
        r.notApplicable !== true,
    )
    .map((r) => ({ id: r.id, reason: r.message }));
}
