import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { type ServerChild, type ServerKind, startServerChild } from './children.js';
import { type RunResult, saturate, steady } from './driver.js';
import { BENCH_API_KEY, type BenchRequest, ENDPOINTS, type EndpointId } from './scenario.js';
import type { ReplayAnswer } from './servers/protocol.js';
import { runLength, type Settings } from './settings.js';
import { round, type Spread, spread } from './stats.js';
import type { BenchStore } from './stores.js';
import { assertSame, type Captured, capture, verifyMatched } from './verify.js';

/** CPUs: the driver runs on the first, every server on the second (when pinning). */
export const DRIVER_CPU = 0;
export const SERVER_CPU = 1;

/** Pins this process (the driver) to its CPU; false when that is not possible here. */
export function pinDriver(): boolean {
  if (cpus().length < 2) return false;
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', String(DRIVER_CPU), String(process.pid)], {
    stdio: 'ignore',
  });
  return pinned.status === 0;
}

/** What one run is reduced to in the report (milliseconds, requests per second, cores). */
export interface RunSummary {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  serverCpu: number;
  /**
   * Server CPU time per response, in microseconds: what a request costs the server, which a busy
   * machine disturbs far less than it disturbs req/s.
   */
  cpuUsPerRequest: number;
  /** CPU used by other processes on the machine during the run, in cores. */
  otherCpu: number;
  /** CPU the driver used during the run, in cores. */
  driverCpu: number;
}

/** Medians over the rounds of one server. */
export type SideSummary = RunSummary;

export interface EndpointComparison {
  store: string;
  endpoint: EndpointId;
  label: string;
  pets: number;
  /** The load of the throughput runs (the fixed-rate runs use the same connections). */
  connections: number;
  pipelining: number;
  throughput: {
    /** API req/s over baseline req/s, paired by round. */
    ratio: Spread;
    /** API req/s over the replay limit's req/s, paired by round. */
    limitRatio: Spread;
    api: SideSummary;
    baseline: SideSummary;
    limit: SideSummary;
    rounds: {
      api: RunSummary;
      baseline: RunSummary;
      limit: RunSummary;
      ratio: number;
      limitRatio: number;
    }[];
  };
  fixedRate: {
    /** Requests per second: a fraction of the baseline's median throughput. */
    rate: number;
    api: SideSummary & { p999Ms: number };
    baseline: SideSummary & { p999Ms: number };
    /** API p99 over baseline p99 (medians over rounds). */
    p99Ratio: number;
  };
  peakRssMb: { api: number; baseline: number };
  /** Database commands per response during the throughput rounds, by name (MongoDB only). */
  commandsPerRequest: { api: Record<string, number>; baseline: Record<string, number> };
  /** Whether the peak covers only the measured load (false: it runs from start-up). */
  peakRssUnderLoadOnly: boolean;
}

export function summarise(run: RunResult): RunSummary {
  return {
    rps: Math.round(run.rps),
    p50Ms: round(run.latencyMs.p50, 3),
    p99Ms: round(run.latencyMs.p99, 3),
    serverCpu: round(run.serverCpu, 2),
    cpuUsPerRequest: round((run.serverCpu * 1e6) / run.rps, 1),
    otherCpu: round(run.otherCpu, 2),
    driverCpu: round(run.driverCpu, 2),
  };
}

/** Medians, field by field, over the rounds of one server. */
export function medianOf(runs: readonly RunSummary[]): SideSummary {
  const of = (pick: (r: RunSummary) => number) => spread(runs.map(pick)).median;
  return {
    rps: Math.round(of((r) => r.rps)),
    p50Ms: round(
      of((r) => r.p50Ms),
      3,
    ),
    p99Ms: round(
      of((r) => r.p99Ms),
      3,
    ),
    serverCpu: round(
      of((r) => r.serverCpu),
      2,
    ),
    cpuUsPerRequest: round(
      of((r) => r.cpuUsPerRequest),
      1,
    ),
    otherCpu: round(
      of((r) => r.otherCpu),
      2,
    ),
    driverCpu: round(
      of((r) => r.driverCpu),
      2,
    ),
  };
}

