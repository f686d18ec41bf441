import { plural } from '../plural.js';
import {
  type CheckResult,
  type ConformanceReport,
  type Outcome,
  type ProgressEvent,
  READ_ONLY_SKIP,
} from '../types.js';
import { groupByCause } from './causes.js';
import { createdSentence } from './created.js';
import { sectionLinks } from './spec-links.js';
import { trafficLines } from './traffic.js';
import { notRunIds, notRunSummary } from './verdict.js';

const MARK: Record<Outcome, string> = { pass: '✓', fail: '✗', advisory: '!', skip: '-' };

/** True for C0 and C1 controls, and for the Unicode marks that reorder or break lines. */
function isControl(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * Text for a terminal: every control character a server may have sent (escape sequences, bells,
 * carriage returns) shown as `\xNN` / `\uNNNN` instead of acted on; line breaks become indented
 * continuation lines.
 */
export function terminalSafe(text: string, indent = '    '): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '\n') out += `\n${indent}`;
    else if (!isControl(code)) out += char;
    else if (code <= 0xff) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** A progress handler that writes one line per step (for stderr). */
export function prettyProgress(write: (text: string) => void): (event: ProgressEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'start':
        write(
          `Checking ${terminalSafe(event.baseUrl)} (run ${event.runId}, seed ${event.seed}, ${event.checks} checks)\n`,
        );
        break;
      case 'notice':
        write(`  … ${terminalSafe(event.message)}\n`);
        break;
      case 'check': {
        const { result } = event;
        // Progress shows the first line of a reason; the report gives all of it.
        const reason = result.outcome === 'pass' ? '' : `  ${result.message.split('\n')[0]}`;
        write(`  ${MARK[result.outcome]} ${result.id}${terminalSafe(reason)}\n`);
        break;
      }
    }
  };
}

function line(result: CheckResult): string {
  return `  ${MARK[result.outcome]} ${result.id} (${result.section}): ${terminalSafe(result.message)}`;
}

/** The failures, grouped by root cause: the cause first, the checks it breaks folded under it. */
function failedSection(report: ConformanceReport): string[] {
  const failed = report.results.filter((r) => r.outcome === 'fail');
  if (failed.length === 0) return [];
  const lines = groupByCause(failed).flatMap(({ cause, results }) => {
    const [first, ...rest] = results as [CheckResult, ...CheckResult[]];
    if (rest.length === 0) return [line(first)];
    return [
      `  Root cause of ${results.length} failures: ${terminalSafe(cause ?? '')}`,
      line(first),
      `    the same for: ${rest.map((r) => r.id).join(', ')}`,
    ];
  });
  return ['', report.strict ? 'Failed' : 'Failed (must)', ...lines];
}

/** Renders the summary a person reads: failures first, each with its section and reason. */
export function renderPretty(report: ConformanceReport): string {
  const { summary } = report;
  // Checks a read-only run left out are counted on one line rather than listed.
  const leftOut = report.results.filter((r) => r.message === READ_ONLY_SKIP).length;
  const notRun = notRunIds(report);
  const section = (title: string, outcome: Outcome) => {
    const results = report.results.filter(
      (r) => r.outcome === outcome && r.message !== READ_ONLY_SKIP && !notRun.has(r.id),
    );
    const extra =
      outcome === 'skip' && leftOut > 0
        ? [`  - ${leftOut} checks that create pets (--read-only)`]
        : [];
    const lines = [...results.map(line), ...extra];
    return lines.length === 0 ? [] : ['', title, ...lines];
  };
  const seconds = (report.durationMs / 1000).toFixed(1);
  const created = createdSentence(report.created, (pattern) => pattern);
  const failedWhat = report.strict ? 'check' : 'must check';
  const advised =
    summary.advisories > 0
      ? ` (${plural(summary.advisories, 'advisory', 'advisories')} to consider)`
      : '';
  const verdict = {
    pass: report.traffic
      ? `PASS: no exchange broke a must check${advised}`
      : `PASS: every must check ran and passed${leftOut > 0 ? `, except the ${leftOut} that create pets (--read-only)` : ''}${advised}`,
    fail: `FAIL: ${plural(summary.failed, failedWhat)} failed`,
    incomplete: `INCOMPLETE: no check failed, but ${notRunSummary(report)} (listed above, with why)`,
  }[report.verdict];
  const notRunLines = report.results
    .filter((r) => notRun.has(r.id))
    .map((r) => `  - ${r.id} (${r.section}): ${terminalSafe(r.message)}`);
  const hints = report.hints.map((hint) => `HINT: ${terminalSafe(hint)}`);
  // Every contract section a failure or an advisory cites, with its link.
  const cited = [
    ...new Set(
      report.results
        .filter((r) => r.outcome === 'fail' || r.outcome === 'advisory')
        .flatMap((r) => r.section.match(/§[0-9.]+/g) ?? []),
    ),
  ].sort();
  const links = cited.flatMap((s) => sectionLinks(s).map((url) => `  ${s}: ${url}`));
  return [
    `Animal Store conformance kit ${report.kit.version}: ${terminalSafe(report.baseUrl)}`,
    ...(report.traffic === undefined
      ? [
          `run ${report.runId}, seed ${report.seed} (--seed ${report.seed} replays its cases), ${plural(report.requests.length, 'request')} in ${seconds} s${report.readOnly ? ', read-only' : ''}${report.strict ? ', strict' : ''}`,
        ]
      : trafficLines(report.traffic).map((l) => terminalSafe(l))),
    ...(hints.length === 0 ? [] : ['', ...hints]),
    ...failedSection(report),
    ...(notRunLines.length === 0
      ? []
      : [
          '',
          'Not run (must checks that could not judge: the run is INCOMPLETE)',
          ...notRunLines,
          ...(report.fullVerdict === undefined
            ? []
            : [`  For a full verdict: ${terminalSafe(report.fullVerdict)}`]),
        ]),
    ...section('Advisories (should: recommended where the spec leaves a gap)', 'advisory'),
    ...section('Skipped (could not be judged)', 'skip'),
    ...(links.length === 0 ? [] : ['', 'The contract sections cited:', ...links]),
    '',
    `${summary.passed} passed, ${summary.failed} failed, ${plural(summary.advisories, 'advisory', 'advisories')}, ${summary.skipped} skipped`,
    ...(report.traffic === undefined ? [created] : []),
    verdict,
    '',
  ].join('\n');
}
