import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { EndpointComparison } from './compare.js';
import type { GrowthSeries } from './growth.js';
import type { Settings } from './settings.js';

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

/** Target thresholds of the performance issue (medians, in-memory store unless stated). */
export const TARGETS = {
  memoryRatio: 0.85,
  /** API over the replay limit (bare node:http sending the API's bytes), reads, memory store. */
  limitRatio: 0.6,
  mongoRatio: 0.9,
  p99Ratio: 1.3,
  peakRssMb: 150,
  growthRise: 2,
} as const;

export function evaluateTargets(
  comparisons: readonly EndpointComparison[],
  growth: readonly GrowthSeries[],
): Target[] {
  const targets: Target[] = [];
  for (const c of comparisons) {
    const floor = c.store === 'memory' ? TARGETS.memoryRatio : TARGETS.mongoRatio;
    targets.push({
      name: `${c.store} ${c.label}: throughput API/baseline`,
      goal: `>= ${floor}`,
      measured: `${c.throughput.ratio.median} (${c.throughput.ratio.min}-${c.throughput.ratio.max})`,
      met: c.throughput.ratio.median >= floor,
    });
    const allocations = c.commandsPerRequest.api.findAndModify;
    if (c.endpoint === 'create' && c.commandsPerRequest.api.insert !== undefined) {
      targets.push({
        name: `${c.store} ${c.label}: id allocation round-trips per create`,
        goal: '< 1',
        measured: `${allocations ?? 0} (plus ${c.commandsPerRequest.api.insert} insert)`,
        met: (allocations ?? 0) < 1,
      });
    }
    if (c.store !== 'memory') continue;
    if (c.endpoint !== 'create') {
      const limit = c.throughput.limitRatio;
      targets.push({
        name: `${c.store} ${c.label}: throughput API/replay limit`,
        goal: `>= ${TARGETS.limitRatio}`,
        measured: `${limit.median} (${limit.min}-${limit.max})`,
        met: limit.median >= TARGETS.limitRatio,
      });
    }
    targets.push({
      name: `${c.store} ${c.label}: p99 at ${c.fixedRate.rate} req/s, API/baseline`,
      goal: `<= ${TARGETS.p99Ratio}`,
      measured: `${c.fixedRate.p99Ratio} (${c.fixedRate.api.p99Ms} / ${c.fixedRate.baseline.p99Ms} ms)`,
      met: c.fixedRate.p99Ratio <= TARGETS.p99Ratio,
    });
    targets.push({
      name: `${c.store} ${c.label}: API peak RSS under load`,
      goal: `<= ${TARGETS.peakRssMb} MiB`,
      measured: `${c.peakRssMb.api} MiB`,
      met: c.peakRssMb.api <= TARGETS.peakRssMb,
    });
  }
  for (const g of growth) {
    const first = g.points[0];
    const last = g.points.at(-1);
    if (!first || !last || first === last || g.endpoint === 'sold') continue;
    targets.push({
      name: `${g.store} ${g.label}: p50 latency, ${last.pets} vs ${first.pets} pets`,
      goal: `< ${TARGETS.growthRise}x`,
      measured: `${g.rise.p50}x (p99 ${g.rise.p99}x, CPU per request ${g.rise.cpuUsPerRequest}x)`,
      met: g.rise.p50 < TARGETS.growthRise,
    });
  }
  return targets;
}

