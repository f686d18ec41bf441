import type { ConformanceReport } from '../types.js';
import { SPECIFICATION_URL, sectionLinks } from './spec-links.js';

/** Renders a report as one JSON document: summary, results, created pets and every request. */
export function renderJson(report: ConformanceReport): string {
  const document = {
    kit: report.kit,
    baseUrl: report.baseUrl,
    runId: report.runId,
    startedAt: report.startedAt,
    durationMs: report.durationMs,
    strict: report.strict,
    readOnly: report.readOnly,
    seed: report.seed,
    inputs: report.inputs,
    hints: report.hints,
    groups: report.groups,
    verdict: report.verdict,
    notRun: report.notRun,
    ok: report.ok,
    summary: report.summary,
    specification: SPECIFICATION_URL,
    results: report.results.map(({ id, title, section, level, outcome, message }) => ({
      id,
      title,
      section,
      sectionLinks: sectionLinks(section),
      level,
      outcome,
      message,
    })),
    created: report.created,
    requests: report.requests,
    ...(report.traffic === undefined ? {} : { traffic: report.traffic }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
