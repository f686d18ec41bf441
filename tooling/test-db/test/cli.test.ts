import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ping } from '../src/process-server.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('animal-store-test-db', () => {
  it('prints MONGODB_URI, keeps the server up and stops it on SIGTERM', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm build first`);
    const env: NodeJS.ProcessEnv = { ...process.env, ANIMAL_STORE_TEST_DB: 'mongod,ferretdb' };
    delete env.MONGODB_URI;
    const child = spawn(process.execPath, [CLI], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = once(child, 'exit');
    try {
      const lines = createInterface({ input: child.stdout });
      const [first] = (await once(lines, 'line')) as [string];
      const uri = first.match(/^MONGODB_URI=(mongodb:\/\/127\.0\.0\.1:\d+\/)$/)?.[1];
      expect(uri, `stdout: ${first}\nstderr: ${stderr}`).toBeDefined();
      await ping(uri as string, 5_000);
      expect(stderr).toMatch(/^test-db: using .* at mongodb:\/\/127\.0\.0\.1:\d+\//m);

      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, stderr).toBe(0);
      await expect(ping(uri as string, 1_000)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('explains itself and exits non-zero when no server can be had', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm build first`);
    const env = { PATH: '/nonexistent', ANIMAL_STORE_TEST_DB: 'external,mongod' };
    const child = spawn(process.execPath, [CLI], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('external: MONGODB_URI is not set');
    expect(stderr).toContain('mongod: no mongod on PATH');
  });
});
