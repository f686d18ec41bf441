import { plural } from '../plural.js';
import type { CheckResult, ConformanceReport, Outcome } from '../types.js';
import { READ_ONLY_SKIP } from '../types.js';
import { groupByCause } from './causes.js';
import { createdSentence } from './created.js';
import { sectionLinks } from './spec-links.js';
import { trafficLines } from './traffic.js';
import { notRunIds, notRunSummary, VERDICT_LABEL } from './verdict.js';

/**
 * Text inside a Markdown paragraph or table cell (never at the start of a line): HTML is written
 * as entities and every character Markdown acts on inside a line is backslash-escaped, so a
 * server's text shows as sent.
 */
export function markdownText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/\r?\n|\r/g, ' ');
}

/**
 * A fenced code block holding `text` as it is: the fence is longer than any run of backticks
 * in the text, so nothing in it can close the block (GitHub renders no HTML inside one).
 */
export function markdownCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

/** The section a result cites, each part linked to its heading in the specification. */
function cited(result: CheckResult): string {
  const links = sectionLinks(result.section);
  const text = markdownText(result.section);
  return links.length === 0
    ? text
    : `${text} (${links.map((l, i) => `[${i + 1}](${l})`).join(', ')})`;
}

function entry(result: CheckResult): string[] {
  return [
    `#### \`${result.id}\`: ${markdownText(result.title)}`,
    '',
    `${result.level}, ${cited(result)}`,
    '',
    markdownCode(result.message),
    '',
  ];
}

/** A block folded under `summary` (GitHub shows `<details>` closed until clicked). */
function folded(summary: string, body: readonly string[]): string[] {
  return ['<details>', `<summary>${summary}</summary>`, '', ...body, '</details>', ''];
}

/**
 * Renders a report as Markdown, for a CI job summary: verdict and counts, the failures first
 * (each with its section and the curl line that replays it), then advisories, skipped and passed
 * checks folded.
 */
export function renderMarkdown(report: ConformanceReport): string {
  const { summary } = report;
  const of = (outcome: Outcome) => report.results.filter((r) => r.outcome === outcome);
  const failed = of('fail');
  const advisories = of('advisory');
  const notRunSet = notRunIds(report);
  const notRunChecks = of('skip').filter((r) => notRunSet.has(r.id));
  const notRun = of('skip').filter((r) => r.message === READ_ONLY_SKIP).length;
  const skipped = of('skip').filter((r) => r.message !== READ_ONLY_SKIP && !notRunSet.has(r.id));
  const passed = of('pass');
  const verdict = VERDICT_LABEL[report.verdict];
  const mode = [report.readOnly ? 'read-only' : '', report.strict ? 'strict' : '']
    .filter((m) => m !== '')
    .join(', ');
  return [
    `## Animal Store conformance: ${verdict}`,
    '',
    ...(report.traffic === undefined
      ? [
          `${markdownText(report.baseUrl)}: kit ${markdownText(report.kit.version)}, run ${report.runId}, seed ${report.seed} (\`--seed ${report.seed}\` replays its cases), ${(report.durationMs / 1000).toFixed(1)} s${mode === '' ? '' : `, ${mode}`}`,
        ]
      : [
          `${markdownText(report.baseUrl)}: kit ${markdownText(report.kit.version)}`,
          '',
          ...trafficLines(report.traffic).map((line) => `- ${markdownText(line)}`),
        ]),
    '',
    '| passed | failed | advisories | skipped |',
    '|---|---|---|---|',
    `| ${summary.passed} | ${summary.failed} | ${summary.advisories} | ${summary.skipped} |`,
    '',
    ...report.hints.flatMap((hint) => [`> **Hint:** ${markdownText(hint)}`, '']),
    ...(failed.length === 0
      ? []
      : [
          `### Failed (${report.strict ? 'checks' : 'must'})`,
          '',
          ...groupByCause(failed).flatMap(({ cause, results }) => {
            const [first, ...rest] = results as [CheckResult, ...CheckResult[]];
            if (rest.length === 0) return entry(first);
            return [
              `**Root cause of ${results.length} failures:** ${markdownText(cause ?? '')}`,
              '',
              ...entry(first),
              ...folded(
                `the same cause fails ${plural(rest.length, 'more check')}`,
                rest.map((r) => `- \`${r.id}\` (${markdownText(r.section)})`).concat(''),
              ),
            ];
          }),
        ]),
    ...(notRunChecks.length === 0
      ? []
      : [
          `### Not run (must): ${notRunSummary(report)}, so the run is INCOMPLETE`,
          '',
          ...notRunChecks.flatMap(entry),
          ...(report.fullVerdict === undefined
            ? []
            : [`For a full verdict: ${markdownText(report.fullVerdict)}`, '']),
        ]),
    ...(advisories.length === 0
      ? []
      : folded(
          `${plural(advisories.length, 'advisory', 'advisories')} (should: recommended where the spec leaves a gap)`,
          advisories.flatMap(entry),
        )),
    ...(skipped.length === 0 && notRun === 0
      ? []
      : folded(`${summary.skipped - notRunChecks.length} skipped`, [
          ...skipped.flatMap(entry),
          ...(notRun === 0
            ? []
            : [`${plural(notRun, 'check')} that create pets (--read-only)`, '']),
        ])),
    ...(passed.length === 0
      ? []
      : folded(
          `${passed.length} passed`,
          passed.map((r) => `- \`${r.id}\` (${markdownText(r.section)})`).concat(''),
        )),
    createdSentence(report.created, (pattern) => `\`${pattern}\``),
    '',
  ].join('\n');
}