/** Starts a server child of any kind on the server CPU, its store seeded with `pets` pets. */
export function startChild(
  kind: ServerKind,
  store: BenchStore,
  database: string,
  pets: number,
  settings: Settings,
  profileDir?: string,
  replay?: ReplayAnswer[],
): Promise<ServerChild> {
  return startServerChild(
    kind,
    { store: store.spec(database), pets, apiKey: BENCH_API_KEY, replay },
    {
      cpu: settings.pin ? SERVER_CPU : undefined,
      cpuProfile:
        settings.cpuProf && profileDir
          ? { dir: profileDir, name: `${kind}-${database}-${Date.now()}` }
          : undefined,
      readyTimeoutMs: 20 * 60_000,
    },
  );
}

/** A/B, B/A, A/B …: each round flips the order, so drift (heat, caches) hits both sides alike. */
export function interleaved<T>(round: number, a: T, b: T): [T, T] {
  return round % 2 === 0 ? [a, b] : [b, a];
}

/** A, B, C / B, C, A / C, A, B …: each round starts with the next server. */
export function rotated<T>(round: number, servers: readonly T[]): T[] {
  const k = round % servers.length;
  return [...servers.slice(k), ...servers.slice(0, k)];
}

/** The API's answers as the replay server sends them again. */
function replayOf(requests: readonly BenchRequest[], answers: readonly Captured[]): ReplayAnswer[] {
  return requests.map((request, i) => {
    const answer = answers[i] as Captured;
    return {
      method: request.method,
      path: request.path,
      status: answer.status,
      headers: answer.headers,
      body: answer.body.toString('base64'),
    };
  });
}

export type Progress = (line: string) => void;

/** Commands sent between two counts, per response. */
function perRequest(
  before: Record<string, number>,
  after: Record<string, number>,
  responses: number,
): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const [name, count] of Object.entries(after)) {
    const sent = count - (before[name] ?? 0);
    if (sent > 0) rates[name] = round(sent / responses, 4);
  }
  return rates;
}

/**
 * The API against the baseline on one endpoint: verify the answers match, warm up, then
 * interleaved throughput rounds and interleaved fixed-rate latency rounds.
 */
