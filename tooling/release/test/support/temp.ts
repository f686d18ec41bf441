import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@animal-store/test-support';
import { afterAll } from 'vitest';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const created: string[] = [];
// Registered when a test file first imports this module: cleans up after the file's tests.
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the OS temp dir, removed after the test file (in a test or outside). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `animal-store-${prefix}-`));
  created.push(dir);
  return dir;
}

/** Writes `text` to `root/file`, creating folders. */
export function writeFile(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

/** A changeset's text releasing `releases` (package name to bump), with `summary`. */
export function changesetText(releases: Record<string, string>, summary = 'A change.'): string {
  const lines = Object.entries(releases).map(([name, type]) => `'${name}': ${type}`);
  return ['---', ...lines, '---', '', summary, ''].join('\n');
}

/** The environment without the `npm_*` settings pnpm passes to scripts, which would leak into npm. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (see `runProcess`), its exit code as `status`. */
export async function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  const { exitCode, stdout, stderr } = await runProcess(command, args, options);
  return { status: exitCode, stdout, stderr };
}

/** Like `run`, but an exit status other than 0 is an error carrying the command's output. */
export async function runOk(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  const result = await run(command, args, options);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}
