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
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  settings: Omit<Settings, 'out' | 'readme'>;
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
    if (c.store !== 'memory') continue;
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
      measured: `${g.rise.p50}x (p99 ${g.rise.p99}x)`,
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
    `Run ${report.finishedAt.slice(0, 10)} (${report.mode}) on ${machine.cpus} × ${machine.cpuModel}, ` +
      `${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}. ` +
      `Driver and server share the machine${settings.pin ? ' (driver pinned to CPU 0, servers to CPU 1)' : ''}; ` +
      `${settings.pets} pets; ${settings.rounds} interleaved rounds of ${settings.durationS} s per server; ` +
      `-c ${settings.connections}, pipelining ${settings.pipelining}.`,
  );
  if (report.comparisons.length > 0) {
    parts.push(
      table(
        [
          'store',
          'endpoint',
          'API req/s',
          'baseline req/s',
          'API/baseline (min–max)',
          'API p50 / p99 ms',
          'baseline p50 / p99 ms',
          'server CPU API / baseline',
          'peak RSS API / baseline MiB',
        ],
        report.comparisons.map((c) => {
          const t = c.throughput;
          return [
            c.store,
            `\`${c.label}\``,
            n(t.api.rps),
            n(t.baseline.rps),
            `**${t.ratio.median.toFixed(2)}** (${t.ratio.min.toFixed(2)}–${t.ratio.max.toFixed(2)})`,
            `${ms(t.api.p50Ms)} / ${ms(t.api.p99Ms)}`,
            `${ms(t.baseline.p50Ms)} / ${ms(t.baseline.p99Ms)}`,
            `${t.api.serverCpu.toFixed(2)} / ${t.baseline.serverCpu.toFixed(2)}`,
            `${c.peakRssMb.api.toFixed(0)} / ${c.peakRssMb.baseline.toFixed(0)}`,
          ];
        }),
      ),
    );
    parts.push(
      `Fixed rate (open loop, no pipelining, -c ${settings.connections}, ${settings.rateFraction} × the baseline's throughput):`,
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
          ];
        }),
      ),
    );
  }
  if (report.growth.length > 0) {
    const sizes = report.growth[0]?.points.map((p) => p.pets) ?? [];
    parts.push(
      'Growth (API only; req/s at saturation; p50 / p99 ms at a fixed rate, the same for every size):',
    );
    parts.push(
      table(
        ['store', 'endpoint', 'rate req/s', ...sizes.map((s) => `${n(s)} pets`), 'rise p50 / p99'],
        report.growth.map((g) => [
          g.store,
          `\`${g.label}\``,
          n(g.points[0]?.fixedRate.rate ?? 0),
          ...g.points.map(
            (p) =>
              `${n(p.throughput.rps)} req/s; ${ms(p.fixedRate.p50Ms)} / ${ms(p.fixedRate.p99Ms)}`,
          ),
          `**${g.rise.p50.toFixed(2)}×** / ${g.rise.p99.toFixed(2)}×`,
        ]),
      ),
    );
    const rss = report.growth[0]?.points.map(
      (p) => `${n(p.pets)} pets: ${p.peakRssMb.toFixed(0)} MiB`,
    );
    if (rss) parts.push(`API peak RSS ${report.growth[0]?.store}: ${rss.join(', ')}.`);
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
