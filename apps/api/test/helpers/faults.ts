// The fault suite's rig: the built API as a process, Toxiproxy on its database link, clients that
// create pets with Idempotency-Keys and read them, and the checks every fault must pass.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type FaultyLink,
  startTestMongo,
  startToxiproxy,
  type TestMongo,
  type Toxic,
  type Toxiproxy,
  uniqueDbName,
} from '@animal-store/test-db';
import { runProcess } from '@animal-store/test-support';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect } from 'vitest';
import { parse } from 'yaml';
import { DATABASE_CHECK_MS } from '../../src/readiness.js';
import { type ApiProcess, startApiProcess } from './processes.js';
import { scrape } from './scrape.js';
import { sleep, until } from './until.js';

/** The store deadline the suite runs the API with (`STORE_TIMEOUT_MS`). */
export const STORE_TIMEOUT_MS = 2_000;
/**
 * What an answer may take beyond the deadline: the API's own work around the store call and a
 * busy machine's scheduling. docs/operations.md states it.
 */
export const MARGIN_MS = 1_000;
/** Every answer of the suite comes within this. */
export const ANSWER_BOUND_MS = STORE_TIMEOUT_MS + MARGIN_MS;

const KEY = 'fault-suite-key-0123456789';
/** Far beyond every bound: a request still unanswered then never will be. */
const HUNG_MS = 60_000;
const auth = { Authorization: `Bearer ${KEY}` };
const JOB = 'animal-store-api';

/** The API process on a Toxiproxy link to the database, and the database itself, direct. */
export interface FaultRig {
  api: ApiProcess;
  /** The API's database link: toxics go here. */
  link: FaultyLink;
  toxiproxy: Toxiproxy;
  /** The API's database, reached around the link. */
  db: Db;
  close(): Promise<void>;
}

/**
 * The API's environment on a link to the database on 127.0.0.1:`linkPort`: the suite's deadline
 * and a small connection pool (a fault that holds connections shows at once).
 */
export function faultApiEnv(linkPort: number, dbName: string): Record<string, string> {
  // The driver's monitor checks the server once a minute: a check that finds it gone also ends
  // the connections in use, and what the suite holds is that the driver's own time limits do.
  const options = 'directConnection=true&maxPoolSize=8&heartbeatFrequencyMS=60000';
  return {
    MONGODB_URI: `mongodb://127.0.0.1:${linkPort}/?${options}`,
    MONGODB_DB: dbName,
    API_KEYS: KEY,
    STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
    // The shared rate limit keeps its windows in MongoDB too; the suite is about the pets.
    RATE_LIMIT_REQUESTS: '0',
  };
}

/** Starts Toxiproxy with a link to `mongoUri`, and the built API on that link (`faultApiEnv`). */
export async function startFaultRig(mongoUri: string): Promise<FaultRig> {
  const toxiproxy = await startToxiproxy();
  const upstream = new URL(mongoUri.replace(/^mongodb:/, 'http:'));
  const link = await toxiproxy.link(`mongo-${randomUUID()}`, upstream.host);
  const dbName = uniqueDbName();
  const api = await startApiProcess(faultApiEnv(link.port, dbName));
  const client = new MongoClient(mongoUri);
  return {
    api,
    link,
    toxiproxy,
    db: client.db(dbName),
    async close() {
      await api.stop();
      await toxiproxy.stop();
      await client.db(dbName).dropDatabase();
      await client.close();
    },
  };
}

/**
 * A database of the test file's own (the suite's load and faults never slow the other files'
 * database, and it may be stopped) with the fault rig on it: filled in before the file's tests,
 * stopped after them.
 */
export function ownDatabaseAndRig(): { mongo: TestMongo; rig: FaultRig } {
  const own = {} as { mongo: TestMongo; rig: FaultRig };
  beforeAll(async () => {
    own.mongo = await startTestMongo();
    own.rig = await startFaultRig(own.mongo.uri);
  });
  afterAll(async () => {
    await own.rig?.close();
    await own.mongo?.stop();
  });
  return own;
}