const n = (value: number) => value.toLocaleString('en-US').replaceAll(',', ' ');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The tables of a report, in Markdown (printed, written beside the JSON, put in the README). */
export function renderMarkdown(report: Report): string {
  const { machine, settings } = report;
  const parts: string[] = [];
  parts.push(
    `${report.complete ? 'Run' : 'INCOMPLETE run'} ${report.finishedAt.slice(0, 10)} (${report.mode}) on ${machine.cpus} × ${machine.cpuModel}, ` +
      `${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}. ` +
      `Driver and server share the machine${settings.pin ? ' (driver pinned to CPU 0, servers to CPU 1)' : ''}; ` +
      `${settings.pets} pets; ${settings.rounds} interleaved rounds of ${settings.durationS} s per server ` +
      `after ${settings.warmupS} s of warm-up; load -c connections / -p pipelining.`,
  );
  for (const note of report.notes) parts.push(`Note: ${note}`);
  if (report.comparisons.length > 0) {
    parts.push(
      table(
        [
          'store',
          'endpoint',
          'load',
          'API req/s',
          'baseline req/s',
          'limit req/s',
          'API/baseline (min–max)',
          'API/limit (min–max)',
          'CPU µs/req API / baseline',
          'API p50 / p99 ms',
          'baseline p50 / p99 ms',
          'peak RSS API / baseline MiB',
          "CPU driver / others'",
        ],
        report.comparisons.map((c) => {
          const t = c.throughput;
          return [
            c.store,
            `\`${c.label}\``,
            `-c ${c.connections} -p ${c.pipelining}`,
            n(t.api.rps),
            n(t.baseline.rps),
            n(t.limit.rps),
            `**${t.ratio.median.toFixed(2)}** (${t.ratio.min.toFixed(2)}–${t.ratio.max.toFixed(2)})`,
            `**${t.limitRatio.median.toFixed(2)}** (${t.limitRatio.min.toFixed(2)}–${t.limitRatio.max.toFixed(2)})`,
            `${t.api.cpuUsPerRequest.toFixed(0)} / ${t.baseline.cpuUsPerRequest.toFixed(0)}`,
            `${ms(t.api.p50Ms)} / ${ms(t.api.p99Ms)}`,
            `${ms(t.baseline.p50Ms)} / ${ms(t.baseline.p99Ms)}`,
            `${c.peakRssMb.api.toFixed(0)} / ${c.peakRssMb.baseline.toFixed(0)}`,
            `${Math.max(t.api.driverCpu, t.baseline.driverCpu).toFixed(2)} / ${Math.max(t.api.otherCpu, t.baseline.otherCpu).toFixed(2)}`,
          ];
        }),
      ),
    );
    parts.push(
      'limit: the replay limit, bare `node:http` answering each request with the bytes the API ' +
        'sent for it after the same bearer check: what this machine can do for these answers. ' +
        "CPU µs/req: the server's CPU time per response, which a busy machine disturbs far less than " +
        "req/s. CPU driver / others': cores used by the load generator (near 1: it may be the limit) " +
        'and by every other process during the runs (medians; 0 on a quiet machine: more means the ' +
        'figures of that row are disturbed).',
    );
    const calls = report.comparisons.filter(
      (c) => Object.keys(c.commandsPerRequest.api).length > 0,
    );
    if (calls.length > 0) {
      const render = (rates: Record<string, number>) =>
        Object.entries(rates)
          .map(([name, rate]) => `${name} ${rate}`)
          .join(', ');
      parts.push(
        `Database commands per request, API / baseline: ${calls
          .map(
            (c) =>
              `\`${c.label}\` ${render(c.commandsPerRequest.api)} / ${render(c.commandsPerRequest.baseline)}`,
          )
          .join('; ')}.`,
      );
    }
    const leases = report.comparisons.filter(
      (c) => c.endpoint !== 'create' && (c.commandsPerRequest.api.insert ?? 0) > 0,
    );
    if (leases.length > 0) {
      parts.push(
        `Shared rate limit (MongoDB, both servers): requests per lease round-trip ${leases
          .map((c) => `\`${c.label}\` ${Math.round(1 / (c.commandsPerRequest.api.insert ?? 1))}`)
          .join(', ')} (the read endpoints' \`insert\`s are the leases).`,
      );
    }
    parts.push(
      `Fixed rate (open loop, no pipelining, same connections, ${settings.rateFraction} × the baseline's throughput; latency counted from when each request was due):`,
    );
    parts.push(
      table(
        [
          'store',
          'endpoint',
          'rate req/s',
          'API p50 / p99 / p99.9 ms',
          'baseline p50 / p99 / p99.9 ms',
          'p99 API/baseline',
          'server CPU API / baseline',
        ],
        report.comparisons.map((c) => {
          const f = c.fixedRate;
          return [
            c.store,
            `\`${c.label}\``,
            n(f.rate),
            `${ms(f.api.p50Ms)} / ${ms(f.api.p99Ms)} / ${ms(f.api.p999Ms)}`,
            `${ms(f.baseline.p50Ms)} / ${ms(f.baseline.p99Ms)} / ${ms(f.baseline.p999Ms)}`,
            `**${f.p99Ratio.toFixed(2)}**`,
            `${f.api.serverCpu.toFixed(2)} / ${f.baseline.serverCpu.toFixed(2)}`,
          ];
        }),
      ),
    );
  }
  for (const store of new Set(report.growth.map((g) => g.store))) {
    const series = report.growth.filter((g) => g.store === store);
    const sizes = series[0]?.points.map((p) => p.pets) ?? [];
    parts.push(
      `Growth, ${store} store (API only). Each cell: req/s at saturation (CPU µs per request); ` +
        `p50 / p99 ms at a fixed rate, ${settings.growthRateFraction} × the capacity at the smallest size, the same for every size:`,
    );
    parts.push(
      table(
        [
          'endpoint',
          'rate req/s',
          ...sizes.map((size) => `${n(size)} pets`),
          'rise p50 / p99 / CPU µs per req',
        ],
        series.map((g) => [
          `\`${g.label}\``,
          n(g.points[0]?.fixedRate.rate ?? 0),
          ...g.points.map(
            (p) =>
              `${n(p.throughput.rps)} req/s (${p.throughput.cpuUsPerRequest.toFixed(0)} µs); ${ms(p.fixedRate.p50Ms)} / ${ms(p.fixedRate.p99Ms)}`,
          ),
          `**${g.rise.p50.toFixed(2)}×** / ${g.rise.p99.toFixed(2)}× / ${g.rise.cpuUsPerRequest.toFixed(2)}×`,
        ]),
      ),
    );
    const points = series[0]?.points ?? [];
    const first = points[0];
    const last = points.at(-1);
    const perPet =
      store === 'memory' && first && last && last.pets > first.pets
        ? ` About ${Math.round(((last.peakRssMb - first.peakRssMb) * 2 ** 20) / (last.pets - first.pets))} bytes of RSS per stored pet (${n(first.pets)} to ${n(last.pets)} pets).`
        : '';
    parts.push(
      `API peak RSS: ${points.map((p) => `${n(p.pets)} pets ${p.peakRssMb.toFixed(0)} MiB (seeded in ${(p.seedMs / 1000).toFixed(1)} s)`).join(', ')}.${perPet}`,
    );
  }
  if (report.targets.length > 0) {
    parts.push(
      table(
        ['target', 'goal', 'measured', 'met'],
        report.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : '**no**']),
      ),
    );
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * The short table a README carries: each endpoint's ratios, from a run's report (a report from
 * before the replay limit existed shows – for it).
 */
export function renderSummary(report: Report): string {
  const ratio = (spread?: { median: number; min: number; max: number }) =>
    spread
      ? `**${spread.median.toFixed(2)}** (${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`
      : '–';
  const rows = report.comparisons.map((c) => [
    c.store,
    `\`${c.label}\``,
    n(c.throughput.api.rps),
    ratio(c.throughput.ratio),
    ratio(c.throughput.limitRatio),
    c.fixedRate.p99Ratio.toFixed(2),
  ]);
  const { machine } = report;
  return [
    `${report.complete ? 'Run' : 'INCOMPLETE run'} ${report.finishedAt.slice(0, 10)} (${report.mode}) on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; every figure and the method: [tooling/bench](tooling/bench/README.md), [results/latest.md](tooling/bench/results/latest.md).`,
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
  const begin = text.indexOf(README_BEGIN);
  const end = text.indexOf(README_END);
  if (begin === -1 || end < begin) {
    throw new Error(`${path} has no ${README_BEGIN} … ${README_END} section to replace`);
  }
  writeFileSync(
    path,
    `${text.slice(0, begin + README_BEGIN.length)}\n${markdown}${text.slice(end)}`,
  );
}
