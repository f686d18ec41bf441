import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { RunSummary } from './load.js';
import { type LoadGroup, loadGroups } from './load-groups.js';
import type { RssPerPet } from './memory.js';
import { THREAD_KINDS, threadCpu } from './process-cpu.js';
import type { EndpointRuns, ServerRuns } from './rounds.js';
import type { Settings } from './settings.js';
import { median, round, type Spread, spread } from './stats.js';

/** What `results/latest.json` holds: every run of every round, as measured. */
export interface Report {
  version: 11;
  mode: 'full' | 'smoke';
  /** False while the run is still going (or was stopped): the rounds so far. */
  complete: boolean;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; kernel: string };
  /** The code measured: its commit, and whether tracked files had changes beside it. */
  source: { commit: string; changed: boolean };
  settings: Omit<Settings, 'out' | 'writeReadme' | 'from'>;
  /** Every server of the run: name, load group and the variables the bench set for it. */
  servers: { name: string; group: LoadGroup; env: Record<string, string> }[];
  endpoints: EndpointRuns[];
  /** The highest peak RSS of each server's processes, MiB. */
  peakRssMb: Record<string, number>;
  rss?: RssPerPet;
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

type Mode = keyof ServerRuns;
const MODES: readonly Mode[] = ['saturation', 'fixedRate'];

/** One round's CPU time per request of each server that ran, µs, by name. */
type Costs = Record<string, number>;

/**
 * A figure of the summary, computed per round from the servers' CPU time per request and given
 * as the median and the min–max over the rounds: a ratio (`over` ÷ `under`), or a difference in
 * µs (`over` − `under`: an app's own work above its framework's floor), or the ratio of two such
 * differences. `target` is the most it may be (the project's targets), if any.
 */
export interface Figure {
  label: string;
  servers: readonly string[];
  unit: 'ratio' | 'µs';
  value(cpu: Costs): number;
  target?: number;
}

const ratio = (label: string, over: string, under: string, target?: number): Figure => ({
  label,
  servers: [over, under],
  unit: 'ratio',
  value: (cpu) => (cpu[over] as number) / (cpu[under] as number),
  target,
});

const above = (label: string, app: string, floor: string): Figure => ({
  label,
  servers: [app, floor],
  unit: 'µs',
  value: (cpu) => (cpu[app] as number) - (cpu[floor] as number),
});

/** `a` over `b`, two differences: one app's own work over another's. */
const over = (label: string, a: Figure, b: Figure, target?: number): Figure => ({
  label,
  servers: [...a.servers, ...b.servers],
  unit: 'ratio',
  value: (cpu) => a.value(cpu) / b.value(cpu),
  target,
});

const API_ABOVE = above('API − Koa floor, µs', 'api', 'koa-floor');
const FASTIFY_ABOVE = above('Fastify peer − Fastify floor, µs', 'fastify', 'fastify-floor');

/** The figures of the summary, in its order. */
export const FIGURES: readonly Figure[] = [
  ratio('API/Koa peer', 'api', 'koa', 1),
  ratio('API/Fastify peer', 'api', 'fastify'),
  API_ABOVE,
  above('Koa peer − Koa floor, µs', 'koa', 'koa-floor'),
  FASTIFY_ABOVE,
  // The API's own work may be at most 5% above the Fastify peer's, each above its own floor.
  over('(API − Koa floor)/(Fastify peer − Fastify floor)', API_ABOVE, FASTIFY_ABOVE, 1.05),
  ratio('traced/untraced', 'traced', 'untraced', 1.05),
  // Every request left out by the sampler: tracing's cost to the requests it does not record.
  ratio('unsampled/untraced', 'unsampled', 'untraced', 1.05),
  // With --undone: a change kept for speed stays where undoing it costs at least 5%, a ratio of
  // 1.05 or more (apps/api/PERFORMANCE.md); a floor, so it carries no ✓ or ✗.
  ratio('undone/traced', 'undone', 'traced'),
  // With --control: one build over itself, two processes of the untraced API side by side; how
  // far a ratio of the tracing group strays when nothing differs. No target.
  ratio('control/untraced', 'control', 'untraced'),
  ratio('API/limit', 'api', 'limit'),
  // The same recorded answers through Koa with @koa/router and through Fastify: how much of
  // API/Fastify peer the frameworks alone account for.
  ratio('Koa floor/Fastify floor', 'koa-floor', 'fastify-floor'),
];

