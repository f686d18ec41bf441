import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/report.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bench CLI as `pnpm bench` would, from a scratch directory. */
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [MAIN, ...args], {
    env: { ...process.env, INIT_CWD: dir },
    maxBuffer: 16 * 1024 * 1024,
  });

const sides = { rps: expect.any(Number), p50Ms: expect.any(Number), p99Ms: expect.any(Number) };

// A benchmark, not a test of speed: this only proves `pnpm bench --smoke` still runs end to end
// and reports what it should. No figure is compared with any threshold.
describe('pnpm bench --smoke', () => {
  it('runs every endpoint and the growth runs, and writes a report of the expected shape', async () => {
    const out = join(dir, 'smoke.json');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [MAIN, '--smoke', '--out', out],
      {
        env: { ...process.env, INIT_CWD: dir },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    expect(stdout).toContain('API/baseline');
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.mode).toBe('smoke');
    expect(report.machine.cpus).toBeGreaterThan(0);
    expect(report.comparisons.map((c) => c.endpoint)).toEqual(['list', 'sold', 'get', 'create']);
    for (const c of report.comparisons) {
      expect(c.throughput.api).toMatchObject(sides);
      expect(c.throughput.baseline).toMatchObject(sides);
      expect(c.throughput.limit).toMatchObject(sides);
      expect(c.throughput.ratio.median).toBeGreaterThan(0);
      expect(c.throughput.limitRatio.median).toBeGreaterThan(0);
      expect(c.fixedRate.rate).toBeGreaterThan(0);
      expect(c.fixedRate.p99Ratio).toBeGreaterThan(0);
      expect(c.peakRssMb.api).toBeGreaterThan(0);
    }
    expect(report.growth.map((g) => g.endpoint)).toEqual(['list', 'sold', 'get']);
    for (const g of report.growth) expect(g.points.map((p) => p.pets)).toEqual([1000, 10000]);
    expect(report.targets.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'smoke.md'), 'utf8')).toContain('| store |');
  });

  it('runs against MongoDB through the test database helper and counts its round-trips', async () => {
    const out = join(dir, 'mongo.json');
    await run([
      '--smoke',
      '--store',
      'mongo',
      '--endpoints',
      'create',
      '--growth',
      '1000,2000',
      '--out',
      out,
    ]);
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    const [create] = report.comparisons;
    expect(create?.store).toBe('mongo');
    expect(create?.commandsPerRequest.api.insert).toBeGreaterThan(0);
    expect(create?.commandsPerRequest.baseline.insert).toBeGreaterThan(0);
    expect(report.targets.map((t) => t.name)).toContain(
      'mongo POST /v1/pets: id allocation round-trips per create',
    );
    expect(report.growth.map((g) => g.points.map((p) => p.pets))).toEqual([
      [1000, 2000],
      [1000, 2000],
      [1000, 2000],
    ]);
  });
});
