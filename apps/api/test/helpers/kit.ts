import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The kit's CLI as an implementer runs it: the file its package.json declares as the bin.
// (pnpm cannot link a workspace package's bin before that package is built.)
const kitManifest = new URL(import.meta.resolve('@animal-store/conformance/package.json'));
const { bin } = JSON.parse(readFileSync(kitManifest, 'utf8')) as { bin: Record<string, string> };
const CLI = fileURLToPath(new URL(bin['animal-store-conformance'] as string, kitManifest));

/** What `--reporter json` prints, as far as these tests read it. */
export interface KitReport {
  summary: { passed: number; failed: number; advisories: number; skipped: number };
  results: { id: string; outcome: string; message: string }[];
}

/**
 * Runs the conformance kit's CLI against `base` with `--strict` and its JSON report. The test's
 * key ends with its server, so it is disposable: the kit also sends it where servers log keys.
 */
export async function runKit(base: string, apiKey: string): Promise<KitReport> {
  const args = [CLI, '--base-url', base, '--api-key', apiKey, '--reporter', 'json', '--strict'];
  args.push('--disposable-key');
  // A failing run exits 1; its report is still on stdout and says which check failed.
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    if (!error.stdout) throw error;
    return { stdout: error.stdout };
  });
  return JSON.parse(stdout) as KitReport;
}