export async function compareEndpoint(
  store: BenchStore,
  endpointId: EndpointId,
  settings: Settings,
  progress: Progress,
  profileDir?: string,
): Promise<EndpointComparison> {
  const endpoint = ENDPOINTS[endpointId];
  const requests = endpoint.requests(settings.pets);
  const tag = `${store.kind} ${endpoint.label}`;
  const start = (kind: 'api' | 'baseline', fresh = '') =>
    startChild(
      kind,
      store,
      `bench_${endpointId}_${kind === 'api' ? 'api' : 'base'}${fresh}`,
      settings.pets,
      settings,
      profileDir,
    );
  let api = await start('api');
  let baseline: ServerChild | undefined;
  let limit: ServerChild | undefined;
  try {
    baseline = await start('baseline');
    const answers = await verifyMatched(
      tag,
      api.origin,
      baseline.origin,
      requests,
      endpoint.expectStatus,
    );
    // The replay limit needs no store: an empty in-memory one.
    limit = await startServerChild(
      'limit',
      {
        store: { kind: 'memory' },
        pets: 0,
        apiKey: BENCH_API_KEY,
        replay: replayOf(requests, answers),
      },
      { cpu: settings.pin ? SERVER_CPU : undefined },
    );
    for (const [i, request] of requests.entries()) {
      const replayed = await capture(limit.origin, request);
      assertSame(`${tag} (replay limit)`, answers[i] as Captured, replayed, endpoint.expectStatus);
    }
    progress(`${tag}: responses match; warming up`);
    const underLoadOnly = api.resetPeakRss() && baseline.resetPeakRss();
    const load = {
      connections: settings.connections,
      pipelining: settings.pipelining,
      expectStatus: endpoint.expectStatus,
    };
    // Creates grow the store: every POST round starts both stores from the same seeded state,
    // after the same number of warm-up creates, so the ratio does not measure heap growth.
    const restartsPerRound = endpointId === 'create' && store.kind === 'memory';
    const warmUp = async (server: ServerChild) => {
      const length = runLength(settings, 'warmup');
      const fixed = restartsPerRound
        ? { ...length, amount: length.amount ?? settings.createWarmupRequests }
        : length;
      await saturate(server, requests, { ...load, ...fixed, warmup: true });
    };
    for (const server of [api, baseline, limit]) await warmUp(server);

    const commandsBefore = [await api.commands(), await baseline.commands()] as const;
    const rounds: EndpointComparison['throughput']['rounds'] = [];
    const answered = { api: 0, baseline: 0 };
    for (let r = 0; r < settings.rounds; r++) {
      if (restartsPerRound && r > 0) {
        await Promise.all([api.stop(), baseline.stop()]);
        [api, baseline] = await Promise.all([start('api', `_${r}`), start('baseline', `_${r}`)]);
        for (const server of [api, baseline]) await warmUp(server);
      }
      const results = new Map<ServerChild, RunSummary>();
      const order: ServerChild[] = rotated(r, [api, baseline, limit]);
      for (const server of order) {
        const run = await saturate(server, requests, {
          ...load,
          ...runLength(settings, 'measure'),
        });
        if (server === api) answered.api += run.requests;
        if (server === baseline) answered.baseline += run.requests;
        results.set(server, summarise(run));
      }
      const a = results.get(api) as RunSummary;
      const b = results.get(baseline) as RunSummary;
      const l = results.get(limit) as RunSummary;
      rounds.push({
        api: a,
        baseline: b,
        limit: l,
        ratio: round(a.rps / b.rps, 3),
        limitRatio: round(a.rps / l.rps, 3),
      });
      progress(
        `${tag}: round ${r + 1}/${settings.rounds}: API ${a.rps} req/s (${a.cpuUsPerRequest} µs CPU/req), ` +
          `baseline ${b.rps} req/s (${b.cpuUsPerRequest} µs), limit ${l.rps} req/s (${l.cpuUsPerRequest} µs), ` +
          `API/baseline ${round(a.rps / b.rps, 3)}, API/limit ${round(a.rps / l.rps, 3)}, ` +
          `driver ${Math.max(a.driverCpu, b.driverCpu)} cores, others ${Math.max(a.otherCpu, b.otherCpu)} cores`,
      );
    }
    const commandsPerRequest = {
      api: perRequest(commandsBefore[0], await api.commands(), answered.api),
      baseline: perRequest(commandsBefore[1], await baseline.commands(), answered.baseline),
    };
    const baselineSide = medianOf(rounds.map((r) => r.baseline));
    const rate = Math.max(1, Math.round(baselineSide.rps * settings.rateFraction));

    const steadyRuns = new Map<ServerChild, (RunSummary & { p999Ms: number })[]>([
      [api, []],
      [baseline, []],
    ]);
    const steadyBaseline = baseline;
    for (let r = 0; r < settings.latencyRounds; r++) {
      for (const server of interleaved(r, api, steadyBaseline)) {
        const run = await steady(server, requests, {
          rate,
          connections: settings.connections,
          ...runLength(settings, 'measure'),
          expectStatus: endpoint.expectStatus,
        });
        steadyRuns.get(server)?.push({ ...summarise(run), p999Ms: round(run.latencyMs.p999, 3) });
      }
    }
    const steadySide = (server: ServerChild) => {
      const runs = steadyRuns.get(server) ?? [];
      return { ...medianOf(runs), p999Ms: round(spread(runs.map((r) => r.p999Ms)).median, 3) };
    };
    const fixedApi = steadySide(api);
    const fixedBaseline = steadySide(baseline);
    progress(
      `${tag}: at ${rate} req/s p99 API ${fixedApi.p99Ms} ms, baseline ${fixedBaseline.p99Ms} ms`,
    );
    return {
      store: store.kind,
      endpoint: endpointId,
      label: endpoint.label,
      pets: settings.pets,
      connections: settings.connections,
      pipelining: settings.pipelining,
      throughput: {
        ratio: spread(rounds.map((r) => r.ratio)),
        limitRatio: spread(rounds.map((r) => r.limitRatio)),
        api: medianOf(rounds.map((r) => r.api)),
        baseline: baselineSide,
        limit: medianOf(rounds.map((r) => r.limit)),
        rounds,
      },
      fixedRate: {
        rate,
        api: fixedApi,
        baseline: fixedBaseline,
        p99Ratio: round(fixedApi.p99Ms / fixedBaseline.p99Ms, 3),
      },
      peakRssMb: { api: round(api.peakRssMb(), 1), baseline: round(baseline.peakRssMb(), 1) },
      peakRssUnderLoadOnly: underLoadOnly,
      commandsPerRequest,
    };
  } finally {
    await Promise.all([api.stop(), baseline?.stop(), limit?.stop()]);
  }
}