/** One answer a client got. */
export interface Answer {
  op: 'create' | 'read';
  phase: string;
  status: number;
  ms: number;
  /** When it came (`performance.now()`). */
  at: number;
  retryAfter: string | null;
  code?: string;
  key?: string;
  id?: number;
  replayed: boolean;
  /** A request that got no answer at all: the connection failed. */
  error?: string;
}

/**
 * Clients that create pets, each with an `Idempotency-Key` (the pet's name is the key), resend a
 * create that was not acknowledged with the same key, and read each acknowledged pet back.
 */
export class Load {
  readonly answers: Answer[] = [];
  /** The test's name for what is going on now; each answer carries it. */
  phase = 'before';
  readonly #base: string;
  /** Every key of this load starts with it, then `-`. */
  readonly prefix = randomUUID().slice(0, 8);
  /** Keys sent and not yet acknowledged. */
  readonly #pending = new Set<string>();
  #running = false;
  #paused = false;
  #held = 0;
  #clients: Promise<void>[] = [];

  readonly #api: ApiProcess | undefined;

  /** Clients of `base`; with `api`, the process behind it, whose exit fails the load. */
  constructor(base: string, api?: ApiProcess) {
    this.#base = base;
    this.#api = api;
  }

  start(clients = 4): void {
    this.#running = true;
    this.#clients = Array.from({ length: clients }, (_, n) => this.#client(n));
  }

  /** Stops the clients, then resends each create left unacknowledged until it is acknowledged. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#paused = false;
    await Promise.all(this.#clients);
    this.phase = 'resolving';
    for (const key of this.#pending) {
      await until(async () => (await this.create(key)).status === 201, `key ${key} acknowledged`);
    }
  }

  /** Stops the clients without resolving what they left unacknowledged. */
  async abandon(): Promise<void> {
    this.#running = false;
    this.#paused = false;
    // A client that failed is reported where it failed; this only waits for the others.
    await Promise.allSettled(this.#clients);
  }

  /** Answers of `phase` (all when absent). */
  of(phase?: string): Answer[] {
    return phase === undefined ? this.answers : this.answers.filter((a) => a.phase === phase);
  }

  /** Waits until a create and a read are answered 2xx: the store serves again. */
  async untilServed(): Promise<void> {
    await until(async () => {
      const created = await this.create(`${this.prefix}-probe-${randomUUID()}`);
      if (created.status !== 201 || created.id === undefined) return false;
      return (await this.read(created.id)).status === 200;
    }, 'a create and a read served');
  }

  async create(key: string): Promise<Answer> {
    this.#pending.add(key);
    const answer = await this.#send('create', `${this.#base}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ name: key, categoryId: 1 }),
    });
    answer.key = key;
    if (answer.status === 201) this.#pending.delete(key);
    return answer;
  }

  read(id: number): Promise<Answer> {
    return this.#send('read', `${this.#base}/pets/${id}`, { headers: auth });
  }

  /** The first page of `limit` pets. */
  list(limit: number): Promise<Answer> {
    return this.#send('read', `${this.#base}/pets?limit=${limit}`, { headers: auth });
  }

  /** Holds the clients once their current request is answered; resolves when all are held. */
  async pause(): Promise<void> {
    this.#paused = true;
    await until(() => this.#held === this.#clients.length);
  }

  resume(): void {
    this.#paused = false;
  }

  async #client(n: number): Promise<void> {
    let unacknowledged: string | undefined;
    for (let i = 0; this.#running; i++) {
      const key = unacknowledged ?? `${this.prefix}-${n}-${i}`;
      const created = await this.create(key);
      unacknowledged = created.status === 201 ? undefined : key;
      if (created.id !== undefined) await this.read(created.id);
      // A client's pace, not a wait for anything.
      await sleep(20);
      if (this.#paused) {
        this.#held++;
        await until(() => !this.#paused);
        this.#held--;
      }
    }
  }

  async #send(op: Answer['op'], url: string, init: RequestInit): Promise<Answer> {
    const phase = this.phase;
    const started = performance.now();
    let answer: Answer;
    try {
      // A request that gets no answer at all ends (as broken) instead of holding the test.
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HUNG_MS) });
      const text = await res.text();
      const body = text.startsWith('{') ? (JSON.parse(text) as { id?: number; code?: string }) : {};
      answer = {
        op,
        phase,
        status: res.status,
        ms: performance.now() - started,
        at: performance.now(),
        retryAfter: res.headers.get('retry-after'),
        code: body.code,
        id: res.status < 300 ? body.id : undefined,
        replayed: res.headers.get('idempotency-replayed') === 'true',
      };
    } catch (error) {
      const exited = this.#api?.exitStatus();
      if (exited !== undefined) {
        throw new Error(
          `the API exited (${exited}); its output:\n${this.#api?.output().slice(-4_000)}`,
        );
      }
      const cause = (error as Error).cause as Error | undefined;
      answer = {
        op,
        phase,
        status: 0,
        ms: performance.now() - started,
        at: performance.now(),
        retryAfter: null,
        replayed: false,
        error: `${(error as Error).message} ${cause?.message ?? ''}`,
      };
    }
    this.answers.push(answer);
    return answer;
  }
}

