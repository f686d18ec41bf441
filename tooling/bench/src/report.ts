import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { EndpointComparison } from './compare.js';
import type { GrowthSeries } from './growth.js';
import type { Settings } from './settings.js';
import type { Spread } from './stats.js';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  kernel: string;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

/** What `results/latest.json` holds. */
export interface Report {
  version: 1;
  mode: 'full' | 'smoke';
  /** False while the run is still going (or was stopped): the figures so far. */
  complete: boolean;
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  settings: Omit<Settings, 'out' | 'readme'>;
  /** Where a store's runs departed from the settings, and why. */
  notes: string[];
  comparisons: EndpointComparison[];
  growth: GrowthSeries[];
  targets: Target[];
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: release(),
  };
}

/** The project's performance targets (medians; the in-memory store unless the name says). */
export const TARGETS = {
  memoryRatio: 0.85,
  /** API over the replay limit, read endpoints, in-memory store. */
  limitRatio: 0.6,
  mongoRatio: 0.9,
  p99Ratio: 1.3,
  peakRssMb: 150,
  growthRise: 2,
} as const;

const spreadText = (s: Spread) => `${s.median} (${s.min}-${s.max})`;

export function evaluateTargets(
  comparisons: readonly EndpointComparison[],
  growth: readonly GrowthSeries[],
): Target[] {
  const targets: Target[] = [];
  const add = (name: string, goal: string, measured: string, met: boolean) =>
    targets.push({ name, goal, measured, met });
  for (const c of comparisons) {
    const name = `${c.store} ${c.label}`;
    const { ratio, limitRatio } = c.throughput;
    const floor = c.store === 'memory' ? TARGETS.memoryRatio : TARGETS.mongoRatio;
    add(
      `${name}: throughput API/baseline`,
      `>= ${floor}`,
      spreadText(ratio),
      ratio.median >= floor,
    );
    const { insert, findAndModify = 0 } = c.commandsPerRequest.api;
    if (c.endpoint === 'create' && insert !== undefined) {
      const measured = `${findAndModify} (plus ${insert} insert)`;
      add(`${name}: id allocation round-trips per create`, '< 1', measured, findAndModify < 1);
    }
    if (c.store !== 'memory') continue;
    if (c.endpoint !== 'create') {
      const goal = `>= ${TARGETS.limitRatio}`;
      add(
        `${name}: throughput API/replay limit`,
        goal,
        spreadText(limitRatio),
        limitRatio.median >= TARGETS.limitRatio,
      );
    }
    const f = c.fixedRate;
    add(
      `${name}: p99 at ${f.rate} req/s, API/baseline`,
      `<= ${TARGETS.p99Ratio}`,
      `${f.p99Ratio} (${f.api.p99Ms} / ${f.baseline.p99Ms} ms)`,
      f.p99Ratio <= TARGETS.p99Ratio,
    );
    const rss = c.peakRssMb.api;
    add(
      `${name}: API peak RSS under load`,
      `<= ${TARGETS.peakRssMb} MiB`,
      `${rss} MiB`,
      rss <= TARGETS.peakRssMb,
    );
  }
  for (const g of growth) {
    const [first, last] = [g.points[0], g.points.at(-1)];
    if (!first || !last || first === last || g.endpoint === 'sold') continue;
    add(
      `${g.store} ${g.label}: p50 latency, ${last.pets} vs ${first.pets} pets`,
      `< ${TARGETS.growthRise}x`,
      `${g.rise.p50}x (p99 ${g.rise.p99}x, CPU per request ${g.rise.cpuUsPerRequest}x)`,
      g.rise.p50 < TARGETS.growthRise,
    );
  }
  return targets;
}

