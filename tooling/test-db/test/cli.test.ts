import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runProcess, spawnLogged } from '@animal-store/test-support';
import { describe, expect, it } from 'vitest';
import { ping } from '../src/process-server.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('animal-store-test-db', () => {
  it('prints MONGODB_URI, keeps the server up and stops it on SIGTERM', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm build first`);
    const env: NodeJS.ProcessEnv = { ...process.env, ANIMAL_STORE_TEST_DB: 'mongod,ferretdb' };
    delete env.MONGODB_URI;
    const cli = spawnLogged(process.execPath, [CLI], { env });
    try {
      const first = await cli.untilStdout((stdout) => /^.*\n/.exec(stdout)?.[0]);
      const uri = first.match(/^MONGODB_URI=(mongodb:\/\/127\.0\.0\.1:\d+\/)\n$/)?.[1];
      expect(uri, cli.output()).toBeDefined();
      await ping(uri as string, 5_000);
      expect(cli.stderr()).toMatch(/^test-db: using .* at mongodb:\/\/127\.0\.0\.1:\d+\//m);

      cli.child.kill('SIGTERM');
      await cli.exited;
      expect(cli.exitStatus(), cli.stderr()).toBe(0);
      await expect(ping(uri as string, 1_000)).rejects.toThrow();
    } finally {
      await cli.stop();
    }
  });

  it('explains itself and exits non-zero when no server can be had', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm build first`);
    const env = { PATH: '/nonexistent', ANIMAL_STORE_TEST_DB: 'external,mongod' };
    const { exitCode, stdout, stderr } = await runProcess(process.execPath, [CLI], { env });
    expect(exitCode).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('external: MONGODB_URI is not set');
    expect(stderr).toContain('mongod: no mongod on PATH');
  });
});
