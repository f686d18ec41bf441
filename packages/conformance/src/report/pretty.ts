import {
  type CheckResult,
  type ConformanceReport,
  type Outcome,
  type ProgressEvent,
  READ_ONLY_SKIP,
} from '../types.js';

const MARK: Record<Outcome, string> = { pass: '✓', fail: '✗', advisory: '!', skip: '-' };

/** A progress handler that writes one line per step (for stderr). */
export function prettyProgress(write: (text: string) => void): (event: ProgressEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'start':
        write(`Checking ${event.baseUrl} (run ${event.runId}, ${event.checks} checks)\n`);
        break;
      case 'notice':
        write(`  … ${event.message}\n`);
        break;
      case 'check': {
        const { result } = event;
        const reason = result.outcome === 'pass' ? '' : `  ${result.message}`;
        write(`  ${MARK[result.outcome]} ${result.id}${reason}\n`);
        break;
      }
    }
  };
}

function line(result: CheckResult): string {
  return `  ${MARK[result.outcome]} ${result.id} (${result.section}): ${result.message}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Renders the summary a person reads: failures first, each with its section and reason. */
export function renderPretty(report: ConformanceReport): string {
  const { summary } = report;
  // Checks a read-only run left out are counted on one line rather than listed.
  const notRun = report.results.filter((r) => r.message === READ_ONLY_SKIP).length;
  const section = (title: string, outcome: Outcome) => {
    const results = report.results.filter(
      (r) => r.outcome === outcome && r.message !== READ_ONLY_SKIP,
    );
    const extra =
      outcome === 'skip' && notRun > 0
        ? [`  - ${notRun} checks that create pets (--read-only)`]
        : [];
    const lines = [...results.map(line), ...extra];
    return lines.length === 0 ? [] : ['', title, ...lines];
  };
  const seconds = (report.durationMs / 1000).toFixed(1);
  const created =
    report.created.count === 0
      ? 'Created no pets.'
      : `Created ${plural(report.created.count, 'pet')} named ${report.created.namePrefix}<n>; they stay on the server (the spec has no delete).`;
  const failedWhat = report.strict ? 'check' : 'must check';
  const verdict = report.ok
    ? `PASS: every must check passed${summary.advisories > 0 ? ` (${plural(summary.advisories, 'advisory', 'advisories')} to consider)` : ''}`
    : `FAIL: ${plural(summary.failed, failedWhat)} failed`;
  return [
    `Animal Store conformance kit ${report.kit.version}: ${report.baseUrl}`,
    `run ${report.runId}, ${plural(report.requests.length, 'request')} in ${seconds} s${report.readOnly ? ', read-only' : ''}${report.strict ? ', strict' : ''}`,
    ...section(report.strict ? 'Failed' : 'Failed (must)', 'fail'),
    ...section('Advisories (should: recommended where the spec leaves a gap)', 'advisory'),
    ...section('Skipped (could not be judged)', 'skip'),
    '',
    `${summary.passed} passed, ${summary.failed} failed, ${plural(summary.advisories, 'advisory', 'advisories')}, ${summary.skipped} skipped`,
    created,
    verdict,
    '',
  ].join('\n');
}
