// Every documented way of starting the kit runs it or fails loudly: none does nothing, and none
// exits 0 without a verdict.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@animal-store/test-support';
import { describe, expect, it } from 'vitest';
import { KIT_VERSION } from '../src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = (script: string, args: readonly string[]) =>
  runProcess(process.execPath, [join(root, script), ...args], { env: {}, cwd: root });

describe.each(['bin/animal-store-conformance.js', 'dist/cli.js'])('node %s', (script) => {
  it('prints the version', async () => {
    const { stdout, exitCode } = await node(script, ['--version']);
    expect(stdout).toBe(`${KIT_VERSION}\n`);
    expect(exitCode).toBe(0);
  });

  it('exits 2 with a usage line when the base URL is missing', async () => {
    const { stderr, exitCode } = await node(script, ['--api-key', 'k']);
    expect(stderr).toMatch(/--base-url is required/);
    expect(exitCode).toBe(2);
  });
});

describe('the exit status every entry point sets (exitWith)', () => {
  const withRun = (run: string) =>
    runProcess(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { exitWith } from ${JSON.stringify(join(root, 'dist/cli.js'))}; exitWith(${run});`,
      ],
      { env: {}, cwd: root },
    );

  it("is the run's own once it ends", async () => {
    expect((await withRun('Promise.resolve(1)')).exitCode).toBe(1);
    expect((await withRun('Promise.resolve(0)')).exitCode).toBe(0);
  });

  it('is 2, said on stderr, when the process runs out of work before the run ends', async () => {
    // A promise nothing settles: the event loop empties with the run still waiting.
    const { exitCode, stderr, stdout } = await withRun('new Promise(() => {})');
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'animal-store-conformance: the run stopped before it ended: a step waited for something that never came\n',
    );
  });

  it('is 2, with the error on stderr, when the run throws', async () => {
    const { exitCode, stderr } = await withRun("Promise.reject(new Error('boom'))");
    expect(exitCode).toBe(2);
    expect(stderr).toBe('animal-store-conformance: Error: boom\n');
  });
});
