import { describe, expect, it } from 'vitest';
import { startTestApi, TEST_KEY } from '../helpers/api.js';
import { runKit } from '../helpers/kit.js';
import { testStoreKind } from '../helpers/store.js';

describe(`the conformance kit against this API (${testStoreKind} store)`, () => {
  it('passes every must and should check through the CLI', async () => {
    const api = await startTestApi();
    const report = await runKit(api.base, TEST_KEY);
    expect(report.results.filter((r) => r.outcome !== 'pass')).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, advisories: 0, skipped: 0 });
    expect(report.summary.passed).toBeGreaterThanOrEqual(60);
  });
});