/** The most RSS a stored pet may cost, bytes. */
export const RSS_TARGET_BYTES = 300;

/** `figure` in each round where all its servers ran: median, min–max. */
export function figureOf(e: EndpointRuns, figure: Figure, mode: Mode): Spread | undefined {
  const paired = e.rounds.filter((r) => figure.servers.every((name) => r[name]));
  if (paired.length === 0) return undefined;
  const costs = (r: Record<string, ServerRuns>): Costs =>
    Object.fromEntries(
      figure.servers.map((name) => [name, (r[name] as ServerRuns)[mode].cpuUsPerRequest]),
    );
  return spread(paired.map((r) => figure.value(costs(r))));
}

/** The numeric fields of a run, each the median of the runs'. */
const MEDIAN_FIELDS = [
  'rps',
  'requests',
  'p50Ms',
  'p99Ms',
  'cpuUsPerRequest',
  'serverCores',
  'driverCores',
] as const satisfies readonly (keyof RunSummary)[];

/**
 * A server's runs of one endpoint in one mode, field by field, the median over the rounds; its
 * CPU time by kind of thread only where every run has it.
 */
function medianRun(e: EndpointRuns, name: string, mode: Mode): RunSummary | undefined {
  const runs = e.rounds.flatMap((r) => (r[name] ? [r[name][mode]] : []));
  if (runs.length === 0) return undefined;
  const medians = Object.fromEntries(
    MEDIAN_FIELDS.map((field) => [field, round(median(runs.map((run) => run[field])), 3)]),
  ) as Pick<RunSummary, (typeof MEDIAN_FIELDS)[number]>;
  const split = runs.flatMap((run) => (run.threadUsPerRequest ? [run.threadUsPerRequest] : []));
  if (split.length < runs.length) return medians;
  return {
    ...medians,
    threadUsPerRequest: threadCpu((kind) => round(median(split.map((t) => t[kind])), 2)),
  };
}

/** A run's CPU time per request by kind of thread: main / V8 helpers / workers / other. */
const threadCell = ({ threadUsPerRequest: t }: RunSummary) =>
  t ? THREAD_KINDS.map((kind) => t[kind].toFixed(1)).join(' / ') : '–';

const n = (value: number) => Math.round(value).toLocaleString('en-US').replaceAll(',', ' ');
const cell = (s: Spread, { unit, target }: Figure) => {
  const f = (v: number) => v.toFixed(unit === 'µs' ? 1 : 2);
  const mark = target === undefined ? '' : s.median <= target ? ' ✓' : ' ✗';
  return `**${f(s.median)}** (${f(s.min)}–${f(s.max)})${mark}`;
};

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function heading(report: Report): string {
  const { machine: m, source, settings: s } = report;
  const code = `${source.commit}${source.changed ? ' with uncommitted changes' : ''}`;
  const groups = loadGroups(report.servers, (x) => x.group).map((servers) =>
    servers.map((x) => x.name).join(', '),
  );
  const pinned = s.pin
    ? ', every server on CPU 1 (at saturation the servers of a group at once, for as many times ' +
      `as long as it has servers: ${groups.join('; then ')}; at the fixed rate one at a time), ` +
      'the driver on CPU 0'
    : '';
  return (
    `${report.complete ? 'Run' : 'INCOMPLETE run'} ${report.finishedAt.slice(0, 10)} (${report.mode}) ` +
    `of ${code} on ${m.cpus} × ${m.cpuModel}, Node ${m.node}: ${report.endpoints[0]?.rounds.length ?? 0} ` +
    `rounds of ${s.measure.durationS} s runs${pinned}.`
  );
}

/** The figures with a target, as the summary names them. */
const targets = FIGURES.flatMap(({ label, target }) =>
  target === undefined ? [] : [`${label} ${target.toFixed(2)}`],
).join(', ');

