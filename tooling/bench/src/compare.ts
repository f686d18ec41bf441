import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { type ServerChild, type ServerKind, startServerChild } from './children.js';
import { medianOf, type RunSummary, saturate, steady } from './driver.js';
import { BENCH_API_KEY, ENDPOINTS, type EndpointId } from './scenario.js';
import type { ServerSpec } from './servers/protocol.js';
import { runLength, type Settings } from './settings.js';
import { round, Samples, type Spread, spread } from './stats.js';
import { assertSame, type Captured, capture } from './verify.js';

/** When pinning, the driver runs on CPU 0 and every server on CPU 1. */
const DRIVER_CPU = 0;
const SERVER_CPU = 1;

/** Pins this process (the driver) to its CPU; false when that is not possible here. */
export function pinDriver(): boolean {
  if (cpus().length < 2) return false;
  const args = ['-a', '-p', '-c', String(DRIVER_CPU), String(process.pid)];
  return spawnSync('taskset', args, { stdio: 'ignore' }).status === 0;
}

export type Progress = (line: string) => void;

export interface EndpointComparison {
  endpoint: EndpointId;
  label: string;
  pets: number;
  /** The load of the throughput runs (the fixed-rate runs use the same connections). */
  connections: number;
  pipelining: number;
  throughput: {
    /** API req/s over the baseline's, and over the replay limit's, paired by round. */
    ratio: Spread;
    limitRatio: Spread;
    /** Medians over the rounds. */
    api: RunSummary;
    baseline: RunSummary;
    limit: RunSummary;
    rounds: { api: RunSummary; baseline: RunSummary; limit: RunSummary }[];
  };
  fixedRate: {
    /** Requests per second to each server: `rateFraction` of the slower one's median throughput. */
    rate: number;
    /**
     * Medians over the rounds, but for p50, p99 and p99.9 (those of all rounds' latencies) and the
     * driver's longest stall (of all rounds).
     */
    api: RunSummary;
    baseline: RunSummary;
    /** API p99 over the baseline's (latencies pooled over the rounds). */
    p99Ratio: number;
    /**
     * Baseline CPU per request over the API's, paired by round: loaded together, both see the
     * same machine, so this moves far less between runs than the throughput ratio.
     */
    cpuRatio: Spread;
    rounds: { api: RunSummary; baseline: RunSummary }[];
  };
  peakRssMb: { api: number; baseline: number };
  /** Whether the peak covers only the measured load (false: it runs from start-up). */
  peakRssUnderLoadOnly: boolean;
}

/** Starts a server child on the server CPU, its store seeded with `pets` pets. */
export function startChild(
  kind: ServerKind,
  spec: Omit<ServerSpec, 'apiKey'>,
  settings: Settings,
  profileDir?: string,
): Promise<ServerChild> {
  return startServerChild(
    kind,
    { ...spec, apiKey: BENCH_API_KEY },
    {
      cpu: settings.pin ? SERVER_CPU : undefined,
      cpuProfile:
        settings.cpuProf && profileDir && kind !== 'limit'
          ? { dir: profileDir, name: `${kind}-${Date.now()}` }
          : undefined,
    },
  );
}

/** A, B, C / B, C, A / C, A, B …: each round starts with the next server, so drift hits all alike. */
export function rotated<T>(round: number, servers: readonly T[]): T[] {
  const k = round % servers.length;
  return [...servers.slice(k), ...servers.slice(0, k)];
}

/**
 * One endpoint, three servers: verify that the baseline and the replay limit answer as the API
 * does, warm up, then interleaved throughput rounds, then fixed-rate rounds of the API and the
 * baseline loaded together.
 */