const n = (value: number) => Math.round(value).toLocaleString('en-US').replaceAll(',', ' ');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const bold = (s: Spread) => `**${s.median.toFixed(2)}** (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
/** API/limit where it means something: the replay limit has no database, so not for MongoDB. */
const limitText = (c: EndpointComparison) =>
  c.store === 'memory' ? bold(c.throughput.limitRatio) : '–';

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function heading(report: Report): string {
  const { machine: m } = report;
  return `${report.complete ? 'Run' : 'INCOMPLETE run'} ${report.finishedAt.slice(0, 10)} (${report.mode}) on ${m.cpus} × ${m.cpuModel}`;
}

/** The database commands per request and the shared rate limit's leases (MongoDB rows). */
function databaseLines(comparisons: readonly EndpointComparison[]): string[] {
  const lines: string[] = [];
  const render = (rates: Record<string, number>) =>
    Object.entries(rates)
      .map(([name, rate]) => `${name} ${rate}`)
      .join(', ');
  const calls = comparisons.filter((c) => Object.keys(c.commandsPerRequest.api).length > 0);
  if (calls.length > 0) {
    const each = calls.map(
      (c) =>
        `\`${c.label}\` ${render(c.commandsPerRequest.api)} / ${render(c.commandsPerRequest.baseline)}`,
    );
    lines.push(`Database commands per request, API / baseline: ${each.join('; ')}.`);
  }
  const leases = calls.filter(
    (c) => c.endpoint !== 'create' && (c.commandsPerRequest.api.insert ?? 0) > 0,
  );
  if (leases.length > 0) {
    const each = leases.map(
      (c) => `\`${c.label}\` ${Math.round(1 / (c.commandsPerRequest.api.insert ?? 1))}`,
    );
    lines.push(
      `Shared rate limit (MongoDB, both servers): requests per lease round-trip ${each.join(', ')} (the read endpoints' \`insert\`s are the leases).`,
    );
  }
  return lines;
}

/** The growth table and RSS line of one store. */
function growthParts(
  store: string,
  series: readonly GrowthSeries[],
  settings: Report['settings'],
): string[] {
  const points = series[0]?.points ?? [];
  const [first, last] = [points[0], points.at(-1)];
  const rows = series.map((g) => [
    `\`${g.label}\``,
    n(g.points[0]?.fixedRate.rate ?? 0),
    ...g.points.map(
      (p) =>
        `${n(p.throughput.rps)} req/s (${p.throughput.cpuUsPerRequest.toFixed(0)} µs); ${ms(p.fixedRate.p50Ms)} / ${ms(p.fixedRate.p99Ms)}`,
    ),
    `**${g.rise.p50.toFixed(2)}×** / ${g.rise.p99.toFixed(2)}× / ${g.rise.cpuUsPerRequest.toFixed(2)}×`,
  ]);
  const perPet =
    store === 'memory' && first && last && last.pets > first.pets
      ? ` About ${Math.round(((last.peakRssMb - first.peakRssMb) * 2 ** 20) / (last.pets - first.pets))} bytes of RSS per stored pet (${n(first.pets)} to ${n(last.pets)} pets).`
      : '';
  return [
    `Growth, ${store} store (API only). Each cell: req/s at saturation (CPU µs per request); p50 / p99 ms at a fixed rate, ${settings.growthRateFraction} × the capacity at the smallest size, the same for every size:`,
    table(
      [
        'endpoint',
        'rate req/s',
        ...points.map((p) => `${n(p.pets)} pets`),
        'rise p50 / p99 / CPU µs per req',
      ],
      rows,
    ),
    `API peak RSS: ${points.map((p) => `${n(p.pets)} pets ${p.peakRssMb.toFixed(0)} MiB (seeded in ${(p.seedMs / 1000).toFixed(1)} s)`).join(', ')}.${perPet}`,
  ];
}

