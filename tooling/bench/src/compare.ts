import { type ServerChild, type ServerKind, startServerChild } from './children.js';
import { latencyQuantiles, medianOf, type RunSummary, saturate, steady } from './driver.js';
import { type BenchRequest, ENDPOINTS, type EndpointId } from './scenario.js';
import type { RunLength, Settings } from './settings.js';
import { round, Samples, type Spread, spread } from './stats.js';
import { assertSame, type Captured, capture } from './verify.js';

export type Progress = (line: string) => void;

type Side = 'api' | 'baseline';
type Servers = Record<ServerKind, ServerChild>;

/** One endpoint's runs: what every step needs. */
export interface Runs {
  settings: Settings;
  requests: BenchRequest[];
  expectStatus: number;
  label: string;
  progress: Progress;
}

export interface EndpointComparison {
  endpoint: EndpointId;
  label: string;
  pets: number;
  throughput: {
    /** API req/s over the baseline's, and over the replay limit's, paired by round. */
    ratio: Spread;
    limitRatio: Spread;
    /** Medians over the rounds. */
    api: RunSummary;
    baseline: RunSummary;
    limit: RunSummary;
    rounds: Record<ServerKind, RunSummary>[];
  };
  fixedRate: {
    /** Requests per second to each server: `rateFraction` of the slower one's throughput. */
    rate: number;
    /** Medians over the rounds, but p50, p99 and p99.9 of all rounds' latencies together. */
    api: RunSummary;
    baseline: RunSummary;
    p99Ratio: number;
    /** Baseline CPU per request over the API's, paired by round (both loaded together). */
    cpuRatio: Spread;
    rounds: Record<Side, RunSummary>[];
  };
  /** The highest of every API and baseline process of the endpoint (POST restarts them). */
  peakRssMb: { api: number; baseline: number };
}

/** A, B, C / B, C, A / C, A, B …: each round starts with the next server, so drift hits all alike. */
function rotated<T>(round: number, servers: readonly T[]): T[] {
  const k = round % servers.length;
  return [...servers.slice(k), ...servers.slice(0, k)];
}

/** Sends every request to `server`: each answer must be the API's (`assertSame`). */
async function verify(runs: Runs, answers: Captured[], name: string, server: ServerChild) {
  for (const [i, request] of runs.requests.entries()) {
    const other = { name, answer: await capture(server.origin, request) };
    const what = `${runs.label} (${request.method} ${request.path})`;
    assertSame(what, answers[i] as Captured, other, runs.expectStatus);
  }
}

/**
 * Interleaved throughput rounds of `servers`, after a warm-up of each. Creates grow the store:
 * with `restart` (POST), every round after the first restarts the servers from the same seeded
 * state, and every warm-up is the same number of creates, so a ratio does not measure heap growth.
 */
export async function throughputRounds<K extends ServerKind>(
  runs: Runs,
  servers: Record<K, ServerChild>,
  count: number,
  restart?: () => Promise<void>,
): Promise<Record<K, RunSummary>[]> {
  const { settings, requests, expectStatus } = runs;
  const load = { connections: settings.connections, pipelining: settings.pipelining, expectStatus };
  const kinds = Object.keys(servers) as K[];
  const warmup = { ...settings.warmup, warmup: true };
  if (restart) warmup.amount ??= settings.createWarmupRequests;
  const rounds: Record<K, RunSummary>[] = [];
  for (let r = 0; r < count; r++) {
    if (restart && r > 0) await restart();
    if (restart || r === 0) {
      for (const kind of kinds) await saturate(servers[kind], requests, { ...load, ...warmup });
    }
    const round = {} as Record<K, RunSummary>;
    for (const kind of rotated(r, kinds)) {
      round[kind] = await saturate(servers[kind], requests, { ...load, ...settings.measure });
    }
    rounds.push(round);
    const show = kinds.map((kind) => `${kind} ${round[kind].rps} (${round[kind].cpuUsPerRequest})`);
    runs.progress(`${runs.label}: round ${r + 1}/${count}: req/s (CPU µs/req) ${show.join(', ')}`);
  }
  return rounds;
}

/**
 * The API and the baseline at `rate` each, together, from one driver: a stall of the host delays
 * both alike, so their p99s compare the servers, not where the stalls fell. Latencies are pooled
 * over the rounds: the p99 weighs every stall of every round.
 */
