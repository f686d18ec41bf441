import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { EndpointComparison } from './compare.js';
import type { RunSummary } from './driver.js';
import type { GrowthSeries } from './growth.js';
import type { Settings } from './settings.js';
import type { Spread } from './stats.js';

/** What `results/latest.json` holds. */
export interface Report {
  version: 9;
  mode: 'full' | 'smoke';
  /** False while the run is still going (or was stopped): the figures so far. */
  complete: boolean;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; kernel: string };
  /** The code measured: its commit, and whether the work tree had changes beside it. */
  source: { commit: string; changed: boolean };
  settings: Omit<Settings, 'out' | 'readme'>;
  /** Every server of the run, in its order: name, the Node.js version it ran on, added variables. */
  servers: { name: string; node: string; env: Record<string, string> }[];
  comparisons: EndpointComparison[];
  growth: GrowthSeries[];
}

export function describeMachine(): Report['machine'] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: release(),
  };
}

/** The commit checked out in `dir` (`unknown` outside a git work tree) and whether it has changes. */
export function describeSource(dir: string): Report['source'] {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const commit = git('rev-parse', '--short=12', 'HEAD').trim();
    return { commit, changed: git('status', '--porcelain', '--untracked-files=no').trim() !== '' };
  } catch {
    return { commit: 'unknown', changed: false };
  }
}

const n = (value: number) => Math.round(value).toLocaleString('en-US').replaceAll(',', ' ');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const bold = (s: Spread) => `**${s.median.toFixed(2)}** (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
const latencies = (s: { p50Ms: number; p99Ms: number }) => `${ms(s.p50Ms)} / ${ms(s.p99Ms)}`;

/** A server at saturation that used less of its core than this was not what set its pace. */
export const SATURATED_CORES = 0.9;

/** Whether the driver, not the server, set the pace of a run at saturation. */
const heldBack = (run: RunSummary) => run.serverCores < SATURATED_CORES;

/**
 * A throughput ratio over the rounds, marked † when the server it divides by was held back: that
 * server's req/s is then below what it can do, and the ratio too high.
 */
const ratio = (s: Spread, over: RunSummary) => `${bold(s)}${heldBack(over) ? '†' : ''}`;

const HELD_BACK_NOTE =
  `† The server this ratio divides by used under ${SATURATED_CORES} of its core: the driver, not ` +
  'the server, set its pace, so its req/s is below what it can do and the ratio is too high.';

/** `HELD_BACK_NOTE`, when a ratio of `comparisons` carries the mark. */
function heldBackNote(comparisons: readonly EndpointComparison[]): string[] {
  const held = comparisons.some(({ throughput: t }) =>
    Object.entries(t.servers).some(([name, s]) => name !== 'api' && heldBack(s)),
  );
  return held ? [HELD_BACK_NOTE] : [];
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function heading(report: Report): string {
  const { machine: m, source } = report;
  const code = `${source.commit}${source.changed ? ' with uncommitted changes' : ''}`;
  return `${report.complete ? 'Run' : 'INCOMPLETE run'} ${report.finishedAt.slice(0, 10)} (${report.mode}) of ${code} on ${m.cpus} × ${m.cpuModel}`;
}

/** The servers of `c` other than the API, by name: the rows and columns after the API's. */
const others = (c: EndpointComparison) =>
  Object.keys(c.throughput.servers).filter((n) => n !== 'api');

function throughputTable(report: Report): string {
  const nodeOf = new Map(report.servers.map((s) => [s.name, s.node]));
  const rows = report.comparisons.flatMap((c) =>
    Object.entries(c.throughput.servers).map(([name, s]) => {
      const api = name === 'api';
      return [
        `\`${c.label}\``,
        `${name} (${nodeOf.get(name) ?? '?'})`,
        n(s.rps),
        s.cpuUsPerRequest.toFixed(0),
        api ? '1' : bold(c.throughput.cpuOverApi[name] as Spread),
        api ? '1' : ratio(c.throughput.rpsOverApi[name] as Spread, s),
        latencies(s),
        (c.peakRssMb[name] ?? 0).toFixed(0),
        s.serverCores.toFixed(2),
        s.driverCpu.toFixed(2),
      ];
    }),
  );
  const header = ['endpoint', 'server (Node)', 'req/s', 'CPU µs/req'];
  header.push("CPU/req over the API's (min–max)", 'API req/s over its (min–max)');
  header.push('p50 / p99 ms', 'peak RSS MiB', 'server cores', 'driver cores');
  return table(header, rows);
}

