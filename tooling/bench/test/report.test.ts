import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../src/load.js';
import {
  describeSource,
  type Report,
  renderSummary,
  updateReadme,
  writeReport,
} from '../src/report.js';
import type { EndpointRuns, ServerRuns } from '../src/rounds.js';
import { parseSettings, type Settings } from '../src/settings.js';

const temp = new TemporaryFolder('bench-report-');
afterAll(() => temp.remove());

/** A run that cost `cpuUsPerRequest` of the server's CPU per request. */
const run = (cpuUsPerRequest: number): RunSummary => ({
  rps: 10_000,
  requests: 25_000,
  p50Ms: 2,
  p99Ms: 9,
  cpuUsPerRequest,
  serverCores: 0.97,
  driverCores: 0.6,
});
const both = (cpu: number): ServerRuns => ({ saturation: run(cpu), fixedRate: run(cpu * 2) });

/** Three rounds, each server's CPU µs per request in each. */
function endpoint(id: 'list' | 'create', cpu: Record<string, [number, number, number]>) {
  const rounds = [0, 1, 2].map((r) =>
    Object.fromEntries(Object.entries(cpu).map(([name, each]) => [name, both(each[r] as number)])),
  );
  return { endpoint: id, label: id, rate: 2000, rounds } satisfies EndpointRuns;
}

function report(...endpoints: EndpointRuns[]): Report {
  const { out: _o, writeReadme: _w, from: _f, ...settings } = parseSettings([]) as Settings;
  return {
    version: 11,
    mode: 'full',
    complete: true,
    startedAt: '2026-11-24T10:00:00.000Z',
    finishedAt: '2026-11-24T10:17:00.000Z',
    machine: { cpus: 2, cpuModel: 'test CPU', memoryGiB: 8, node: 'v24.21.0', kernel: '6.1' },
    source: { commit: '0123456789ab', changed: false },
    settings,
    servers: [
      ...['api', 'koa', 'fastify', 'limit'].map((name) => ({ name, group: 'frameworks' as const })),
      ...['untraced', 'traced', 'unsampled'].map((name) => ({ name, group: 'tracing' as const })),
    ].map((server) => ({ ...server, env: {} })),
    endpoints,
    peakRssMb: { api: 120 },
    rss: { pets: [11_000, 101_000], rssMb: [100, 115], bytesPerPet: 175 },
  };
}

const row = (text: string, label: string, ratio: string) =>
  text.split('\n').find((line) => line.startsWith(`| \`${label}\` | ${ratio} |`)) ?? '';

describe('the summary table', () => {
  const text = renderSummary(
    report(
      endpoint('list', {
        api: [40, 90, 30],
        untraced: [40, 90, 30],
        traced: [46, 99, 33],
        unsampled: [42, 90, 30],
        koa: [50, 100, 20],
        fastify: [50, 100, 20],
      }),
      endpoint('create', {
        api: [50, 60, 51],
        untraced: [50, 60, 51],
        traced: [51, 61, 52],
        koa: [50, 50, 50],
        fastify: [50, 50, 50],
        limit: [26, 26, 26],
        'koa-floor': [39, 36, 45],
        'fastify-floor': [30, 30, 30],
      }),
    ),
  );

  it('gives each ratio paired by round (median, min–max), not a ratio of medians', () => {
    // 0.8, 0.9 and 1.5 in the rounds; the medians' ratio would be 40 / 50.
    expect(row(text, 'list', 'API/Koa peer')).toBe(
      '| `list` | API/Koa peer | **0.90** (0.80–1.50) ✓ | **0.90** (0.80–1.50) ✓ |',
    );
    expect(row(text, 'list', 'API/Fastify peer')).toBe(
      '| `list` | API/Fastify peer | **0.90** (0.80–1.50) | **0.90** (0.80–1.50) |',
    );
    expect(row(text, 'create', 'API/limit')).toBe(
      '| `create` | API/limit | **1.96** (1.92–2.31) | **1.96** (1.92–2.31) |',
    );
  });

  it("gives each app's own work above its framework's floor in µs, paired by round", () => {
    // 11, 24 and 6 µs in the rounds; the medians' difference would be 51 − 39 = 12.
    expect(row(text, 'create', 'API − Koa floor, µs')).toBe(
      '| `create` | API − Koa floor, µs | **11.0** (6.0–24.0) | **22.0** (12.0–48.0) |',
    );
    expect(row(text, 'create', 'Koa peer − Koa floor, µs')).toBe(
      '| `create` | Koa peer − Koa floor, µs | **11.0** (5.0–14.0) | **22.0** (10.0–28.0) |',
    );
    expect(row(text, 'create', 'Fastify peer − Fastify floor, µs')).toBe(
      '| `create` | Fastify peer − Fastify floor, µs | **20.0** (20.0–20.0) | **40.0** (40.0–40.0) |',
    );
  });

  it("holds the API's own work to 1.05 × the Fastify peer's, each above its own floor", () => {
    const label = '(API − Koa floor)/(Fastify peer − Fastify floor)';
    expect(row(text, 'create', label)).toBe(
      `| \`create\` | ${label} | **0.55** (0.30–1.20) ✓ | **0.55** (0.30–1.20) ✓ |`,
    );
    // The API at `api` µs over a Koa floor of 40, the Fastify peer 20 µs over its floor.
    const atApi = (api: number) =>
      row(
        renderSummary(
          report(
            endpoint('create', {
              api: [api, api, api],
              fastify: [50, 50, 50],
              'koa-floor': [40, 40, 40],
              'fastify-floor': [30, 30, 30],
            }),
          ),
        ),
        'create',
        label,
      );
    expect(atApi(61)).toContain('| **1.05** (1.05–1.05) ✓ |');
    expect(atApi(62)).toContain('| **1.10** (1.10–1.10) ✗ |');
  });

  it("sets the Koa floor beside the Fastify floor, with no target: the frameworks' own share", () => {
    expect(row(text, 'create', 'Koa floor/Fastify floor')).toBe(
      '| `create` | Koa floor/Fastify floor | **1.30** (1.20–1.50) | **1.30** (1.20–1.50) |',
    );
    expect(row(text, 'list', 'Koa floor/Fastify floor')).toBe('');
  });

  it('marks each ratio against its target: 1.00 for API/Koa peer, 1.05 for tracing', () => {
    expect(row(text, 'create', 'API/Koa peer')).toContain('| **1.02** (1.00–1.20) ✗ |');
    expect(row(text, 'create', 'traced/untraced')).toContain('| **1.02** (1.02–1.02) ✓ |');
    expect(row(text, 'list', 'traced/untraced')).toContain('| **1.10** (1.10–1.15) ✗ |');
    expect(row(text, 'list', 'unsampled/untraced')).toContain('| **1.00** (1.00–1.05) ✓ |');
    expect(text).toContain(
      '✓ at most the target (API/Koa peer 1.00, (API − Koa floor)/(Fastify peer − Fastify floor) 1.05, traced/untraced 1.05, unsampled/untraced 1.05)',
    );
  });

  it('sets a second untraced API beside the first with no target, where --control ran it', () => {
    expect(row(text, 'list', 'control/untraced')).toBe('');
    const controlled = renderSummary(
      report(endpoint('list', { untraced: [40, 50, 40], control: [44, 45, 40] })),
    );
    expect(row(controlled, 'list', 'control/untraced')).toBe(
      '| `list` | control/untraced | **1.00** (0.90–1.10) | **1.00** (0.90–1.10) |',
    );
  });

  it('leaves out a figure whose servers did not all run, and gives the RSS per stored pet', () => {
    expect(row(text, 'list', 'API − Koa floor, µs')).toBe('');
    expect(row(text, 'list', 'API/limit')).toBe('');
    expect(text).toContain('RSS per stored pet: **175 B** ✓ (11 000 to 101 000 pets');
    expect(text).toMatch(
      /^Run 2026-11-24 \(full\) of 0123456789ab on 2 × test CPU, Node v24\.21\.0: 3 rounds/,
    );
  });

  it('names the servers loaded together at saturation, group by group', () => {
    expect(text).toContain(
      'at saturation the servers of a group at once, for as many times as long as it has ' +
        'servers: api, koa, fastify, limit; then untraced, traced, unsampled; at the fixed rate ' +
        'one at a time',
    );
  });
});

