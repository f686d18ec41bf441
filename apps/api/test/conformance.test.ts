import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startTestApi, TEST_KEY } from './helpers/api.js';
import { testStoreKind } from './helpers/store.js';

const run = promisify(execFile);
// The kit's CLI as an implementer runs it: the bin the package manager installed.
const CLI = fileURLToPath(
  new URL('../node_modules/.bin/animal-store-conformance', import.meta.url),
);

describe(`the conformance kit against this API (${testStoreKind} store)`, () => {
  it('passes every must and should check through the CLI', async () => {
    const api = await startTestApi();
    // A failing run exits 1; its report is still on stdout and says which check failed.
    const { stdout } = await run(
      CLI,
      ['--base-url', api.base, '--api-key', TEST_KEY, '--reporter', 'json', '--strict'],
      { maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw error;
      return { stdout: error.stdout };
    });
    const report = JSON.parse(stdout) as {
      summary: { passed: number; failed: number; advisories: number; skipped: number };
      results: { id: string; outcome: string; message: string }[];
    };
    const notPassed = report.results.filter((r) => r.outcome !== 'pass');
    expect(notPassed).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, advisories: 0, skipped: 0 });
    expect(report.summary.passed).toBeGreaterThanOrEqual(60);
  });
});