/**
 * What breaks the rules every fault keeps: each answer within the deadline and its margin; a
 * `2xx`, a `503 service_unavailable` with `Retry-After: 5`, or (a create resent while its first
 * try still works) `409` with `Retry-After: 1`; never a dropped connection nor a `500`.
 */
export function brokenAnswers(answers: readonly Answer[]): string[] {
  const broken: string[] = [];
  for (const a of answers) {
    const what = `${a.phase} ${a.op} ${a.key ?? a.id ?? ''}: ${a.status} in ${Math.round(a.ms)} ms`;
    if (a.ms > ANSWER_BOUND_MS) broken.push(`${what}: over ${ANSWER_BOUND_MS} ms`);
    if (isServed(a)) continue;
    if (isStoreDeadline(a)) continue;
    if (isCreateInFlight(a)) continue;
    broken.push(`${what} ${a.code ?? a.error ?? ''} Retry-After ${a.retryAfter}`);
  }
  return broken;
}

/** The API's log lines for errors it answered `500`, one a line. */
function unhandledErrors(output: string): string {
  const lines = output.split('\n').filter((line) => line.includes('"unhandled error"'));
  return lines.length === 0 ? 'the API logged no unhandled error' : lines.join('\n');
}

/** True for an answer served: `200` (a read) or `201` (a create). */
export function isServed(a: Answer): boolean {
  return a.status === 200 || a.status === 201;
}

/** True for the store deadline's answer: 503, `service_unavailable`, `Retry-After: 5`. */
function isStoreDeadline(a: Answer): boolean {
  return a.status === 503 && a.retryAfter === '5' && a.code === 'service_unavailable';
}

/** True for a create whose key is still in flight: 409 with `Retry-After: 1`. */
function isCreateInFlight(a: Answer): boolean {
  return a.status === 409 && a.retryAfter === '1' && a.op === 'create';
}

/**
 * True for an answer that keeps "2xx as soon as the store answers": a `2xx`; the `409` of a create
 * resent while its first try still holds its key; or the store deadline's `503` after the whole
 * deadline, when the store did not answer within it (a busy machine can hold a healthy store that
 * long, and the API documents that `503` as transient). A `503` any sooner is a refusal while the
 * store answers.
 */
function servedAgain(a: Answer): boolean {
  return isServed(a) || isCreateInFlight(a) || (isStoreDeadline(a) && a.ms >= STORE_TIMEOUT_MS);
}

/**
 * `key`'s create sent again until its answer is other than the store deadline's 503 (a link still
 * slow may spend the deadline; each such try takes the deadline itself) or the 409 of a key still
 * in flight (sent again after its `Retry-After`), as a client does.
 */
async function resend(load: Load, key: string): Promise<Answer> {
  for (;;) {
    const answer = await load.create(key);
    if (isCreateInFlight(answer)) await sleep(1000 * Number(answer.retryAfter));
    else if (!isStoreDeadline(answer)) return answer;
  }
}

