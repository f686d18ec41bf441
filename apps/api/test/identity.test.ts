import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startTestApi } from './helpers/api.js';
import { runKeysCliProcess, startApiProcess } from './helpers/processes.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const VERSION_LINE = (name: string) =>
  `${name} ${version} (revision unknown, Node.js ${process.version})\n`;

/** Runs the built service with `args`; resolves once it has exited (a server would never). */
function runMain(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { PATH: process.env.PATH ?? '', PORT: '0' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ code: typeof code === 'number' ? code : error ? -1 : 0, stdout, stderr });
      },
    );
  });
}

// Each test runs its own process or server: they run side by side.
describe.concurrent('what build is running', () => {
  it('prints the version with --version instead of starting', async () => {
    expect(await runMain(['--version'])).toEqual({
      code: 0,
      stdout: VERSION_LINE('animal-store-api'),
      stderr: '',
    });
  });

  it('refuses any other argument with one line and exit 2', async () => {
    const { code, stderr } = await runMain(['--port', '80']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^animal-store-api: unknown argument "--port": .*--version/);
  });

  it('prints the version of the keys CLI with --version, without a database', async () => {
    const run = await runKeysCliProcess(['--version'], {});
    expect(run).toEqual({
      exitCode: 0,
      signal: null,
      stdout: VERSION_LINE('animal-store-keys'),
      stderr: '',
    });
  });

  it('labels the metric animal_store_build_info with version, revision and Node.js', async () => {
    const api = await startTestApi();
    const metrics = await (await fetch(`${api.origin}/metrics`)).text();
    expect(metrics).toContain(
      `animal_store_build_info{version="${version}",revision="unknown",node_version="${process.version}"} 1`,
    );
  });

  it('writes the version, the pid and the host on every log line', async () => {
    const api = await startApiProcess({ API_KEYS: 'k1', ANIMAL_STORE_REVISION: 'abc123' });
    await fetch(`${api.base}/pets`, { headers: { Authorization: 'Bearer k1' } });
    // The access-log line reaches this process after the answer; wait for it.
    await api.untilStdout((text) => /"msg":"request".*\n/.test(text) || undefined);
    const lines = api
      .stdout()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['listening', 'request']));
    for (const line of lines) {
      expect(line).toMatchObject({ version, pid: api.child.pid, hostname: hostname() });
    }
    const metrics = await (await fetch(`${new URL(api.base).origin}/metrics`)).text();
    expect(metrics).toMatch(/^animal_store_build_info\{[^}]*revision="abc123"[^}]*\} 1$/m);
  });
});
