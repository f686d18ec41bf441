import {
  type CheckResult,
  type ConformanceOptions,
  type ConformanceReport,
  runConformance,
} from '../../src/index.js';
import { type FakeServer, type FakeServerOptions, startFakeServer } from './fake-server.js';

/** Starts a fake server, runs the kit against it, closes the server. */
export async function runAgainst(
  server: FakeServerOptions = {},
  kit: Partial<ConformanceOptions> = {},
): Promise<{ report: ConformanceReport; server: FakeServer }> {
  const fake = await startFakeServer(server);
  try {
    const report = await runConformance({ baseUrl: fake.baseUrl, apiKey: fake.apiKey, ...kit });
    return { report, server: fake };
  } finally {
    await fake.close();
  }
}

/** The result of one check, failing the test when the report lacks it. */
export function resultOf(report: ConformanceReport, id: string): CheckResult {
  const result = report.results.find((r) => r.id === id);
  if (result === undefined) throw new Error(`no result for ${id}`);
  return result;
}

/** `id: outcome: message` for every result that is not a pass, to show in a failed assertion. */
export function notPassed(report: ConformanceReport): string[] {
  return report.results
    .filter((r) => r.outcome !== 'pass')
    .map((r) => `${r.id}: ${r.outcome}: ${r.message}`);
}
