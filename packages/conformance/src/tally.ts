// The counts and verdict of a list of results, for reports made after a run (`--expect-fail`)
// or without one (judged traffic).
import { notRunOf } from './run.js';
import type { CheckResult, NotRun, Outcome, RunVerdict, Summary } from './types.js';

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