/**
 * Holds the idempotent creates to their promise: every key acknowledged as created at most once,
 * each acknowledged key's pet stored exactly once under the acknowledged id, nothing stored that
 * was not acknowledged (`load.stop()` has resent every key until acknowledged), and a resend of
 * each key replayed.
 */
export async function expectEachCreateStoredOnce(load: Load, db: Db): Promise<void> {
  const acknowledged = new Map<string, number>();
  const created = new Map<string, number>();
  for (const a of load.answers) {
    if (a.op !== 'create' || a.status !== 201 || a.key === undefined) continue;
    const first = acknowledged.get(a.key);
    if (first !== undefined) expect(a.id, `key ${a.key}: one pet`).toBe(first);
    acknowledged.set(a.key, a.id as number);
    if (!a.replayed) created.set(a.key, (created.get(a.key) ?? 0) + 1);
  }
  expect(acknowledged.size).toBeGreaterThan(0);
  for (const [key, count] of created) expect(count, `key ${key} acknowledged as new`).toBe(1);

  const stored = new Map<string, number[]>();
  const ours = { name: { $regex: `^${load.prefix}-` } };
  for (const doc of await db.collection('pets').find(ours).toArray()) {
    const name = doc.name as string;
    stored.set(name, [...(stored.get(name) ?? []), Number(doc._id)]);
  }
  for (const [key, id] of acknowledged) expect(stored.get(key), `key ${key}`).toEqual([id]);
  for (const name of stored.keys()) expect(acknowledged.has(name), `stored ${name}`).toBe(true);

  // A client that lost the answer sends again: it gets the same pet, marked as a replay.
  const keys = [...acknowledged.keys()];
  for (let i = 0; i < keys.length; i += 16) {
    const resent = await Promise.all(keys.slice(i, i + 16).map((key) => resend(load, key)));
    for (const answer of resent) {
      expect(answer.status, `resent ${answer.key}`).toBe(201);
      expect(answer.replayed, `resent ${answer.key}`).toBe(true);
      expect(answer.id).toBe(acknowledged.get(answer.key as string));
    }
  }
}

/** The sum of every sample of `name` whose labels include `labels`. */
export function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const { metric, labels: present, value } of samples(text)) {
    if (metric !== name) continue;
    if (Object.entries(labels).every(([key, v]) => present[key] === v)) sum += value;
  }
  return sum;
}

interface Sample {
  metric: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    found.push({ metric: match[1] as string, labels, value: Number(match[3]) });
  }
  return found;
}

export type StoreMetrics = Awaited<ReturnType<typeof storeMetrics>>;

/** Store calls failed because the database was not there or too slow, so far. */
export const storeFailures = (metrics: StoreMetrics) =>
  metrics.errors('unavailable') + metrics.errors('timeout');

/** What the store's metrics say now. */
export async function storeMetrics(api: ApiProcess) {
  const text = await scrape(new URL(api.base).origin);
  return {
    text,
    errors: (kind: string) => total(text, 'pet_store_errors_total', { kind }),
    callsInFlight: total(text, 'pet_store_calls_in_flight'),
    connectionsInUse: total(text, 'mongodb_pool_connections_in_use'),
    checkoutsWaiting: total(text, 'mongodb_pool_checkouts_waiting'),
    databaseUp: total(text, 'animal_store_database_up'),
  };
}

/**
 * How long `/readyz` may take to tell that the database's state changed: one check interval,
 * then the check's own deadline and margin.
 */
export const READINESS_BOUND_MS = DATABASE_CHECK_MS + ANSWER_BOUND_MS;

/**
 * Waits until `/readyz` reports the database `state`, still `200` (the process stays in rotation);
 * fails once READINESS_BOUND_MS have passed since `since` (`performance.now()`).
 */
export async function untilReadiness(
  api: ApiProcess,
  state: 'up' | 'down',
  since: number,
): Promise<void> {
  for (;;) {
    const now = await readiness(api);
    expect(now.status).toBe(200);
    if (now.database === state) return;
    expect(performance.now() - since, `/readyz still says ${now.database}`).toBeLessThanOrEqual(
      READINESS_BOUND_MS,
    );
    await sleep(50);
  }
}

