import { type ServerChild, type ServerDef, startServerChild } from './children.js';
import { latencyQuantiles, medianOf, type RunSummary, saturate, steady } from './driver.js';
import { type BenchRequest, ENDPOINTS, type EndpointId } from './scenario.js';
import type { RunLength, Settings } from './settings.js';
import { round, Samples, type Spread, spread } from './stats.js';
import { assertSame, type Captured, capture } from './verify.js';

export type Progress = (line: string) => void;

type Servers = Record<string, ServerChild>;

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
    /** Every server's medians over the rounds, by name, in the lineup's order. */
    servers: Record<string, RunSummary>;
    /**
     * Each server's CPU time per request over the API's, paired by round: above 1, the API
     * costs less (for the Fastify peer, this is API/Fastify).
     */
    cpuOverApi: Record<string, Spread>;
    /** The API's req/s over each server's, paired by round. */
    rpsOverApi: Record<string, Spread>;
    rounds: Record<string, RunSummary>[];
  };
  /**
   * Each server but the API and the replay limit at saturation at once with the API, the two
   * alone on the server core: a slower spell of the machine slows both alike, and each has the
   * core half the time, as it would have a core of its own for itself and its threads.
   */
  pairs: {
    /** Each server's medians over its pairs, by name; the API's over all its pairs. */
    servers: Record<string, RunSummary>;
    /** The API's medians over the rounds in the pair with each server, by that server's name. */
    apiBeside: Record<string, RunSummary>;
    /** Each server's CPU time per request over the API's beside it, paired by round. */
    cpuOverApi: Record<string, Spread>;
    /** Each round's pairs, by the name of the server beside the API. */
    rounds: Record<string, Pair>[];
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
    /** Every server's medians but the replay limit's (all loaded together), by name. */
    servers: Record<string, RunSummary>;
    /** Each server's CPU time per request over the API's, paired by round (loaded together). */
    cpuOverApi: Record<string, Spread>;
    rounds: Record<string, RunSummary>[];
  };
  /** The highest of every process of each server of the endpoint (each round restarts them). */
  peakRssMb: { api: number; baseline: number } & Record<string, number>;
}

/** One run of the API and another server at saturation at once. */
export interface Pair {
  api: RunSummary;
  server: RunSummary;
}

/** A, B, C / B, C, A / C, A, B …: each round starts with the next server, so drift hits all alike. */
export function rotated<T>(round: number, servers: readonly T[]): T[] {
  const k = round % servers.length;
  return [...servers.slice(k), ...servers.slice(0, k)];
}

/**
 * Why `rounds` rounds of `servers` servers leave the rotation uneven, if they do. Only a multiple
 * of the servers puts each at every place in the order equally often; with fewer rounds, one
 * server is measured right after the warm-ups (or another's run) more often than the next, and a
 * ratio between two of them carries that difference.
 */
export function unevenRotation(rounds: number, servers: number): string | undefined {
  if (servers < 2 || rounds % servers === 0) return undefined;
  const even = Math.max(servers, Math.round(rounds / servers) * servers);
  return (
    `${rounds} rounds of ${servers} servers put them at uneven places in the rotation: ` +
    `--rounds ${even} puts each at every place equally often`
  );
}

/** Sends every request to `server`: each answer must be the API's (`assertSame`). */
async function verify(runs: Runs, answers: Captured[], def: ServerDef, server: ServerChild) {
  const name = def.name === 'limit' ? 'replay limit' : def.name;
  for (const [i, request] of runs.requests.entries()) {
    const other = { name, answer: await capture(server.origin, request) };
    const what = `${runs.label} (${request.method} ${request.path})`;
    assertSame(what, answers[i] as Captured, other, runs.expectStatus, def.verify);
  }
}

/** The load of every saturation run: the connections, the requests in flight on each. */
function saturationLoad({ settings, expectStatus }: Runs) {
  return { connections: settings.connections, pipelining: settings.pipelining, expectStatus };
}

/** `name`'s CPU time per request over the API's in each round: median, min–max. */
function cpuOverApi(rounds: readonly Record<string, RunSummary>[], name: string): Spread {
  const cpu = (r: Record<string, RunSummary>, server: string) =>
    (r[server] as RunSummary).cpuUsPerRequest;
  return spread(rounds.map((r) => cpu(r, name) / cpu(r, 'api')));
}

