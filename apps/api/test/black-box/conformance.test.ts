import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startTestApi, TEST_KEY } from '../helpers/api.js';
import { testStoreKind } from '../helpers/store.js';

const run = promisify(execFile);

// The kit's CLI as an implementer runs it: the file its package.json declares as the bin.
// (pnpm cannot link a workspace package's bin before that package is built.)
const kitManifest = new URL(import.meta.resolve('@animal-store/conformance/package.json'));
const { bin } = JSON.parse(readFileSync(kitManifest, 'utf8')) as { bin: Record<string, string> };
const CLI = fileURLToPath(new URL(bin['animal-store-conformance'] as string, kitManifest));

describe(`the conformance kit against this API (${testStoreKind} store)`, () => {
  it('passes every must and should check through the CLI', async () => {
    const api = await startTestApi();
    const args = [
      CLI,
      '--base-url',
      api.base,
      '--api-key',
      TEST_KEY,
      '--reporter',
      'json',
      '--strict',
    ];
    // A failing run exits 1; its report is still on stdout and says which check failed.
    const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stdout?: string }) => {
        if (!error.stdout) throw error;
        return { stdout: error.stdout };
      },
    );
    const report = JSON.parse(stdout) as {
      summary: { passed: number; failed: number; advisories: number; skipped: number };
      results: { id: string; outcome: string; message: string }[];
    };
    expect(report.results.filter((r) => r.outcome !== 'pass')).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, advisories: 0, skipped: 0 });
    expect(report.summary.passed).toBeGreaterThanOrEqual(60);
  });
});
