import {
  type CheckResult,
  type ConformanceOptions,
  type ConformanceReport,
  runConformance,
} from '../../src/index.js';
import {
  type FakeServer,
  type FakeServerOptions,
  KNOWN_CATEGORY_IDS,
  READ_LAG_MS,
  startFakeServer,
} from './fake-server.js';

/** What a lenient server needs told: the categories it knows, how long its reads lag. */
const LENIENT_KIT: Partial<ConformanceOptions> = {
  categoryIds: [...KNOWN_CATEGORY_IDS],
  settleMs: READ_LAG_MS * 2,
};

/**
 * A request's timeout in the tests' runs against fake servers: a fake server answers at once, or hangs where a test
 * makes it hang (that test sets its own timeout), so here the timeout catches a hang, never the
 * slowness of a loaded machine (a busy CI host has taken longer than the kit's default 10 s).
 */
export const TEST_TIMEOUT_MS = 120_000;

/** Starts a fake server, runs the kit against it (`TEST_TIMEOUT_MS` unless told), closes it. */
export async function runAgainst(
  server: FakeServerOptions = {},
  kit: Partial<ConformanceOptions> = {},
): Promise<{ report: ConformanceReport; server: FakeServer }> {
  const fake = await startFakeServer(server);
  try {
    const report = await runConformance({
      baseUrl: fake.baseUrl,
      apiKey: fake.apiKey,
      timeoutMs: TEST_TIMEOUT_MS,
      ...(server.lenient ? LENIENT_KIT : {}),
      ...kit,
    });
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

/** The ids of a report's failed checks, in its order. */
export const failed = (report: { results: readonly { id: string; outcome: string }[] }) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);

export const advised = (report: { results: readonly { id: string; outcome: string }[] }) =>
  report.results.filter((r) => r.outcome === 'advisory').map((r) => r.id);

/** `id: outcome: message` for every result that is not a pass, to show in a failed assertion. */
export function notPassed(report: ConformanceReport): string[] {
  return report.results
    .filter((r) => r.outcome !== 'pass')
    .map((r) => `${r.id}: ${r.outcome}: ${r.message}`);
}
