import { fixedRate, type RunSummary, saturate } from './load.js';
import type { ReplayAnswer } from './peers/replay-answers.js';
import { type BenchRequest, ENDPOINTS, type EndpointId } from './scenario.js';
import { type ServerChild, type ServerDef, seed, startServer } from './servers.js';
import type { Settings } from './settings.js';
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

/**
 * Every round: each server in turn (`rotated`), a fresh process alone on the server core, its
 * pets created over HTTP, its answers checked against the API's, then each endpoint warmed up
 * and run at saturation, then at the fixed rate. `onRound` sees the runs after every round.
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
    for (const def of rotated(r, defs)) {
      const env: Record<string, string> = def.stores ? {} : { REPLAY: JSON.stringify(replay()) };
      const server = await startServer(def, settings, env);
      try {
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
        await warmReads(settings, server, requests);
        for (const endpoint of runs) {
          const result = await runEndpoint(settings, server, endpoint, requests[endpoint.endpoint]);
          endpoint.rounds[r] = { ...endpoint.rounds[r], [def.name]: result };
          const { saturation: s, fixedRate: f } = result;
          progress(
            `round ${r + 1}/${settings.rounds} ${def.name} ${endpoint.label}: ` +
              `${s.rps} req/s at ${s.cpuUsPerRequest} µs/req; at ${endpoint.rate} req/s ` +
              `${f.cpuUsPerRequest} µs/req, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
          );
        }
        peakRssMb[def.name] = Math.max(peakRssMb[def.name] ?? 0, server.rssMb('VmHWM'));
      } finally {
        await server.stop();
      }
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
 * A warm-up of endpoint `id` at saturation, nothing measured. Creates grow the store: every
 * server gets the same number of them before its runs.
 */
function warmUp(settings: Settings, server: ServerChild, id: EndpointId, requests: BenchRequest[]) {
  const warmup =
    id === 'create' ? { ...settings.warmup, amount: settings.createWarmup } : settings.warmup;
  const { connections, pipelining } = settings;
  const { expectStatus } = ENDPOINTS[id];
  return saturate(server, requests, { connections, pipelining, expectStatus, ...warmup });
}

/**
 * A warm-up on each read endpoint, before any is measured: a fresh process is still compiling
 * its hot paths, and the first endpoint measured would pay for the code every endpoint shares
 * (the creates are warmed up just before their run).
 */
async function warmReads(settings: Settings, server: ServerChild, requests: Requests) {
  for (const id of settings.endpoints) {
    if (id !== 'create') await warmUp(settings, server, id, requests[id]);
  }
}

/** One endpoint on one server: a warm-up, a run at saturation, a run at the fixed rate. */
async function runEndpoint(
  settings: Settings,
  server: ServerChild,
  endpoint: EndpointRuns,
  requests: BenchRequest[],
): Promise<ServerRuns> {
  const { expectStatus } = ENDPOINTS[endpoint.endpoint];
  const load = { connections: settings.connections, expectStatus };
  const saturated = { ...load, pipelining: settings.pipelining };
  await warmUp(settings, server, endpoint.endpoint, requests);
  const saturation = await saturate(server, requests, { ...saturated, ...settings.measure });
  // The API runs first in the first round: its req/s there sets the rate for every server.
  if (endpoint.rate === 0) {
    endpoint.rate = Math.max(1, Math.round(saturation.rps * settings.rateFraction));
  }
  const rate = { ...load, ...settings.measure, rate: endpoint.rate };
  return { saturation, fixedRate: await fixedRate(server, requests, rate) };
}
