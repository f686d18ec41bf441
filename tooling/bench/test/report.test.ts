import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EndpointComparison } from '../src/compare.js';
import type { RunSummary } from '../src/driver.js';
import {
  describeSource,
  type Report,
  renderSummary,
  SATURATED_CORES,
  writeReport,
} from '../src/report.js';
import { parseSettings, type Settings } from '../src/settings.js';

/** A run at `rps`, its server using `serverCores` of a core. */
function run(rps: number, serverCores: number): RunSummary {
  const cpuUsPerRequest = (serverCores * 1e6) / rps;
  return {
    rps,
    requests: rps * 4,
    p50Ms: 20,
    p99Ms: 60,
    p999Ms: 80,
    cpuUsPerRequest,
    driverCpu: 0.8,
    serverCores,
  };
}

const spread = (median: number) => ({ median, min: median - 0.02, max: median + 0.02 });

/** One endpoint whose replay limit used `limitCores` of its core. */
function comparison(label: string, limitCores: number): EndpointComparison {
  const [api, baseline, limit] = [run(30_000, 0.98), run(35_000, 0.97), run(45_000, limitCores)];
  const fastify = run(25_000, 0.97);
  const servers = { api, baseline, fastify, limit };
  const over = (s: RunSummary) => spread(s.cpuUsPerRequest / api.cpuUsPerRequest);
  // In a pair, each server has its share of the core.
  const [apiBeside, fastifyBeside] = [run(12_500, 0.5), run(10_000, 0.5)];
  const [apiBesideBaseline, baselineBeside] = [run(11_000, 0.5), run(12_000, 0.5)];
  return {
    endpoint: 'list',
    label,
    pets: 1000,
    throughput: {
      ratio: spread(30 / 35),
      limitRatio: spread(30 / 45),
      api,
      baseline,
      limit,
      servers,
      cpuOverApi: {
        api: over(api),
        baseline: over(baseline),
        fastify: over(fastify),
        limit: over(limit),
      },
      rpsOverApi: {
        api: spread(1),
        baseline: spread(30 / 35),
        fastify: spread(30 / 25),
        limit: spread(30 / 45),
      },
      rounds: [servers],
    },
    pairs: {
      servers: { api: apiBeside, baseline: baselineBeside, fastify: fastifyBeside },
      apiBeside: { baseline: apiBesideBaseline, fastify: apiBeside },
      cpuOverApi: { baseline: spread(0.92), fastify: spread(1.3) },
      rounds: [
        {
          baseline: { api: apiBesideBaseline, server: baselineBeside },
          fastify: { api: apiBeside, server: fastifyBeside },
        },
      ],
    },
    fixedRate: {
      rate: 2000,
      api,
      baseline,
      p99Ratio: 1,
      cpuRatio: spread(0.9),
      servers: { api, baseline, fastify },
      cpuOverApi: { api: spread(1), baseline: spread(0.9), fastify: spread(1.1) },
      rounds: [{ api, baseline, fastify }],
    },
    peakRssMb: { api: 120, baseline: 115 },
  };
}

function report(...comparisons: EndpointComparison[]): Report {
  const { out: _out, readme: _readme, ...settings } = parseSettings([]) as Settings;
  return {
    version: 9,
    mode: 'full',
    complete: true,
    startedAt: '2026-11-24T10:00:00.000Z',
    finishedAt: '2026-11-24T10:10:00.000Z',
    machine: { cpus: 2, cpuModel: 'test CPU', memoryGiB: 24, node: 'v20.20.2', kernel: '6.1' },
    source: { commit: '0123456789ab', changed: false },
    settings,
    servers: ['api', 'baseline', 'fastify', 'limit'].map((name) => ({
      name,
      node: 'v20.20.2',
      env: {},
    })),
    comparisons,
    growth: [],
  };
}

const row = (text: string, label: string) =>
  text.split('\n').find((line) => line.startsWith(`| \`${label}\``)) ?? '';

describe('a ratio over a server the driver held back', () => {
  it('is marked with † and explained under the README table', () => {
    const text = renderSummary(
      report(comparison('held back', SATURATED_CORES - 0.2), comparison('saturated', 0.95)),
    );
    expect(row(text, 'held back')).toContain('| **0.67** (0.65–0.69)† |');
    expect(row(text, 'held back')).toContain('| **0.86** (0.84–0.88) |');
    expect(row(text, 'saturated')).not.toContain('†');
    expect(text).toContain(
      `† The server this ratio divides by used under ${SATURATED_CORES} of its core`,
    );
  });

  it('is marked in the full tables too, which show the cores each server used', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const markdown = writeReport(join(dir, 'r.json'), report(comparison('held back', 0.73)));
      expect(markdown).toContain(
        '| limit (v20.20.2) | 45 000 | 16 | **0.50** (0.48–0.52) | **0.67** (0.65–0.69)† |',
      );
      expect(markdown).toContain('† The server this ratio divides by');
      expect(readFileSync(join(dir, 'r.md'), 'utf8')).toBe(markdown);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not marked, nor the note written, when every server was saturated', () => {
    const text = renderSummary(report(comparison('saturated', SATURATED_CORES)));
    expect(text).not.toContain('†');
  });
});

describe('the README summary', () => {
  it("gives API/Fastify: the Fastify peer's CPU per request over the API's, in their pair", () => {
    const text = renderSummary(report(comparison('list', 0.95)));
    // The API's own req/s, then both CPU figures and the ratio of the two loaded at once at
    // saturation (not those of each server's own run: 33 / 39, 1.19, nor the API's beside the
    // baseline: 45), then at a fixed rate.
    expect(row(text, 'list')).toContain(
      '| 30 000 | 40 / 50 | **1.30** (1.28–1.32) | 1.10 (1.08–1.12) |',
    );
    expect(text).toContain('API/Fastify (CPU)');
  });
});

describe('the full tables', () => {
  it('have each server beside the API at saturation, with their shares of the core', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      const markdown = writeReport(join(dir, 'r.json'), report(comparison('list', 0.95)));
      const pairs = markdown.slice(markdown.indexOf('In pairs at saturation'));
      expect(pairs).toContain(
        '| `list` | fastify | 10 000 / 12 500 | 50 / 40 | **1.30** (1.28–1.32) | 0.50 / 0.50 |',
      );
      expect(pairs).toContain(
        '| `list` | baseline | 12 000 / 11 000 | 42 / 45 | **0.92** (0.90–0.94) | 0.50 / 0.50 |',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the code a run measured', () => {
  it('is named by its commit in the heading of the tables and of the README summary', () => {
    const measured = report(comparison('list', 0.95));
    expect(renderSummary(measured)).toMatch(
      /^Run 2026-11-24 \(full\) of 0123456789ab on 2 × test CPU,/,
    );
    measured.source = { commit: '0123456789ab', changed: true };
    expect(renderSummary(measured)).toContain('of 0123456789ab with uncommitted changes on 2 ×');
  });

  it('is read from git: the checked-out commit, and whether tracked files changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-source-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: dir,
        encoding: 'utf8',
      });
    try {
      expect(describeSource(dir)).toEqual({ commit: 'unknown', changed: false });
      git('init', '-q');
      writeFileSync(join(dir, 'a.txt'), 'one');
      git('add', 'a.txt');
      git('commit', '-qm', 'one');
      const commit = git('rev-parse', '--short=12', 'HEAD').trim();
      expect(describeSource(dir)).toEqual({ commit, changed: false });
      writeFileSync(join(dir, 'a.txt'), 'two');
      expect(describeSource(dir)).toEqual({ commit, changed: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
