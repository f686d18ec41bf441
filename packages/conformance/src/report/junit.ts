import type { CheckResult, ConformanceReport } from '../types.js';
import { GROUPS } from '../types.js';
import { sectionLinks } from './spec-links.js';
import { trafficLines } from './traffic.js';
import { notRunIds, VERDICT_LABEL } from './verdict.js';

// Characters XML 1.0 cannot hold at all, even escaped.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes text for an XML attribute or element. */
function xml(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(result: CheckResult, notRun: boolean): string {
  const open = `    <testcase name="${xml(result.id)}" classname="${xml(`animal-store-conformance.${result.group}`)}" time="${seconds(result.ms)}">`;
  const links = sectionLinks(result.section).join(' ');
  const detail = `${result.level} ${result.section}: ${result.message}${links ? `\nsee ${links}` : ''}`;
  switch (result.outcome) {
    case 'fail':
      return `${open}\n      <failure type="${result.level}" message="${xml(result.message)}">${xml(`${result.title}\n${detail}`)}</failure>\n    </testcase>`;
    case 'skip':
      return `${open}\n      <skipped message="${xml(notRun ? `NOT RUN (must): ${result.message}` : result.message)}"/>\n    </testcase>`;
    case 'advisory':
      return `${open}\n      <system-out>${xml(`ADVISORY (should, ${result.section}): ${result.message}${links ? `\nsee ${links}` : ''}`)}</system-out>\n    </testcase>`;
    default:
      return `${open}</testcase>`;
  }
}

/**
 * Renders a report as JUnit XML: one testsuite per group, one testcase per check (its id); the
 * hints, and for judged traffic what it held and exercised, in each suite's output.
 */
export function renderJunit(report: ConformanceReport): string {
  const notRun = notRunIds(report);
  // Each suite's output: the hints, and what judged traffic held and exercised.
  const notes = [
    ...report.hints.map((h) => `HINT: ${h}`),
    ...(report.traffic === undefined
      ? []
      : trafficLines(report.traffic).map((line) => `TRAFFIC: ${line}`)),
  ];
  const suites = GROUPS.flatMap((group) => {
    const results = report.results.filter((r) => r.group === group);
    if (results.length === 0) return [];
    const failures = results.filter((r) => r.outcome === 'fail').length;
    const skipped = results.filter((r) => r.outcome === 'skip').length;
    const time = results.reduce((sum, r) => sum + r.ms, 0);
    return [
      `  <testsuite name="${group}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${report.startedAt}">`,
      '    <properties>',
      `      <property name="baseUrl" value="${xml(report.baseUrl)}"/>`,
      `      <property name="runId" value="${report.runId}"/>`,
      `      <property name="kitVersion" value="${xml(report.kit.version)}"/>`,
      `      <property name="seed" value="${report.seed}"/>`,
      `      <property name="verdict" value="${VERDICT_LABEL[report.verdict]}"/>`,
      '    </properties>',
      ...results.map((r) => testcase(r, notRun.has(r.id))),
      ...(notes.length === 0 ? [] : [`    <system-out>${xml(notes.join('\n'))}</system-out>`]),
      '  </testsuite>',
    ];
  });
  const { summary } = report;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="animal-store-conformance" tests="${report.results.length}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}" time="${seconds(report.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
