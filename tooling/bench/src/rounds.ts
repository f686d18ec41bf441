import { fixedRate, type RunSummary, saturate } from './load.js';
import { loadGroups } from './load-groups.js';
import type { ReplayAnswer } from './peers/replay-answers.js';
import { type BenchRequest, ENDPOINTS, type EndpointId } from './scenario.js';
import { type ServerChild, type ServerDef, seed, startServer } from './servers.js';
import type { RunLength, Settings } from './settings.js';
import { assertSame, type Captured, capture } from './verify.js';

/** One server's runs of one endpoint in one round. */
export interface ServerRuns {
  saturation: RunSummary;
  fixedRate: RunSummary;
}

/** One endpoint's runs: every round's, by server name. */
export interface EndpointRuns {
  endpoint: EndpointId;
  label: string;
  /** The fixed rate, req/s: `rateFraction` of the API's req/s at saturation in the first round. */
  rate: number;
  rounds: Record<string, ServerRuns>[];
}

/** A, B, C / B, C, A / C, A, B …: each round starts with the next server, so drift hits all alike. */
export function rotated<T>(round: number, items: readonly T[]): T[] {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

type Requests = Record<EndpointId, BenchRequest[]>;

/** A server of a round, started, and its answers checked. */
interface Started {
  def: ServerDef;
  server: ServerChild;
}

/**
 * Every round: a fresh process of each server (`rotated`), all on the server core, each with its
 * pets created over HTTP and its answers checked against the API's; then, for each endpoint, the
 * servers of each group (`ServerDef.group`) warmed up and run at saturation at the same time
 * (`together`), one group after the other, then each server alone at the fixed rate. Before
 * any run, every server is warmed up on the read endpoints, the tracing group's again for as long
 * as its traced API needs to record `recordedWarmup` requests of each (`warmTracing`). `onRound`
 * sees the runs after every round.
 */
export async function runRounds(
  settings: Settings,
  defs: readonly ServerDef[],
  progress: (line: string) => void,
  onRound: (runs: EndpointRuns[], peakRssMb: Record<string, number>) => void,
): Promise<void> {
  const requests = Object.fromEntries(
    settings.endpoints.map((id) => [id, ENDPOINTS[id].requests(settings.pets)]),
  ) as Requests;
  // The API's answers, from its first process (the first server of the first round).
  let answers: Record<EndpointId, Captured[]> | undefined;
  const replay = (): ReplayAnswer[] =>
    settings.endpoints.flatMap((id) =>
      requests[id].map(({ method, path }, i) => {
        const { status, headers, body } = answers?.[id][i] as Captured;
        return { method, path, status, headers, body: body.toString('base64') };
      }),
    );
  const runs: EndpointRuns[] = settings.endpoints.map((id) => {
    return { endpoint: id, label: ENDPOINTS[id].label, rate: 0, rounds: [] };
  });
  const peakRssMb: Record<string, number> = {};
  for (let r = 0; r < settings.rounds; r++) {
    const started: Started[] = [];
    try {
      for (const def of rotated(r, defs)) {
        // The replaying servers need the API's answers: the API starts first in the first round.
        const env: Record<string, string> = def.stores ? {} : { REPLAY: JSON.stringify(replay()) };
        const server = await startServer(def, settings, env);
        started.push({ def, server });
        if (def.stores) await seed(server.origin, 1, settings.pets);
        const got = await captureAll(server, settings.endpoints, requests);
        answers ??= got;
        for (const id of settings.endpoints) {
          const { expectStatus, label } = ENDPOINTS[id];
          for (const [i, api] of answers[id].entries()) {
            const other = { name: def.name, answer: got[id][i] as Captured };
            const what = `${label} (${requests[id][i]?.path})`;
            assertSame(what, api, other, expectStatus, def.match);
          }
        }
      }
      await warmReads(settings, started, requests);
      await warmTracing(settings, started, requests);
      for (const endpoint of runs) {
        const results = await runEndpoint(settings, started, endpoint, requests[endpoint.endpoint]);
        for (const [i, { def }] of started.entries()) {
          const result = results[i] as ServerRuns;
          endpoint.rounds[r] = { ...endpoint.rounds[r], [def.name]: result };
          const { saturation: s, fixedRate: f } = result;
          progress(
            `round ${r + 1}/${settings.rounds} ${def.name} ${endpoint.label}: ` +
              `${s.rps} req/s at ${s.cpuUsPerRequest} µs/req; at ${endpoint.rate} req/s ` +
              `${f.cpuUsPerRequest} µs/req, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
          );
        }
      }
      for (const { def, server } of started) {
        peakRssMb[def.name] = Math.max(peakRssMb[def.name] ?? 0, server.rssMb('VmHWM'));
      }
    } finally {
      await Promise.all(started.map(({ server }) => server.stop()));
    }
    onRound(runs, peakRssMb);
  }
}

/** `server`'s answers to every request of `endpoints`. */
async function captureAll(server: ServerChild, endpoints: EndpointId[], requests: Requests) {
  const answers = {} as Record<EndpointId, Captured[]>;
  for (const id of endpoints) {
    answers[id] = [];
    for (const request of requests[id]) answers[id].push(await capture(server.origin, request));
  }
  return answers;
}

/**
 * A run of the same length on `servers` servers at once, all on the server core: the kernel gives
 * each an equal share of it, so each gets the CPU time it would have alone in a run `servers`
 * times shorter. Runs measured together meet the same machine: on a shared host, the speed of a
 * core changes from one second to the next, and runs taken one after another would differ by
 * that as much as by their servers. A smoke run counts requests, which need no stretching.
 */
export function together(length: RunLength, servers: number): RunLength {
  const times = stretch(length, servers);
  return times === 1 ? length : { durationS: length.durationS * times };
}

/** How many times longer a run of `length` lasts with `servers` at once (`together`). */
function stretch(length: RunLength, servers: number): number {
  return length.amount === undefined ? servers : 1;
}

/**
 * A warm-up of endpoint `id` on every server at once, nothing measured: the warm-up's length
 * unless `length` is given. Creates grow the store: every server gets the same number of them
 * before its runs.
 */
async function warmUp(
  settings: Settings,
  started: readonly Started[],
  id: EndpointId,
  requests: BenchRequest[],
  length: RunLength = id === 'create'
    ? { ...settings.warmup, amount: settings.createWarmup }
    : together(settings.warmup, started.length),
): Promise<void> {
  const { connections, pipelining } = settings;
  const { expectStatus } = ENDPOINTS[id];
  const load = { connections, pipelining, expectStatus, ...length };
  await Promise.all(started.map(({ server }) => saturate(server, requests, load)));
}

/**
 * A warm-up on each read endpoint, before any is measured: a fresh process is still compiling
 * its hot paths, and the first endpoint measured would pay for the code every endpoint shares
 * (the creates are warmed up just before their run).
 */
async function warmReads(
  settings: Settings,
  started: readonly Started[],
  requests: Requests,
  length?: RunLength,
) {
  for (const id of settings.endpoints) {
    if (id !== 'create') await warmUp(settings, started, id, requests[id], length);
  }
}

/**
 * A second warm-up on each read endpoint, for the tracing group's servers at once: each answers
 * enough requests that the traced API records `recordedWarmup` of them. Code that only a recorded
 * request runs is compiled only after as many runs as the code every request runs, and a
 * warm-up of seconds gives it a few hundred at a ratio of 1%: the traced API's figures would be
 * the cost of compiling its spans' code, which a process in service pays once.
 */
async function warmTracing(settings: Settings, started: readonly Started[], requests: Requests) {
  const amount = tracingWarmupRequests(settings);
  if (amount === 0) return;
  const group = started.filter(({ def }) => def.group === 'tracing');
  await warmReads(settings, group, requests, { durationS: 1, amount });
}

/**
 * How many requests of each read endpoint a tracing server answers in `warmTracing`: enough for
 * the traced API to record `recordedWarmup` of them at its ratio, and no fewer than autocannon
 * needs to end a run by count (`connections` × `pipelining`).
 */
export function tracingWarmupRequests(
  settings: Pick<Settings, 'tracing' | 'recordedWarmup' | 'connections' | 'pipelining'>,
): number {
  if (settings.tracing === undefined) return 0;
  const recorded = Math.ceil(settings.recordedWarmup / settings.tracing);
  return Math.max(recorded, settings.connections * settings.pipelining);
}

/**
 * One endpoint on every server: for each load group, a warm-up and a run at saturation (the
 * group's servers at once, so that each figure's servers meet the same machine, and no more of
 * them than that, as each more shares the core's caches too); then a run at the fixed rate on
 * each server alone, so that its latency is its own. The runs come back in `started`'s order.
 */
async function runEndpoint(
  settings: Settings,
  started: readonly Started[],
  endpoint: EndpointRuns,
  requests: BenchRequest[],
): Promise<ServerRuns[]> {
  const { expectStatus } = ENDPOINTS[endpoint.endpoint];
  const load = { connections: settings.connections, expectStatus };
  const saturation = new Map<Started, RunSummary>();
  for (const group of loadGroups(started, ({ def }) => def.group)) {
    const saturated = {
      ...load,
      pipelining: settings.pipelining,
      ...together(settings.measure, group.length),
    };
    await warmUp(settings, group, endpoint.endpoint, requests);
    const runs = await Promise.all(
      group.map(({ server }) => saturate(server, requests, saturated)),
    );
    for (const [i, one] of group.entries()) saturation.set(one, runs[i] as RunSummary);
    // The API runs in every round: its req/s at saturation in the first round sets the rate for
    // every server. In its group it had a share of the core; alone it would answer that many
    // times more.
    const api = group.findIndex(({ def }) => def.name === 'api');
    if (endpoint.rate === 0 && api !== -1) {
      const alone = (runs[api]?.rps ?? 1) * stretch(settings.measure, group.length);
      endpoint.rate = Math.max(1, Math.round(alone * settings.rateFraction));
    }
  }
  const rate = { ...load, ...settings.measure, rate: endpoint.rate };
  const results: ServerRuns[] = [];
  for (const one of started) {
    const fixed = await fixedRate(one.server, requests, rate);
    results.push({ saturation: saturation.get(one) as RunSummary, fixedRate: fixed });
  }
  return results;
}