/** The tables of a report, in Markdown (printed, and written beside the JSON). */
export function renderMarkdown(report: Report): string {
  const { machine, settings, comparisons } = report;
  const parts = [
    `${heading(report)}, ${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}. ` +
      `Driver and server share the machine${settings.pin ? ' (driver pinned to CPU 0, servers to CPU 1)' : ''}; ` +
      `${settings.pets} pets; ${settings.rounds} interleaved rounds of ${settings.durationS} s per server ` +
      `after ${settings.warmupS} s of warm-up; load -c connections / -p pipelining.`,
    ...report.notes.map((note) => `Note: ${note}`),
  ];
  if (comparisons.length > 0) {
    const header = ['store', 'endpoint', 'load', 'API req/s', 'baseline req/s', 'limit req/s'];
    header.push(
      'API/baseline (min–max)',
      'API/limit (min–max)',
      'CPU µs/req API / baseline / limit',
    );
    header.push(
      'API p50 / p99 ms',
      'baseline p50 / p99 ms',
      'peak RSS API / baseline MiB',
      "CPU driver / others'",
    );
    const rows = comparisons.map((c) => {
      const { api, baseline, limit, ratio, limitRatio } = c.throughput;
      const cpu = [api, baseline, limit].map((s) => s.cpuUsPerRequest.toFixed(0)).join(' / ');
      return [
        c.store,
        `\`${c.label}\``,
        `-c ${c.connections} -p ${c.pipelining}`,
        n(api.rps),
        n(baseline.rps),
      ]
        .concat([
          n(limit.rps),
          bold(ratio),
          bold(limitRatio),
          cpu,
          `${ms(api.p50Ms)} / ${ms(api.p99Ms)}`,
        ])
        .concat([
          `${ms(baseline.p50Ms)} / ${ms(baseline.p99Ms)}`,
          `${c.peakRssMb.api.toFixed(0)} / ${c.peakRssMb.baseline.toFixed(0)}`,
        ])
        .concat([
          `${Math.max(api.driverCpu, baseline.driverCpu).toFixed(2)} / ${Math.max(api.otherCpu, baseline.otherCpu).toFixed(2)}`,
        ]);
    });
    parts.push(table(header, rows));
    parts.push(
      'limit: the replay limit, bare `node:http` answering each request with the bytes the API ' +
        'sent for it after the same bearer check: what this machine can do for these answers (it has ' +
        'no database: API/limit is given for the in-memory store only). ' +
        "CPU µs/req: the server's CPU time per response, which a busy machine disturbs far less than " +
        "req/s. CPU driver / others': cores used by the load generator (near 1: it may be the limit) " +
        'and by every other process during the runs (medians; more than a few tenths means the ' +
        'figures of that row are disturbed).',
      ...databaseLines(comparisons),
      `Fixed rate (open loop, no pipelining, same connections, ${settings.rateFraction} × the slower server's throughput; latency counted from when each request was due):`,
      table(
        [
          'store',
          'endpoint',
          'rate req/s',
          'API p50 / p99 / p99.9 ms',
          'baseline p50 / p99 / p99.9 ms',
        ].concat(['p99 API/baseline', 'server CPU API / baseline']),
        comparisons.map(({ store, label, fixedRate: f }) => [
          store,
          `\`${label}\``,
          n(f.rate),
          `${ms(f.api.p50Ms)} / ${ms(f.api.p99Ms)} / ${ms(f.api.p999Ms)}`,
          `${ms(f.baseline.p50Ms)} / ${ms(f.baseline.p99Ms)} / ${ms(f.baseline.p999Ms)}`,
          `**${f.p99Ratio.toFixed(2)}**`,
          `${f.api.serverCpu.toFixed(2)} / ${f.baseline.serverCpu.toFixed(2)}`,
        ]),
      ),
    );
  }
  for (const store of new Set(report.growth.map((g) => g.store))) {
    parts.push(
      ...growthParts(
        store,
        report.growth.filter((g) => g.store === store),
        settings,
      ),
    );
  }
  if (report.targets.length > 0) {
    const rows = report.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : '**no**']);
    parts.push(table(['target', 'goal', 'measured', 'met'], rows));
  }
  return `${parts.join('\n\n')}\n`;
}

/** The short table a README carries: each endpoint's ratios. */
export function renderSummary(report: Report): string {
  const rows = report.comparisons.map((c) => [
    c.store,
    `\`${c.label}\``,
    n(c.throughput.api.rps),
    bold(c.throughput.ratio),
    limitText(c),
    c.fixedRate.p99Ratio.toFixed(2),
  ]);
  const links =
    '[tooling/bench](tooling/bench/README.md), [results/latest.md](tooling/bench/results/latest.md)';
  return [
    `${heading(report)}, Node ${report.machine.node}; every figure and the method: ${links}.`,
    table(
      ['store', 'endpoint', 'API req/s', 'API/baseline', 'API/limit', 'p99 API/baseline'],
      rows,
    ),
    '',
  ].join('\n\n');
}

export const README_BEGIN = '<!-- bench:begin -->';
export const README_END = '<!-- bench:end -->';

/** Writes the JSON report and, beside it, the same tables in Markdown. */
export function writeReport(path: string, report: Report, markdown: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${path.replace(/\.json$/, '')}.md`, markdown);
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