describe('the report files', () => {
  it('are the JSON and, beside it, the Markdown of every server', () => {
    const measured = report(endpoint('list', { api: [40, 41, 42], fastify: [50, 50, 50] }));
    const markdown = writeReport(join(temp.path, 'r.json'), measured);
    expect(readFileSync(join(temp.path, 'r.md'), 'utf8')).toBe(markdown);
    expect(JSON.parse(readFileSync(join(temp.path, 'r.json'), 'utf8'))).toEqual(measured);
    expect(markdown).toContain(
      '| `list` | api | 10 000 | 41.0 | – | 2 / 9 | 0.97 / 0.60 | 2 000 | 82.0 |',
    );
  });

  it("split a server's CPU time by kind of thread where every round has the split", () => {
    const split = (main: number) => ({ main, v8: 2, workers: 0.5, other: 0.1 });
    const measured = report(endpoint('list', { api: [40, 41, 42], fastify: [50, 50, 50] }));
    for (const [i, round] of measured.endpoints[0]?.rounds.entries() ?? []) {
      (round.api as ServerRuns).saturation.threadUsPerRequest = split(37 + i);
      if (i > 0) (round.fastify as ServerRuns).saturation.threadUsPerRequest = split(47);
    }
    const markdown = writeReport(join(temp.path, 'split.json'), measured);
    // The median of each kind over the rounds; fastify's first round has no split.
    expect(markdown).toContain('| `list` | api | 10 000 | 41.0 | 38.0 / 2.0 / 0.5 / 0.1 |');
    expect(markdown).toContain('| `list` | fastify | 10 000 | 50.0 | – |');
  });

  it('put the summary between the README markers and leave the rest of the README alone', () => {
    const readme = join(temp.path, 'README.md');
    writeFileSync(readme, '# Bench\n\n<!-- bench:begin -->\nold\n<!-- bench:end -->\n\nAfter.\n');
    updateReadme(readme, 'new table');
    expect(readFileSync(readme, 'utf8')).toBe(
      '# Bench\n\n<!-- bench:begin -->\nnew table\n<!-- bench:end -->\n\nAfter.\n',
    );
    writeFileSync(readme, '# Bench\n');
    expect(() => updateReadme(readme, 'x')).toThrow('has no <!-- bench:begin -->');
  });
});

describe('the code a run measured', () => {
  it('is read from git: the checked-out commit, and whether tracked files changed', () => {
    const repo = mkdtempSync(join(temp.path, 'source-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    expect(describeSource(repo)).toEqual({ commit: 'unknown', changed: false });
    git('init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'one');
    git('add', 'a.txt');
    git('commit', '-qm', 'one');
    const commit = git('rev-parse', '--short=12', 'HEAD').trim();
    expect(describeSource(repo)).toEqual({ commit, changed: false });
    writeFileSync(join(repo, 'a.txt'), 'two');
    expect(describeSource(repo)).toEqual({ commit, changed: true });
  });
});