/** Runs `run` on every server of `names` at once; each one's summary by name. */
async function atOnce(
  names: readonly string[],
  run: (name: string) => Promise<RunSummary>,
): Promise<Record<string, RunSummary>> {
  const done = await Promise.all(names.map(run));
  return Object.fromEntries(names.map((name, i) => [name, done[i] as RunSummary]));
}

/** `f` of each of `names`, by name. */
const eachOf = <T>(names: readonly string[], f: (name: string) => T) =>
  Object.fromEntries(names.map((name) => [name, f(name)])) as Record<string, T>;

/** Each of `names`' medians over `rounds`, and its CPU per request over the API's, paired by round. */
function perServer(rounds: Record<string, RunSummary>[], names: readonly string[]) {
  return {
    servers: eachOf(names, (name) => medianOf(rounds.map((r) => r[name] as RunSummary))),
    cpuOverApi: eachOf(names, (name) => cpuOverApi(rounds, name)),
    rounds,
  };
}

/** Warms each of `servers` up at saturation: a fixed number of creates when the store grows. */
async function warmUp<K extends string>(
  runs: Runs,
  servers: Record<K, ServerChild>,
  grows: boolean,
) {
  const { settings, requests } = runs;
  const load = saturationLoad(runs);
  const warmup = { ...settings.warmup, warmup: true };
  if (grows) warmup.amount ??= settings.createWarmupRequests;
  for (const kind of Object.keys(servers) as K[]) {
    await saturate(servers[kind], requests, { ...load, ...warmup });
  }
}

/** Round `r` at saturation: each of `servers` in turn, starting with the `r`th (`rotated`). */
async function throughputRound<K extends string>(
  runs: Runs,
  servers: Record<K, ServerChild>,
  r: number,
  count: number,
): Promise<Record<K, RunSummary>> {
  const { settings, requests } = runs;
  const load = saturationLoad(runs);
  const kinds = Object.keys(servers) as K[];
  const round = {} as Record<K, RunSummary>;
  for (const kind of rotated(r, kinds)) {
    round[kind] = await saturate(servers[kind], requests, { ...load, ...settings.measure });
  }
  const show = kinds.map((kind) => `${kind} ${round[kind].rps} (${round[kind].cpuUsPerRequest})`);
  runs.progress(`${runs.label}: round ${r + 1}/${count}: req/s (CPU µs/req) ${show.join(', ')}`);
  return round;
}

/**
 * Round `r` at saturation in pairs: the API and each other server of `names` loaded at once, each
 * as hard as in its own run, one pair after the other from the `r`th on (`rotated`). The two share
 * the server core, so a slower spell of the machine, which moves one process's CPU time per request
 * by a third from one run to the next here, slows both alike: their CPU time per request compares
 * the servers rather than the moments each ran. Two at a time, each has the core half the time, as
 * it would have a core of its own: a crowd of processes on one core would charge a server with more
 * threads (a tracer's exporter, its V8 helpers) for the time slices it waits and the caches it
 * finds cold, which a core of its own does not.
 */
async function pairsRound(
  runs: Runs,
  servers: Servers,
  names: readonly string[],
  r: number,
): Promise<Record<string, Pair>> {
  const { settings, requests } = runs;
  const load = { ...saturationLoad(runs), ...settings.measure };
  const round: Record<string, Pair> = {};
  for (const name of rotated(r, names)) {
    const both = await atOnce(['api', name], (which) =>
      saturate(servers[which] as ServerChild, requests, load),
    );
    round[name] = { api: both.api as RunSummary, server: both[name] as RunSummary };
  }
  const show = names.map((name) => {
    const pair = round[name] as Pair;
    return `${name} ${pair.server.cpuUsPerRequest} / api ${pair.api.cpuUsPerRequest}`;
  });
  runs.progress(
    `${runs.label}: round ${r + 1}/${settings.rounds}, in pairs with the API at saturation: CPU µs/req ${show.join(', ')}`,
  );
  return round;
}

