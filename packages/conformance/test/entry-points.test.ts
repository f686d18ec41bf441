// Every documented way of starting the kit runs it or fails loudly: none does nothing.
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