/**
 * A fault's wait: `/readyz` tells the database is down (in time), at least `count` answers came
 * while the fault lasts, and one of them is a 503. The store counts the error behind a 503
 * before the answer leaves, so a scrape after this sees the fault; answers alone may all be
 * successes sent as the fault began, with the store's calls still waiting out their deadline.
 */
export const untilDown =
  (api: ApiProcess, count: number) => async (load: Load, started: number) => {
    await untilReadiness(api, 'down', started);
    await until(
      () => load.of('fault').length >= count && load.of('fault').some((a) => a.status === 503),
      `${count} answers during the fault, one of them a 503`,
    );
  };

/** `/readyz` now: its status and the database's state it reports. */
export async function readiness(api: ApiProcess): Promise<{ status: number; database: string }> {
  const res = await fetch(`${new URL(api.base).origin}/readyz`);
  const body = (await res.json()) as { database: string };
  return { status: res.status, database: body.database };
}

const RULES = fileURLToPath(new URL('../../../../deploy/prometheus/rules.yml', import.meta.url));
/** The labels each alert's expression keeps, besides its `severity`. */
const ALERT_LABELS: Record<string, readonly string[]> = {
  ApiAvailabilityBudgetBurn: ['job'],
  ApiLatencyBudgetBurn: ['job'],
  ApiDatabaseUnavailable: ['job', 'instance'],
  ApiDatabaseDownEverywhere: ['job'],
};
/** The metrics the alerts above read. */
const ALERT_INPUTS = [
  'http_request_duration_seconds_count',
  'http_request_duration_seconds_bucket',
  'pet_store_errors_total',
  'animal_store_database_up',
];

/**
 * What each fault shows an operator, held by the suite: the alerts that fire on its series and
 * those that stay silent, and a log line of the API. docs/operations.md has a section for each,
 * under its `title`, naming them.
 */
export interface FaultSigns {
  title: string;
  firing: readonly string[];
  silent: readonly string[];
  /** Written by the API while the fault lasts. */
  log?: string;
}

const SLOW = 'the database did not answer within STORE_TIMEOUT_MS';
/** What a database that does not answer in time fires. */
const UNANSWERED = [
  'ApiDatabaseUnavailable',
  'ApiDatabaseDownEverywhere',
  'ApiAvailabilityBudgetBurn',
  'ApiLatencyBudgetBurn',
] as const;
const UNAVAILABLE = 'store unavailable';

export const FAULTS = {
  latencyBelow: {
    title: 'Database latency below the deadline',
    firing: ['ApiLatencyBudgetBurn'],
    silent: ['ApiDatabaseUnavailable', 'ApiDatabaseDownEverywhere', 'ApiAvailabilityBudgetBurn'],
  },
  latencyAbove: {
    title: 'Database latency above the deadline',
    firing: UNANSWERED,
    silent: [],
    log: SLOW,
  },
  partition: {
    title: 'A partition between the API and the database',
    firing: UNANSWERED,
    silent: [],
    log: SLOW,
  },
  resets: {
    title: 'Database connections reset',
    firing: ['ApiDatabaseUnavailable', 'ApiDatabaseDownEverywhere', 'ApiAvailabilityBudgetBurn'],
    silent: [],
    log: UNAVAILABLE,
  },
  slices: {
    title: 'Database replies in small slices',
    firing: [],
    silent: ['ApiDatabaseUnavailable', 'ApiDatabaseDownEverywhere', 'ApiAvailabilityBudgetBurn'],
  },
  cut: {
    title: 'Database replies cut mid-document',
    firing: ['ApiDatabaseUnavailable', 'ApiAvailabilityBudgetBurn'],
    silent: [],
    log: UNAVAILABLE,
  },
  restart: {
    title: 'The database restarted under load',
    firing: ['ApiDatabaseUnavailable', 'ApiDatabaseDownEverywhere', 'ApiAvailabilityBudgetBurn'],
    silent: [],
    log: UNAVAILABLE,
  },
} as const satisfies Record<string, FaultSigns>;