/** The figures: the table the bench README carries (`--write-readme`). */
export function renderSummary(report: Report): string {
  const rows = report.endpoints.flatMap((e) =>
    FIGURES.flatMap((figure) => {
      const [sat, fixed] = MODES.map((mode) => figureOf(e, figure, mode));
      if (!sat || !fixed) return [];
      return [[`\`${e.label}\``, figure.label, cell(sat, figure), cell(fixed, figure)]];
    }),
  );
  const rss = report.rss;
  const rssLine = rss
    ? `RSS per stored pet: **${rss.bytesPerPet} B** ${rss.bytesPerPet <= RSS_TARGET_BYTES ? '✓' : '✗'} ` +
      `(${n(rss.pets[0])} to ${n(rss.pets[1])} pets, ${rss.rssMb[0]} to ${rss.rssMb[1]} MiB after a full GC).`
    : 'RSS per stored pet: not measured.';
  return [
    heading(report),
    "CPU time per request of one server over another's (a ratio), or above another's (µs: " +
      "an app's own work above its framework's floor), each paired by round: median (min–max); " +
      `✓ at most the target (${targets}), ✗ above it.`,
    table(['endpoint', 'figure', 'at saturation', 'at a fixed rate'], rows),
    rssLine,
  ].join('\n\n');
}

/** Every server's medians: the rest of `results/latest.md`. */
function serverTable(report: Report): string {
  const rows = report.endpoints.flatMap((e) =>
    report.servers.flatMap(({ name }) => {
      const [sat, fixed] = MODES.map((mode) => medianRun(e, name, mode));
      if (!sat || !fixed) return [];
      return [
        [
          `\`${e.label}\``,
          name,
          n(sat.rps),
          sat.cpuUsPerRequest.toFixed(1),
          threadCell(sat),
          `${sat.p50Ms} / ${sat.p99Ms}`,
          `${sat.serverCores.toFixed(2)} / ${sat.driverCores.toFixed(2)}`,
          n(e.rate),
          fixed.cpuUsPerRequest.toFixed(1),
          `${fixed.p50Ms} / ${fixed.p99Ms}`,
          (report.peakRssMb[name] ?? 0).toFixed(0),
        ],
      ];
    }),
  );
  const header = [
    'endpoint',
    'server',
    'req/s',
    'CPU µs/req',
    'main / V8 helpers / workers / other',
    'p50 / p99 ms',
    'cores server / driver',
  ];
  header.push('fixed rate req/s', 'CPU µs/req', 'p50 / p99 ms', 'peak RSS MiB');
  return [
    "Medians over the rounds; first at saturation, then at the fixed rate. A server under 0.9 of its core at saturation was held back by the driver (the replay limit usually is). At saturation, the CPU µs per request is also split by the kind of thread that spent it: the main thread (JavaScript and the garbage collector's pauses), V8's helper threads (concurrent garbage collection and compilation), worker threads (the traced API's span exporter) and the rest.",
    table(header, rows),
  ].join('\n\n');
}

/** Writes the JSON report and, beside it, its tables in Markdown, which it returns. */
export function writeReport(path: string, report: Report): string {
  const markdown = `${renderSummary(report)}\n\n${serverTable(report)}\n`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${path.replace(/\.json$/, '')}.md`, markdown);
  return markdown;
}

export const README_BEGIN = '<!-- bench:begin -->';
export const README_END = '<!-- bench:end -->';

/** Replaces what stands between the bench markers of a README with `markdown`. */
export function updateReadme(path: string, markdown: string): void {
  const text = readFileSync(path, 'utf8');
  const [begin, end] = [text.indexOf(README_BEGIN), text.indexOf(README_END)];
  if (begin === -1 || end < begin) {
    throw new Error(`${path} has no ${README_BEGIN} … ${README_END} section to replace`);
  }
  const kept = text.slice(0, begin + README_BEGIN.length);
  writeFileSync(path, `${kept}\n${markdown}\n${text.slice(end)}`);
}