async function fixedRateRounds(
  runs: Runs,
  servers: Servers,
  rate: number,
): Promise<EndpointComparison['fixedRate']> {
  const { settings, requests, expectStatus } = runs;
  const pooled = { api: new Samples(), baseline: new Samples() };
  const together = async (length: RunLength, pool?: Record<Side, Samples>) => {
    const load = { rate, connections: settings.connections, expectStatus, ...length };
    const run = (side: Side) => steady(servers[side], requests, load, pool?.[side]);
    const [api, baseline] = await Promise.all([run('api'), run('baseline')]);
    return { api, baseline };
  };
  await together(settings.warmup);
  const rounds: Record<Side, RunSummary>[] = [];
  for (let r = 0; r < settings.rounds; r++) {
    const { api: a, baseline: b } = await together(settings.measure, pooled);
    rounds.push({ api: a, baseline: b });
    runs.progress(
      `${runs.label}: at ${rate} req/s each, round ${r + 1}/${settings.rounds}: p50 / p99 ms ` +
        `API ${a.p50Ms} / ${a.p99Ms}, baseline ${b.p50Ms} / ${b.p99Ms}`,
    );
  }
  /** Medians over the rounds, but the quantiles of all rounds' latencies together. */
  const summary = (side: Side): RunSummary => ({
    ...medianOf(rounds.map((r) => r[side])),
    ...latencyQuantiles(pooled[side]),
  });
  const [api, baseline] = [summary('api'), summary('baseline')];
  return {
    rate,
    api,
    baseline,
    p99Ratio: round(api.p99Ms / baseline.p99Ms, 3),
    cpuRatio: spread(rounds.map((r) => r.baseline.cpuUsPerRequest / r.api.cpuUsPerRequest)),
    rounds,
  };
}

/**
 * One endpoint, three servers: verify that the baseline and the replay limit answer as the API
 * does, then interleaved throughput rounds, then fixed-rate rounds of the API and the baseline.
 */
export async function compareEndpoint(
  endpointId: EndpointId,
  settings: Settings,
  progress: Progress,
): Promise<EndpointComparison> {
  const { label, expectStatus, requests } = ENDPOINTS[endpointId];
  const runs: Runs = { settings, requests: requests(settings.pets), expectStatus, label, progress };
  const start = (kind: ServerKind) => startServerChild(kind, { pets: settings.pets }, settings);
  const servers = {} as Servers;
  try {
    servers.api = await start('api');
    servers.baseline = await start('baseline');
    const answers: Captured[] = [];
    for (const request of runs.requests) answers.push(await capture(servers.api.origin, request));
    await verify(runs, answers, 'baseline', servers.baseline);
    // The replay limit sends the API's own answers; it needs no store.
    const replay = runs.requests.map(({ method, path }, i) => {
      const { status, headers, body } = answers[i] as Captured;
      return { method, path, status, headers, body: body.toString('base64') };
    });
    servers.limit = await startServerChild('limit', { pets: 0, replay }, settings);
    await verify(runs, answers, 'replay limit', servers.limit);
    progress(`${label}: responses match; warming up`);
    const peakRssMb = { api: 0, baseline: 0 };
    const notePeaks = () => {
      for (const side of ['api', 'baseline'] as const) {
        peakRssMb[side] = Math.max(peakRssMb[side], round(servers[side].peakRssMb(), 1));
      }
    };
    const restart = async () => {
      notePeaks();
      await Promise.all([servers.api.stop(), servers.baseline.stop()]);
      [servers.api, servers.baseline] = await Promise.all([start('api'), start('baseline')]);
    };
    const rounds = await throughputRounds(
      runs,
      servers,
      settings.rounds,
      endpointId === 'create' ? restart : undefined,
    );
    const median = (kind: ServerKind) => medianOf(rounds.map((r) => r[kind]));
    const throughput = {
      ratio: spread(rounds.map((r) => r.api.rps / r.baseline.rps)),
      limitRatio: spread(rounds.map((r) => r.api.rps / r.limit.rps)),
      api: median('api'),
      baseline: median('baseline'),
      limit: median('limit'),
      rounds,
    };
    const slower = Math.min(throughput.api.rps, throughput.baseline.rps);
    const rate = Math.max(1, Math.round(slower * settings.rateFraction));
    const fixedRate = await fixedRateRounds(runs, servers, rate);
    notePeaks();
    return {
      endpoint: endpointId,
      label,
      pets: settings.pets,
      throughput,
      fixedRate,
      peakRssMb,
    };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}
