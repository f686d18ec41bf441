import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { statFields } from '../src/process-cpu.js';
import type { Report } from '../src/report.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const temp = new TemporaryFolder('bench-smoke-');
afterAll(() => temp.remove());

/** Runs the bench CLI as `pnpm bench` would, from a scratch directory. */
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [MAIN, ...args], {
    env: { ...process.env, INIT_CWD: temp.path },
    maxBuffer: 16 * 1024 * 1024,
  });

const measured = {
  rps: expect.any(Number),
  cpuUsPerRequest: expect.any(Number),
  p50Ms: expect.any(Number),
  p99Ms: expect.any(Number),
  threadUsPerRequest: {
    main: expect.any(Number),
    v8: expect.any(Number),
    workers: expect.any(Number),
    other: expect.any(Number),
  },
};

// Proves that `pnpm bench` runs end to end against every server and reports what it should, in
// one tiny round of request counts (no durations). No figure is compared with any threshold.
describe('pnpm bench --smoke', () => {
  it('runs one round against every server and writes a report of the expected shape', async () => {
    const { stdout, stderr } = await run(['--smoke', '--out', 'smoke']);
    const report = JSON.parse(readFileSync(join(temp.path, 'smoke.json'), 'utf8')) as Report;
    expect(report).toMatchObject({ mode: 'smoke', complete: true });
    const servers = [
      'api',
      'untraced',
      'traced',
      'unsampled',
      'koa',
      'fastify',
      'limit',
      'koa-floor',
      'fastify-floor',
    ];
    expect(report.servers.map((s) => s.name)).toEqual(servers);
    expect(report.servers[1]?.env.OTEL_TRACES_SAMPLER_ARG).toBeUndefined();
    expect(report.servers[2]?.env.OTEL_TRACES_SAMPLER_ARG).toBe('0.01');
    expect(report.servers[3]?.env.OTEL_TRACES_SAMPLER_ARG).toBe('0');
    expect(report.endpoints.map((e) => e.endpoint)).toEqual(['list', 'sold', 'get', 'create']);
    for (const e of report.endpoints) {
      expect(e.rate).toBeGreaterThan(0);
      expect(e.rounds).toHaveLength(1);
      expect(Object.keys(e.rounds[0] ?? {})).toEqual(servers);
      for (const runs of Object.values(e.rounds[0] ?? {})) {
        expect(runs.saturation).toMatchObject(measured);
        expect(runs.fixedRate).toMatchObject(measured);
      }
    }
    expect(report.rss?.bytesPerPet).toEqual(expect.any(Number));
    expect(report.peakRssMb.api).toBeGreaterThan(0);
    for (const server of servers) {
      expect(stderr).toContain(`round 1/1 ${server} POST /v1/pets:`);
    }
    expect(stdout).toContain('| `GET /v1/pets/{id}` | API/Koa peer |');
    expect(stdout).toContain('| `GET /v1/pets/{id}` | API/Fastify peer |');
    expect(stdout).toContain('| `GET /v1/pets?limit=20` | Koa peer − Koa floor, µs |');
    expect(stdout).toContain('| `POST /v1/pets` | traced/untraced |');
    expect(stdout).toContain('| `POST /v1/pets` | unsampled/untraced |');
    expect(stdout).toContain('| `POST /v1/pets` | Koa floor/Fastify floor |');
    expect(readFileSync(join(temp.path, 'smoke.md'), 'utf8')).toBe(stdout.slice(1));
  });

  it('refuses to put a smoke run in the README', async () => {
    writeFileSync(join(temp.path, 'tiny.json'), JSON.stringify({ mode: 'smoke', complete: true }));
    const failed = await run(['--write-readme', '--from', 'tiny.json']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('only a complete full run goes into the README');
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

/** The pids of `pid`'s children now (from /proc, as `ps --ppid` would list them). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4: the parent's pid.
      if (Number(statFields(entry)[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return children;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a bench stopped by SIGTERM', () => {
  it('stops the servers it started and exits 143', async () => {
    const bench = spawn(process.execPath, [MAIN, '--smoke', '--out', 'stopped'], {
      env: { ...process.env, INIT_CWD: temp.path },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    bench.stderr.setEncoding('utf8');
    // Its first progress line comes once a round has servers running.
    const servers = await new Promise<number[]>((resolve, reject) => {
      bench.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const running = childrenOf(bench.pid as number);
        if (running.length > 0) resolve(running);
      });
      bench.once('exit', () => reject(new Error(`the bench ended first:\n${stderr}`)));
    });
    const exited = once(bench, 'exit');
    bench.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(143);
    // SIGKILL is sent before the bench exits; the kernel reaps them at once.
    await expect.poll(() => servers.filter(alive), { timeout: 30_000 }).toEqual([]);
  }, 240_000);
});