/** What a run through one fault gave: its answers and the metrics around it. */
export interface FaultRun {
  load: Load;
  api: ApiProcess;
  before: StoreMetrics;
  during: StoreMetrics;
  /** Seconds between the two scrapes. */
  seconds: number;
  /** `/readyz`'s status at the end of the fault. */
  readyStatus: number;
  /** What the API wrote while the fault lasted. */
  output: string;
}

export interface FaultPlan {
  /** The toxics that make the fault; removed to end it. */
  toxics?: readonly Toxic[];
  /** Makes the fault instead, and `end` ends it (the database restarted). */
  begin?: () => Promise<void>;
  end?: () => Promise<void>;
  /**
   * Waits while the fault lasts, until it has shown what the test looks at; `started` is when it
   * was in place (`performance.now()`, after the toxics were added and `begin` resolved).
   */
  whileOn(load: Load, started: number): Promise<void>;
  /** With the clients held, while the fault still lasts: what must hold once they are answered. */
  quiet?: (api: ApiProcess, lastAnswer: number) => Promise<void>;
}

/**
 * Runs clients through a fault on `rig`'s link: before it, while it lasts (`plan.whileOn`), then
 * until the store serves again and a little after. Holds what every fault keeps: each answer
 * within the deadline and its margin, a `2xx` or `503` with `Retry-After`, no `503` before the
 * deadline once served again (`servedAgain`), each create stored once and replayed when resent.
 */
export async function throughFault(rig: FaultRig, plan: FaultPlan): Promise<FaultRun> {
  const load = new Load(rig.api.base, rig.api);
  load.start();
  try {
    return await runThrough(rig, plan, load);
  } catch (error) {
    // The clients stop before the rig does: the test reports this failure, not their errors.
    await load.abandon();
    throw error;
  }
}