/** The pair rounds' figures: medians over the rounds, CPU ratios paired by round. */
function pairsSummary(
  rounds: Record<string, Pair>[],
  names: readonly string[],
): EndpointComparison['pairs'] {
  const pairs = (name: string) => rounds.map((r) => r[name] as Pair);
  return {
    servers: {
      api: medianOf(names.flatMap((name) => pairs(name).map((pair) => pair.api))),
      ...eachOf(names, (name) => medianOf(pairs(name).map((pair) => pair.server))),
    },
    apiBeside: eachOf(names, (name) => medianOf(pairs(name).map((pair) => pair.api))),
    cpuOverApi: eachOf(names, (name) =>
      spread(pairs(name).map((pair) => pair.server.cpuUsPerRequest / pair.api.cpuUsPerRequest)),
    ),
    rounds,
  };
}

/** Interleaved throughput rounds of the same `servers`, after one warm-up of each. */
export async function throughputRounds<K extends string>(
  runs: Runs,
  servers: Record<K, ServerChild>,
  count: number,
): Promise<Record<K, RunSummary>[]> {
  await warmUp(runs, servers, false);
  const rounds: Record<K, RunSummary>[] = [];
  for (let r = 0; r < count; r++) rounds.push(await throughputRound(runs, servers, r, count));
  return rounds;
}

/**
 * Every server but the replay limit at `rate` each, together, from one driver, after a warm-up
 * at that rate: a stall of the host delays all alike, so their p99s and their CPU time per request
 * compare the servers, not where the stalls fell. Every latency is also added to `pooled`: the
 * p99 weighs every stall of every round.
 */
async function fixedRateRound(
  runs: Runs,
  servers: Servers,
  names: readonly string[],
  rate: number,
  pooled: Record<string, Samples>,
  r: number,
): Promise<Record<string, RunSummary>> {
  const { settings, requests, expectStatus } = runs;
  const together = async (length: RunLength, pool?: Record<string, Samples>) => {
    const load = { rate, connections: settings.connections, expectStatus, ...length };
    return atOnce(names, (name) =>
      steady(servers[name] as ServerChild, requests, load, pool?.[name]),
    );
  };
  await together(settings.warmup);
  const done = await together(settings.measure, pooled);
  const at = (name: string) => done[name] as RunSummary;
  const show = names.map(
    (name) => `${name} ${at(name).p50Ms} / ${at(name).p99Ms} (${at(name).cpuUsPerRequest})`,
  );
  runs.progress(
    `${runs.label}: at ${rate} req/s each, round ${r + 1}/${settings.rounds}: p50 / p99 ms (CPU µs/req) ${show.join(', ')}`,
  );
  return done;
}

/** The fixed-rate rounds' figures: medians, pooled quantiles, ratios paired by round. */
function fixedRateSummary(
  rounds: Record<string, RunSummary>[],
  pooled: Record<string, Samples>,
  names: readonly string[],
  rate: number,
): EndpointComparison['fixedRate'] {
  const medians = perServer(rounds, names);
  /** Medians over the rounds, but the quantiles of all rounds' latencies together. */
  const all = Object.fromEntries(
    names.map((name) => [
      name,
      { ...medians.servers[name], ...latencyQuantiles(pooled[name] as Samples) } as RunSummary,
    ]),
  );
  const [api, baseline] = [all.api as RunSummary, all.baseline as RunSummary];
  return {
    ...medians,
    rate,
    api,
    baseline,
    p99Ratio: round(api.p99Ms / baseline.p99Ms, 3),
    cpuRatio: medians.cpuOverApi.baseline as Spread,
    servers: all,
  };
}

/**
 * One endpoint, every server of the lineup: verify that each answers as the API does, then
 * rounds, each of fresh processes: a warm-up of each, every server at saturation in turn, each
 * but the replay limit at saturation in a pair with the API, then all together at a fixed rate.
 */
