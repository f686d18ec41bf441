// `--expect-fail FILE`: the checks a server is known to fail, each with a reason. A run passes
// when exactly those fail; any other failure fails it, and so does a listed check that now
// passes (its line is to be removed, so the file only shrinks).
import { readFileSync } from 'node:fs';
import { UsageError } from './run.js';
import { runOrder } from './sections/index.js';
import { tally } from './tally.js';
import { TRAFFIC_RULES } from './traffic/rules.js';
import type { CheckResult, ConformanceReport } from './types.js';

/** One check the server is known to fail, and why. */
export interface ExpectedFailure {
  readonly id: string;
  readonly reason: string;
  /** Its line in the file. */
  readonly line: number;
}

/** The file's expected failures, and its name for messages. */
export interface Expectations {
  readonly file: string;
  readonly failures: readonly ExpectedFailure[];
}

/** Every check id a run or a traffic judge can report. */
export function knownCheckIds(): Set<string> {
  return new Set([...runOrder(true).map((c) => c.id), ...TRAFFIC_RULES.map((r) => r.id)]);
}

/**
 * Parses an expectations file: one check per line, its id, then white space, then the reason
 * (required); `#` starts a comment line; blank lines are ignored. Throws `UsageError` naming the
 * line of an unknown id, a missing reason or an id listed twice.
 */
export function parseExpectations(text: string, file: string): Expectations {
  const known = knownCheckIds();
  const failures: ExpectedFailure[] = [];
  const problems: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^(\S+)(?:\s+(.*))?$/.exec(trimmed) as RegExpExecArray;
    const id = match[1] as string;
    const reason = match[2]?.trim() ?? '';
    if (!known.has(id)) {
      problems.push(`${file}:${line}: unknown check id "${id}"`);
    } else if (reason === '') {
      problems.push(`${file}:${line}: "${id}" has no reason (write it after the id)`);
    } else if (failures.some((f) => f.id === id)) {
      problems.push(`${file}:${line}: "${id}" is listed twice`);
    } else {
      failures.push({ id, reason, line });
    }
  }
  if (problems.length > 0) {
    throw new UsageError(`--expect-fail: ${problems.join('; ')}`);
  }
  return { file, failures };
}

/** Reads `--expect-fail FILE`; throws `UsageError` when it cannot be read or is wrong. */
export function readExpectations(file: string): Expectations {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --expect-fail ${file}: ${(error as Error).message}`);
  }
  return parseExpectations(text, file);
}

/** What `--expect-fail` made of a report's results. */
export interface ExpectationOutcome {
  /** Listed checks that failed, as expected. */
  readonly failedAsExpected: readonly string[];
  /** Listed checks that passed: their lines are to be removed. */
  readonly nowPassing: readonly string[];
  /** Failures the file does not list. */
  readonly unexpected: readonly string[];
}

/**
 * The report as `--expect-fail` judges it: a listed check that failed is reported as skipped with
 * its reason (it no longer fails the run), a listed check that passed fails with a message to
 * remove its line, and the verdict follows. Listed checks the run did not judge stay as they are.
 */
export function applyExpectations(
  report: ConformanceReport,
  expectations: Expectations,
): { report: ConformanceReport; outcome: ExpectationOutcome } {
  const listed = new Map(expectations.failures.map((f) => [f.id, f]));
  const failedAsExpected: string[] = [];
  const nowPassing: string[] = [];
  const results = report.results.map((r): CheckResult => {
    const expected = listed.get(r.id);
    if (expected === undefined) return r;
    const where = `${expectations.file}:${expected.line}`;
    if (r.outcome === 'fail' || r.outcome === 'advisory') {
      failedAsExpected.push(r.id);
      return {
        ...r,
        outcome: 'skip',
        notApplicable: true,
        message: `fails as expected (${where}: ${expected.reason}): ${r.message}`,
      };
    }
    if (r.outcome === 'pass') {
      nowPassing.push(r.id);
      return {
        ...r,
        outcome: 'fail',
        message: `passes now, but ${where} lists it as failing (${expected.reason}): remove that line from ${expectations.file}`,
      };
    }
    return r;
  });
  const unexpected = results
    .filter((r) => r.outcome === 'fail' && !nowPassing.includes(r.id))
    .map((r) => r.id);
  const { summary, notRun, verdict } = tally(results);
  const hints = [
    ...report.hints,
    ...(failedAsExpected.length === 0
      ? []
      : [
          `${failedAsExpected.length} check(s) failed as ${expectations.file} expects: ${failedAsExpected.join(', ')}`,
        ]),
    ...(nowPassing.length === 0
      ? []
      : [
          `${nowPassing.length} check(s) listed in ${expectations.file} now pass: ${nowPassing.join(', ')}; remove their lines (the file only shrinks)`,
        ]),
  ];
  return {
    report: { ...report, results, summary, notRun, verdict, ok: verdict === 'pass', hints },
    outcome: { failedAsExpected, nowPassing, unexpected },
  };
}
