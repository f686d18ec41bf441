import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    const { stdout } = await run(['--smoke', '--out', out]);
    expect(stdout).toContain("CPU/req over the API's");
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.mode).toBe('smoke');
    expect(report.servers.map((s) => s.name)).toEqual(['api', 'baseline', 'fastify', 'limit']);
    expect(report.servers[0]?.node).toBe(process.version);
    expect(report.machine.cpus).toBeGreaterThan(0);
    expect(report.comparisons.map((c) => c.endpoint)).toEqual(['list', 'sold', 'get', 'create']);
    for (const c of report.comparisons) {
      expect(c.throughput.api).toMatchObject(sides);
      expect(c.throughput.baseline).toMatchObject(sides);
      expect(c.throughput.limit).toMatchObject(sides);
      expect(c.throughput.servers.fastify).toMatchObject(sides);
      expect(c.throughput.cpuOverApi.fastify?.median).toBeGreaterThan(0);
      expect(c.throughput.ratio.median).toBeGreaterThan(0);
      expect(c.throughput.limitRatio.median).toBeGreaterThan(0);
      expect(c.fixedRate.rate).toBeGreaterThan(0);
      expect(c.fixedRate.p99Ratio).toBeGreaterThan(0);
      // A smoke run is too short for CPU ticks (10 ms) to give a ratio: only its presence is checked.
      expect(c.fixedRate).toHaveProperty('cpuRatio.median');
      expect(c.fixedRate.rounds).toHaveLength(1);
      expect(c.pairs.rounds).toHaveLength(1);
      expect(Object.keys(c.pairs.rounds[0] ?? {})).toEqual(['baseline', 'fastify']);
      expect(Object.keys(c.pairs.servers)).toEqual(['api', 'baseline', 'fastify']);
      expect(Object.keys(c.pairs.apiBeside)).toEqual(['baseline', 'fastify']);
      expect(c.pairs.cpuOverApi.fastify?.median).toBeGreaterThan(0);
      expect(c.peakRssMb.api).toBeGreaterThan(0);
    }
    expect(report.growth.map((g) => g.endpoint)).toEqual(['list', 'sold', 'get']);
    for (const g of report.growth) expect(g.points.map((p) => p.pets)).toEqual([1000, 10000]);
    expect(readFileSync(join(dir, 'smoke.md'), 'utf8')).toContain(
      '| endpoint | server (Node) | req/s | CPU µs/req |',
    );
  });

  it('runs each round on fresh processes', async () => {
    const out = join(dir, 'two-rounds');
    const { stderr } = await run([
      '--smoke',
      '--rounds',
      '2',
      '--endpoints',
      'get,create',
      '--growth',
      'off',
      '--out',
      out,
    ]);
    expect(stderr).toContain('GET /v1/pets/{id}: round 2/2: every server restarted');
    expect(stderr).toContain('POST /v1/pets: round 2/2: every server restarted');
    expect(stderr).toContain(
      'POST /v1/pets: round 2/2, in pairs with the API at saturation: CPU µs/req baseline',
    );
    const report = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Report;
    for (const c of report.comparisons) {
      expect(c.throughput.rounds).toHaveLength(2);
      expect(c.fixedRate.rounds).toHaveLength(2);
      expect(c.pairs.rounds).toHaveLength(2);
      for (const round of [...c.throughput.rounds, ...c.fixedRate.rounds]) {
        expect(round.api?.rps).toBeGreaterThan(0);
      }
      for (const round of c.pairs.rounds) {
        for (const pair of Object.values(round)) {
          expect(pair.api.rps).toBeGreaterThan(0);
          expect(pair.server.rps).toBeGreaterThan(0);
        }
      }
    }
  });

  it('replaces only the bench section of a README with the short table', async () => {
    const readme = join(dir, 'README.md');
    writeFileSync(
      readme,
      '# Title\n\n<!-- bench:begin -->\nold table\n<!-- bench:end -->\n\nAfter.\n',
    );
    await run([
      '--smoke',
      '--endpoints',
      'get',
      '--growth',
      'off',
      '--out',
      join(dir, 'get'),
      '--readme',
      'README.md',
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'get.json'), 'utf8'))).toMatchObject({
      complete: true,
    });
    expect(readFileSync(join(dir, 'get.md'), 'utf8')).toContain('GET /v1/pets/{id}');
    const text = readFileSync(readme, 'utf8');
    expect(text).not.toContain('old table');
    expect(text).toMatch(/^# Title\n\n<!-- bench:begin -->\nRun \d{4}-\d\d-\d\d \(smoke\)/);
    expect(text).toContain('| `GET /v1/pets/{id}` |');
    expect(text.endsWith('<!-- bench:end -->\n\nAfter.\n')).toBe(true);
  });

  it('refuses an unknown option with usage and exit status 2, before starting anything', async () => {
    const failed = await run(['--store', 'mongo']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('Usage: pnpm bench');
  });
});