function pairsTable(comparisons: readonly EndpointComparison[]): string {
  const rows = comparisons.flatMap(({ label, pairs: p }) =>
    Object.entries(p.apiBeside).map(([name, api]) => {
      const s = p.servers[name] as RunSummary;
      return [
        `\`${label}\``,
        name,
        `${n(s.rps)} / ${n(api.rps)}`,
        `${s.cpuUsPerRequest.toFixed(0)} / ${api.cpuUsPerRequest.toFixed(0)}`,
        bold(p.cpuOverApi[name] as Spread),
        `${s.serverCores.toFixed(2)} / ${api.serverCores.toFixed(2)}`,
      ];
    }),
  );
  const header = ['endpoint', 'server beside the API', 'req/s, its / API', 'CPU µs/req, its / API'];
  header.push("CPU/req over the API's (min–max)", 'server cores, its / API');
  return table(header, rows);
}

function fixedRateTable(comparisons: readonly EndpointComparison[]): string {
  const rows = comparisons.flatMap(({ label, fixedRate: f }) =>
    Object.entries(f.servers).map(([name, s]) => [
      `\`${label}\``,
      name,
      n(f.rate),
      `${latencies(s)} / ${ms(s.p999Ms)}`,
      s.cpuUsPerRequest.toFixed(0),
      name === 'api' ? '1' : bold(f.cpuOverApi[name] as Spread),
    ]),
  );
  const header = ['endpoint', 'server', 'rate req/s each', 'p50 / p99 / p99.9 ms'];
  header.push('CPU µs/req', "CPU/req over the API's (min–max)");
  return table(header, rows);
}

/** The growth table and the RSS line. */
function growthParts(series: readonly GrowthSeries[], settings: Report['settings']): string[] {
  const points = series[0]?.points ?? [];
  const [first, last] = [points[0], points.at(-1)];
  const rows = series.map((g) => [
    `\`${g.label}\``,
    n(g.points[0]?.fixedRate.rate ?? 0),
    ...g.points.map(
      (p) =>
        `${n(p.throughput.rps)} req/s (${p.throughput.cpuUsPerRequest.toFixed(0)} µs); ${latencies(p.fixedRate)}`,
    ),
    `**${g.rise.p50.toFixed(2)}×** / ${g.rise.p99.toFixed(2)}× / ${g.rise.cpuUsPerRequest.toFixed(2)}×`,
  ]);
  const perPet =
    first && last && last.pets > first.pets
      ? ` About ${rssPerPet(first, last)} bytes of RSS per stored pet (${n(first.pets)} to ${n(last.pets)} pets).`
      : '';
  const sizes = points.map((p) => `${n(p.pets)} pets`);
  return [
    `Growth (API only). Each cell: req/s at saturation (CPU µs per request); p50 / p99 ms at a fixed rate, ${settings.growthRateFraction} × the capacity at the smallest size, the same for every size:`,
    table(['endpoint', 'rate req/s', ...sizes, 'rise p50 / p99 / CPU µs per req'], rows),
    `API peak RSS: ${points.map((p) => `${n(p.pets)} pets ${p.peakRssMb.toFixed(0)} MiB`).join(', ')}.${perPet}`,
  ];
}

/** The tables of a report, in Markdown (printed, and written beside the JSON). */
function renderMarkdown(report: Report): string {
  const { machine, settings, comparisons } = report;
  const parts = [
    `${heading(report)}, ${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}. ` +
      `Driver and server share the machine${settings.pin ? ' (driver pinned to CPU 0, servers to CPU 1)' : ''}; ` +
      `${settings.pets} pets; ${settings.rounds} interleaved rounds of ${settings.measure.durationS} s per server ` +
      `after ${settings.warmup.durationS} s of warm-up, ${settings.connections} connections with ` +
      `${settings.pipelining} requests in flight on each (fixed rate: one).`,
  ];
  if (comparisons.length > 0) {
    parts.push(
      `Throughput: ${settings.rounds} rounds, each of fresh processes, each server in turn. CPU/req over the API's: the server's CPU time per request over the API's in the same round, median (min–max) over the rounds; above 1 the API costs less (for \`fastify\`, API/Fastify).`,
      throughputTable(report),
      ...heldBackNote(comparisons),
      `In pairs at saturation: each server but the replay limit loaded at once with the API, each as in its own run, the two alone sharing the server core, so a slower spell of the machine slows both alike. CPU/req over the API's: the server's over that of the API beside it, median (min–max) over the rounds; the req/s and cores are each one's share.`,
      pairsTable(comparisons),
      `Fixed rate: every server but the replay limit loaded at the same time, each at its share of ${settings.rateFraction * 2} × the slowest one's throughput in the first round, open loop, one request in flight per connection. Every column is explained in tooling/bench/README.md.`,
      fixedRateTable(comparisons),
    );
  }
  if (report.growth.length > 0) parts.push(...growthParts(report.growth, settings));
  return `${parts.join('\n\n')}\n`;
}

