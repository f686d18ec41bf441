import { plural } from '../plural.js';
import type { ConformanceReport, RunVerdict } from '../types.js';

/** Each verdict as reports write it. */
export const VERDICT_LABEL: Readonly<Record<RunVerdict, string>> = {
  pass: 'PASS',
  fail: 'FAIL',
  incomplete: 'INCOMPLETE',
};

/** The ids of the `must` checks that could not run (what makes a run INCOMPLETE). */
export function notRunIds(report: ConformanceReport): ReadonlySet<string> {
  return new Set(report.notRun.map((n) => n.id));
}

/** `N must checks could not run`, the INCOMPLETE verdict's reason. */
export function notRunSummary(report: ConformanceReport): string {
  const n = report.notRun.length;
  return `${plural(n, 'must check')} could not run`;
}