export async function compareEndpoint(
  endpointId: EndpointId,
  settings: Settings,
  defs: readonly ServerDef[],
  progress: Progress,
): Promise<EndpointComparison> {
  const { label, expectStatus, requests } = ENDPOINTS[endpointId];
  const runs: Runs = { settings, requests: requests(settings.pets), expectStatus, label, progress };
  const byName = new Map(defs.map((def) => [def.name, def]));
  const def = (name: string) => byName.get(name) as ServerDef;
  const start = (name: string) => startServerChild(def(name), { pets: settings.pets }, settings);
  // Every server but the replay limit holds a store; the limit needs the API's answers first.
  const stored = defs.map((d) => d.name).filter((name) => name !== 'limit');
  const servers = {} as Servers;
  try {
    for (const name of stored) servers[name] = await start(name);
    const api = servers.api as ServerChild;
    const answers: Captured[] = [];
    for (const request of runs.requests) answers.push(await capture(api.origin, request));
    for (const name of stored.slice(1)) {
      await verify(runs, answers, def(name), servers[name] as ServerChild);
    }
    // The replay limit sends the API's own answers; it needs no store.
    const replay = runs.requests.map(({ method, path }, i) => {
      const { status, headers, body } = answers[i] as Captured;
      return { method, path, status, headers, body: body.toString('base64') };
    });
    const startLimit = () => startServerChild(def('limit'), { pets: 0, replay }, settings);
    servers.limit = await startLimit();
    await verify(runs, answers, def('limit'), servers.limit);
    progress(`${label}: responses match; warming up`);
    const peakRssMb: Record<string, number> = {};
    const notePeaks = () => {
      for (const [name, server] of Object.entries(servers)) {
        peakRssMb[name] = Math.max(peakRssMb[name] ?? 0, round(server.peakRssMb(), 1));
      }
    };
    const restart = async () => {
      notePeaks();
      await Promise.all(Object.values(servers).map((server) => server.stop()));
      const started = await Promise.all([...stored.map(start), startLimit()]);
      for (const [i, name] of [...stored, 'limit'].entries()) {
        servers[name] = started[i] as ServerChild;
      }
    };
    // In the lineup's order (the API, the baseline, the Fastify peer, the limit, variants).
    const ordered = () =>
      Object.fromEntries(defs.map((d) => [d.name, servers[d.name] as ServerChild])) as Servers;
    const names = defs.map((d) => d.name);
    // Every server but the limit in the pairs and at a fixed rate (its pace is the driver's).
    const loaded = names.filter((name) => name !== 'limit');
    const paired = loaded.filter((name) => name !== 'api');
    const rounds: Record<string, RunSummary>[] = [];
    const pairRounds: Record<string, Pair>[] = [];
    const fixedRounds: Record<string, RunSummary>[] = [];
    const pooled = Object.fromEntries(loaded.map((name) => [name, new Samples()]));
    let rate = 0;
    for (let r = 0; r < settings.rounds; r++) {
      // Each round is fresh processes from the same seeded state: how V8 compiled a server's
      // code differs from one process to the next, and a ratio of one process each would carry
      // that. Creates also grow the store; every warm-up is the same number of them.
      if (r > 0) {
        await restart();
        progress(`${label}: round ${r + 1}/${settings.rounds}: every server restarted`);
      }
      await warmUp(runs, ordered(), endpointId === 'create');
      const round = await throughputRound(runs, ordered(), r, settings.rounds);
      rounds.push(round);
      if (r === 0) {
        // Each gets its share of `rateFraction` × 2 (the core's load of two servers at a
        // sixteenth each) of the slowest one's throughput in the first round.
        const slower = Math.min(...loaded.map((name) => round[name]?.rps ?? 0));
        const share = (settings.rateFraction * 2) / loaded.length;
        rate = Math.max(1, Math.round(slower * share));
      }
      pairRounds.push(await pairsRound(runs, servers, paired, r));
      fixedRounds.push(await fixedRateRound(runs, servers, loaded, rate, pooled, r));
    }
    const at = (r: Record<string, RunSummary>, name: string) => r[name] as RunSummary;
    const rpsOverApi = (name: string) =>
      spread(rounds.map((r) => at(r, 'api').rps / at(r, name).rps));
    const medians = perServer(rounds, names);
    const throughput = {
      ...medians,
      ratio: rpsOverApi('baseline'),
      limitRatio: rpsOverApi('limit'),
      api: medians.servers.api as RunSummary,
      baseline: medians.servers.baseline as RunSummary,
      limit: medians.servers.limit as RunSummary,
      rpsOverApi: eachOf(names, rpsOverApi),
    };
    const pairs = pairsSummary(pairRounds, paired);
    const fixedRate = fixedRateSummary(fixedRounds, pooled, loaded, rate);
    notePeaks();
    return {
      endpoint: endpointId,
      label,
      pets: settings.pets,
      throughput,
      pairs,
      fixedRate,
      peakRssMb: { api: 0, baseline: 0, ...peakRssMb },
    };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}