/** The short table a README carries: each endpoint's ratios. */
export function renderSummary(report: Report): string {
  const variants = report.comparisons[0] ? others(report.comparisons[0]) : [];
  const extra = variants.filter((name) => !['baseline', 'fastify', 'limit'].includes(name));
  const rows = report.comparisons.map((c) => {
    const t = c.throughput;
    const pairs = c.pairs;
    const [api, fastify] = [pairs.apiBeside.fastify, pairs.servers.fastify];
    return [
      `\`${c.label}\``,
      n(t.api.rps),
      api && fastify
        ? `${api.cpuUsPerRequest.toFixed(0)} / ${fastify.cpuUsPerRequest.toFixed(0)}`
        : '–',
      fastify ? bold(pairs.cpuOverApi.fastify as Spread) : '–',
      fixed(c, 'fastify'),
      ratio(t.ratio, t.baseline),
      ratio(t.limitRatio, t.limit),
      ...extra.map((name) => {
        const over = pairs.cpuOverApi[name];
        const run = pairs.servers[name];
        return over && run
          ? `${run.cpuUsPerRequest.toFixed(0)} µs, ${bold(over)}; ${fixed(c, name)}`
          : '–';
      }),
    ];
  });
  const header = ['endpoint', 'API req/s', 'CPU µs/req API / Fastify', 'API/Fastify (CPU)'];
  header.push('API/Fastify (CPU, fixed rate)', 'API/baseline (req/s)', 'API/limit (req/s)');
  header.push(...extra.map((name) => `${name}: CPU µs/req, over the API's; fixed rate`));
  const links =
    '[tooling/bench](tooling/bench/README.md), [results/latest.md](tooling/bench/results/latest.md)';
  const nodes = [...new Set(report.servers.map((s) => s.node))].join(', ');
  return [
    `${heading(report)}, Node ${nodes}; every figure and the method: ${links}. ` +
      "API/Fastify is the Fastify peer's CPU time per request over the API's, paired by round (median, min–max): above 1 the API costs less; at saturation, the two loaded at once alone on the server core, and at a fixed rate, every server loaded at once, so a slower spell of the host slows all alike. The CPU µs/req are those at saturation, each server in its pair with the API; API req/s and the req/s ratios are each server's own runs.",
    table(header, rows),
    ...heldBackNote(report.comparisons),
    ...growthLine(report),
    '',
  ].join('\n\n');
}

/** A server's CPU per request over the API's in the fixed-rate rounds (all loaded at once). */
function fixed(c: EndpointComparison, name: string): string {
  const over = c.fixedRate.cpuOverApi?.[name];
  return over ? `${over.median.toFixed(2)} (${over.min.toFixed(2)}–${over.max.toFixed(2)})` : '–';
}

/** The RSS each stored pet costs, from the growth runs, as one line (none without them). */
function growthLine(report: Report): string[] {
  const points = report.growth[0]?.points ?? [];
  const [first, last] = [points[0], points.at(-1)];
  if (!first || !last || last.pets <= first.pets) return [];
  return [
    `RSS per stored pet: about ${rssPerPet(first, last)} bytes (${n(first.pets)} to ${n(last.pets)} pets).`,
  ];
}

const rssPerPet = (first: { pets: number; peakRssMb: number }, last: typeof first) =>
  Math.round(((last.peakRssMb - first.peakRssMb) * 2 ** 20) / (last.pets - first.pets));

export const README_BEGIN = '<!-- bench:begin -->';
export const README_END = '<!-- bench:end -->';

/** Writes the JSON report and, beside it, its tables in Markdown, which it returns. */
export function writeReport(path: string, report: Report): string {
  const markdown = renderMarkdown(report);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${path.replace(/\.json$/, '')}.md`, markdown);
  return markdown;
}

/** Replaces what stands between the bench markers of a README with `markdown`. */
export function updateReadme(path: string, markdown: string): void {
  const text = readFileSync(path, 'utf8');
  const [begin, end] = [text.indexOf(README_BEGIN), text.indexOf(README_END)];
  if (begin === -1 || end < begin) {
    throw new Error(`${path} has no ${README_BEGIN} … ${README_END} section to replace`);
  }
  writeFileSync(
    path,
    `${text.slice(0, begin + README_BEGIN.length)}\n${markdown}${text.slice(end)}`,
  );
}
