import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { FloorRow } from '../src/floor.js';

const FLOOR = fileURLToPath(new URL('../dist/floor.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Like the smoke test: proves the floor run still works end to end; no figure is judged.
describe('floor', () => {
  it('measures bare node and both Koa variants and writes them', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [FLOOR, '--rounds', '1', '--duration', '0.3', '--warmup', '0.2', '--out', 'floor.json'],
      { env: { ...process.env, INIT_CWD: dir } },
    );
    expect(stdout).toContain('| bare `node:http` |');
    const { rows } = JSON.parse(readFileSync(join(dir, 'floor.json'), 'utf8')) as {
      rows: FloorRow[];
    };
    expect(rows.map((r) => r.variant)).toEqual(['node', 'koa-write', 'koa-body']);
    expect(rows[0]).toMatchObject({ rpsRatio: 1, extraCpuUs: 0 });
    for (const row of rows) {
      expect(row.rps).toBeGreaterThan(0);
      expect(row.cpuUsPerRequest).toBeGreaterThan(0);
    }
  });

  it('refuses a bad option with status 2', async () => {
    const failed = await promisify(execFile)(process.execPath, [FLOOR, '--rounds', '0']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: floor') });
  });
});