export async function compareEndpoint(
  endpointId: EndpointId,
  settings: Settings,
  progress: Progress,
  profileDir?: string,
): Promise<EndpointComparison> {
  const endpoint = ENDPOINTS[endpointId];
  const requests = endpoint.requests(settings.pets);
  const { expectStatus } = endpoint;
  const tag = endpoint.label;
  const start = (kind: 'api' | 'baseline') =>
    startChild(
      kind,
      { pets: settings.pets },
      settings,
      profileDir && `${profileDir}/${endpointId}`,
    );
  let api = await start('api');
  let baseline: ServerChild | undefined;
  let limit: ServerChild | undefined;
  try {
    baseline = await start('baseline');
    const answers: Captured[] = [];
    for (const request of requests) answers.push(await capture(api.origin, request));
    const verify = async (name: string, server: ServerChild) => {
      for (const [i, request] of requests.entries()) {
        const other = { name, answer: await capture(server.origin, request) };
        const what = `${tag} (${request.method} ${request.path})`;
        assertSame(what, answers[i] as Captured, other, expectStatus);
      }
    };
    await verify('baseline', baseline);
    // The replay limit sends the API's own answers; it needs no store.
    const replay = requests.map((r, i) => {
      const { status, headers, body } = answers[i] as Captured;
      return { method: r.method, path: r.path, status, headers, body: body.toString('base64') };
    });
    limit = await startChild('limit', { pets: 0, replay }, settings);
    await verify('replay limit', limit);
    progress(`${tag}: responses match; warming up`);
    const underLoadOnly = api.resetPeakRss() && baseline.resetPeakRss();
    const load = {
      connections: settings.connections,
      pipelining: settings.pipelining,
      expectStatus,
    };
    // Creates grow the store: every POST round starts the API and the baseline from the same
    // seeded state, after the same number of warm-up creates, so the ratio does not measure
    // heap growth.
    const restarts = endpointId === 'create';
    const warmUp = async (server: ServerChild) => {
      const length = runLength(settings, 'warmup');
      const amount = restarts ? { amount: length.amount ?? settings.createWarmupRequests } : {};
      await saturate(server, requests, { ...load, ...length, ...amount, warmup: true });
    };
    for (const server of [api, baseline, limit]) await warmUp(server);

    const rounds: EndpointComparison['throughput']['rounds'] = [];
    for (let r = 0; r < settings.rounds; r++) {
      if (restarts && r > 0) {
        await Promise.all([api.stop(), baseline.stop()]);
        [api, baseline] = await Promise.all([start('api'), start('baseline')]);
        for (const server of [api, baseline]) await warmUp(server);
      }
      const runs = new Map<ServerChild, RunSummary>();
      for (const server of rotated(r, [api, baseline, limit])) {
        runs.set(
          server,
          await saturate(server, requests, { ...load, ...runLength(settings, 'measure') }),
        );
      }
      const got = (server: ServerChild) => runs.get(server) as RunSummary;
      const [a, b, l] = [got(api), got(baseline), got(limit)];
      rounds.push({ api: a, baseline: b, limit: l });
      const show = (s: RunSummary) => `${s.rps} (${s.cpuUsPerRequest})`;
      progress(
        `${tag}: round ${r + 1}/${settings.rounds}: req/s (CPU µs/req) API ${show(a)}, baseline ${show(b)}, ` +
          `limit ${show(l)}; driver ${a.driverCpu} cores, others ${a.otherCpu} cores`,
      );
    }
    const [apiSide, baselineSide] = [
      medianOf(rounds.map((r) => r.api)),
      medianOf(rounds.map((r) => r.baseline)),
    ];
    // The API and the baseline take the fixed rate at the same time, from the same driver: a
    // stall of the machine (tens of milliseconds, now and then, on a shared host) delays both
    // alike, so their p99s compare the servers, not where the stalls fell. The rate is low
    // enough for both together without pipelining (`rateFraction`), so the latency is what a
    // request costs, not the queue of a busy core.
    const rate = Math.max(
      1,
      Math.round(Math.min(apiSide.rps, baselineSide.rps) * settings.rateFraction),
    );
    const pair = [api, baseline];
    const together = (length: ReturnType<typeof runLength>, pool?: Map<ServerChild, Samples>) =>
      Promise.all(
        pair.map((server) =>
          steady(
            server,
            requests,
            { rate, connections: settings.connections, expectStatus, ...length, beside: pair },
            pool?.get(server),
          ),
        ),
      );
    await together(runLength(settings, 'warmup'));
    // Latencies are pooled over the rounds: the p99 weighs every stall of every round.
    const pooled = new Map(pair.map((server) => [server, new Samples()]));
    const fixedRounds: EndpointComparison['fixedRate']['rounds'] = [];
    for (let r = 0; r < settings.latencyRounds; r++) {
      const [a, b] = (await together(runLength(settings, 'measure'), pooled)) as [
        RunSummary,
        RunSummary,
      ];
      fixedRounds.push({ api: a, baseline: b });
      progress(
        `${tag}: at ${rate} req/s each, round ${r + 1}/${settings.latencyRounds}: p50 / p99 ms API ` +
          `${a.p50Ms} / ${a.p99Ms}, baseline ${b.p50Ms} / ${b.p99Ms}; driver stalled up to ${a.driverStallMs} ms`,
      );
    }
    /** Medians over the rounds, but the pooled quantiles and the longest stall of all rounds. */
    const fixedSide = (server: ServerChild, side: 'api' | 'baseline'): RunSummary => {
      const [p50Ms, p99Ms, p999Ms] = (pooled.get(server) as Samples)
        .quantiles(0.5, 0.99, 0.999)
        .map((ms) => round(ms, 3)) as [number, number, number];
      const runs = fixedRounds.map((r) => r[side]);
      const driverStallMs = Math.max(...runs.map((run) => run.driverStallMs));
      return { ...medianOf(runs), p50Ms, p99Ms, p999Ms, driverStallMs };
    };
    const [fixedApi, fixedBaseline] = [fixedSide(api, 'api'), fixedSide(baseline, 'baseline')];
    return {
      endpoint: endpointId,
      label: endpoint.label,
      pets: settings.pets,
      connections: settings.connections,
      pipelining: settings.pipelining,
      throughput: {
        ratio: spread(rounds.map((r) => r.api.rps / r.baseline.rps)),
        limitRatio: spread(rounds.map((r) => r.api.rps / r.limit.rps)),
        api: apiSide,
        baseline: baselineSide,
        limit: medianOf(rounds.map((r) => r.limit)),
        rounds,
      },
      fixedRate: {
        rate,
        api: fixedApi,
        baseline: fixedBaseline,
        p99Ratio: round(fixedApi.p99Ms / fixedBaseline.p99Ms, 3),
        cpuRatio: spread(
          fixedRounds.map((r) => r.baseline.cpuUsPerRequest / r.api.cpuUsPerRequest),
        ),
        rounds: fixedRounds,
      },
      peakRssMb: { api: round(api.peakRssMb(), 1), baseline: round(baseline.peakRssMb(), 1) },
      peakRssUnderLoadOnly: underLoadOnly,
    };
  } finally {
    await Promise.all([api.stop(), baseline?.stop(), limit?.stop()]);
  }
}