async function runThrough(rig: FaultRig, plan: FaultPlan, load: Load): Promise<FaultRun> {
  const { api, link, db } = rig;
  await until(() => load.of('before').length >= 8, 'answers before the fault');

  const before = await storeMetrics(api);
  const outputBefore = api.stdout().length;
  const started = performance.now();
  load.phase = 'fault';
  let during: StoreMetrics;
  let readyStatus: number;
  const added: string[] = [];
  try {
    for (const toxic of plan.toxics ?? []) {
      await link.addToxic(toxic);
      added.push(toxic.name);
    }
    await plan.begin?.();
    // Readiness is due from when the fault is in place (a database stops in seconds).
    await plan.whileOn(load, performance.now());
    if (plan.quiet) {
      await load.pause();
      await plan.quiet(api, Math.max(...load.answers.map((a) => a.at)));
    }
    during = await storeMetrics(api);
    readyStatus = (await readiness(api)).status;
  } catch (error) {
    // The next test gets a healthy link.
    for (const name of added) await link.removeToxic(name);
    await plan.end?.();
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  const output = api.stdout().slice(outputBefore);

  for (const name of added) await link.removeToxic(name);
  await plan.end?.();
  load.phase = 'healing';
  load.resume();
  await load.untilServed();
  // Readiness is due from when the API's store serves again: the driver may take seconds to
  // reach a restarted database (a stalled monitor is replaced first).
  const served = performance.now();
  load.phase = 'after';
  if (during.databaseUp === 0) await untilReadiness(api, 'up', served);
  await until(() => load.of('after').length >= 4, 'answers after the fault');
  await load.stop();

  // A broken answer names what the API logged as unhandled (a 500's cause).
  expect(brokenAnswers(load.answers), unhandledErrors(api.stdout())).toEqual([]);
  expect(load.of('after').filter((a) => !servedAgain(a))).toEqual([]);
  await expectEachCreateStoredOnce(load, db);
  return { load, api, before, during, seconds, readyStatus, output };
}

/**
 * With no request waiting, within the deadline and its margin of the last answer (a read the
 * driver retries waits once more): no store call in flight, and the driver holds no connection
 * and waits for none (its own timeouts ended what the API gave up on).
 */
export async function expectStoreSettled(api: ApiProcess, lastAnswer: number): Promise<void> {
  let now = await storeMetrics(api);
  while (now.callsInFlight + now.connectionsInUse + now.checkoutsWaiting > 0) {
    expect(
      performance.now() - lastAnswer,
      `store calls ${now.callsInFlight}, connections in use ${now.connectionsInUse}, checkouts waiting ${now.checkoutsWaiting}`,
    ).toBeLessThanOrEqual(ANSWER_BOUND_MS);
    await sleep(50);
    now = await storeMetrics(api);
  }
}

/**
 * Runs `promtool test rules` on the shipped rules with series taken from the run: the counters'
 * rates between the scrapes before and during the fault kept for 80 minutes, the gauges at their
 * value during it, for one process. Fails unless `firing` fire and `silent` do not, or the API
 * did not log the fault's line.
 */
export async function expectAlerts(run: FaultRun, expected: FaultSigns): Promise<void> {
  if (expected.log) expect(run.output).toContain(expected.log);
  const before = run.before.text;
  const after = run.during.text;
  const seconds = run.seconds;
  const minutes = 80;
  const start = new Map<string, number>();
  for (const s of samples(before)) start.set(seriesName(s), s.value);
  const series: { series: string; values: string }[] = [];
  for (const s of samples(after)) {
    if (!ALERT_INPUTS.some((name) => s.metric === name)) continue;
    if (s.metric.endsWith('_bucket') && s.labels.le !== '0.25') continue;
    const name = seriesName(s);
    const counter = /_(total|count|bucket)$/.test(s.metric);
    const perMinute = ((s.value - (start.get(name) ?? 0)) * 60) / seconds;
    series.push({
      series: name,
      values: counter ? `0+${perMinute}x${minutes}` : `${s.value}x${minutes}`,
    });
  }
  const rules = parse(await readFile(RULES, 'utf8')) as {
    groups: { rules: { alert?: string; annotations?: Record<string, string> }[] }[];
  };
  const labelsOf = { job: JOB, instance: 'api-1' } as Record<string, string>;
  const alertTests = [...expected.firing, ...expected.silent].map((alertname) => {
    const rule = rules.groups.flatMap((g) => g.rules).find((r) => r.alert === alertname);
    if (!rule) throw new Error(`no alert ${alertname} in ${RULES}`);
    const kept = ALERT_LABELS[alertname];
    if (!kept) throw new Error(`ALERT_LABELS has no ${alertname}`);
    const exp_alerts = expected.firing.includes(alertname)
      ? [
          {
            exp_labels: {
              severity: 'page',
              ...Object.fromEntries(kept.map((k) => [k, labelsOf[k]])),
            },
            exp_annotations: Object.fromEntries(
              Object.entries(rule.annotations ?? {}).map(([k, v]) => [
                k,
                v.replace(
                  /\{\{ \$labels\.(\w+) \}\}/g,
                  (_, label: string) => labelsOf[label] ?? '',
                ),
              ]),
            ),
          },
        ]
      : [];
    return { eval_time: `${minutes - 5}m`, alertname, exp_alerts };
  });
  const dir = await mkdtemp(join(tmpdir(), 'fault-alerts-'));
  try {
    const file = join(dir, 'from-the-run.test.yml');
    await writeFile(
      file,
      JSON.stringify({
        rule_files: [RULES],
        evaluation_interval: '15s',
        tests: [{ interval: '1m', input_series: series, alert_rule_test: alertTests }],
      }),
    );
    const result = await runProcess('promtool', ['test', 'rules', file]);
    expect(
      result.exitCode,
      `promtool test rules on the run's series:\n${result.stdout}${result.stderr}\n${JSON.stringify(series, null, 1)}`,
    ).toBe(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sample's series as promtool writes it, with the job and instance Prometheus adds. */
function seriesName(s: Sample): string {
  const labels = { ...s.labels, job: JOB, instance: 'api-1' };
  const inner = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  return `${s.metric}{${inner}}`;
}
