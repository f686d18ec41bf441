import type { CheckResult, ConformanceReport, TrafficSummary } from '../../src/types.js';

/** A check's result with the fields a test does not care about filled in. */
export const result = (
  fields: Pick<CheckResult, 'id' | 'outcome'> & Partial<CheckResult>,
): CheckResult => ({
  title: `title of ${fields.id}`,
  section: '§4.1',
  level: 'must',
  group: 'listPets',
  message: `message of ${fields.id}`,
  ms: 0,
  ...fields,
});

/** What judged traffic held, with nothing left alone unless `fields` says so. */
export const traffic = (fields: Partial<TrafficSummary> = {}): TrafficSummary => ({
  source: 'run.har',
  exchanges: 3,
  judged: 3,
  otherHosts: 0,
  otherPaths: 0,
  notAnswered: 0,
  rateLimited: 0,
  unavailable: 0,
  fromCache: 0,
  headTooLarge: 0,
  bodiesNotRecorded: 0,
  keysRecorded: true,
  exercised: [],
  notExercised: [],
  ...fields,
});

/** A report of `results`, its summary counted from them, as a run would write it. */
export function reportOf(
  results: readonly CheckResult[],
  fields: Partial<ConformanceReport> = {},
): ConformanceReport {
  const count = (outcome: CheckResult['outcome']) =>
    results.filter((r) => r.outcome === outcome).length;
  return {
    kit: { name: '@animal-store/conformance', version: '1.2.3' },
    baseUrl: 'http://127.0.0.1:8080/v1',
    runId: 'r1a2b3',
    startedAt: '2026-12-01T10:00:00.000Z',
    durationMs: 4321,
    strict: false,
    readOnly: false,
    seed: 42,
    inputs: { categoryIds: [], namePrefix: 'cf-r1a2b3', settleMs: 0 },
    hints: [],
    groups: ['auth', 'listPets', 'createPet', 'getPet', 'errors'],
    verdict: count('fail') > 0 ? 'fail' : 'pass',
    notRun: [],
    ok: count('fail') === 0,
    summary: {
      passed: count('pass'),
      failed: count('fail'),
      advisories: count('advisory'),
      skipped: count('skip'),
    },
    results,
    created: { count: 0, namePrefix: 'cf-r1a2b3', ids: [] },
    requests: [],
    ...fields,
  };
}
