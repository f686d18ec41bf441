import { Writable } from 'node:stream';
import { type Pet, validateErrorBody } from '@animal-store/contract';
import type { AppDeps } from '../../src/app.js';
import type { ServerLimits } from '../../src/http/server-limits.js';
import { parseApiKeys, StaticApiKeys } from '../../src/keys/api-key.js';
import { createLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import type { PetStore } from '../../src/store/pet-store.js';
import { stopAfterFile } from './file-cleanup.js';
import { createTestStore } from './store.js';

export const TEST_KEY = 'test-key-0123456789';
export const auth = { Authorization: `Bearer ${TEST_KEY}` };
export const json = { ...auth, 'Content-Type': 'application/json' };

export interface TestApi {
  /** Base URL ending in `/v1`. */
  base: string;
  origin: string;
  store: PetStore;
  /** Every log line the server wrote, parsed. */
  logs: Record<string, unknown>[];
  /** The server itself (its readiness, its drain). */
  running: RunningServer;
  /** Moves the injected clock. */
  setNow(date: Date): void;
  close(): Promise<void>;
}

/**
 * Starts the API on 127.0.0.1 with a fresh store; closed after the file's tests
 * (helpers/after-each-file.ts), wherever in the file it was started.
 */
export async function startTestApi(
  overrides: Partial<AppDeps> & { databaseCheckMs?: number } = {},
  limits: Partial<ServerLimits> = {},
): Promise<TestApi> {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  let now = new Date('2026-06-01T00:00:00Z');
  const store = overrides.store ?? (await createTestStore());
  const running = await startServer(
    {
      store,
      apiKeys: new StaticApiKeys(parseApiKeys(TEST_KEY)),
      logger: createLogger('info', sink),
      clock: () => now.getTime(),
      ...overrides,
    },
    { host: '127.0.0.1', port: 0 },
    limits,
  );
  const close = stopAfterFile(async () => {
    await running.close(1000);
    await store.close();
  });
  return {
    base: `${running.origin}/v1`,
    origin: running.origin,
    store,
    logs,
    running,
    setNow: (date) => {
      now = date;
    },
    close,
  };
}

/** A pet as the API returns it. */
export type PetBody = Pet;

/** The JSON body of a response, typed by the caller. */
export async function read<T = PetBody>(res: Response | Promise<Response>): Promise<T> {
  return (await (await res).json()) as T;
}

/** Every pet the API at `base` lists, page by page through the `after` cursor. */
export async function listAllPets(
  base: string,
  headers: Record<string, string> = auth,
): Promise<PetBody[]> {
  const listed: PetBody[] = [];
  let query = 'limit=100';
  for (;;) {
    const page = await read<PetBody[]>(fetch(`${base}/pets?${query}`, { headers }));
    if (page.length === 0) return listed;
    listed.push(...page);
    query = `limit=100&after=${page.at(-1)?.id}`;
  }
}

/** Creates a pet through the API and returns the response body. */
export async function createPet(
  api: TestApi,
  body: Record<string, unknown> = { name: 'Rex', categoryId: 1 },
): Promise<PetBody> {
  const res = await fetch(`${api.base}/pets`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return read(res);
}

export interface ErrorJson {
  code: string;
  message: string;
  status: number;
  details?: { path: string; message: string }[];
}

/** Asserts `text` is a JSON Error body whose `status` equals `httpStatus`, and returns it. */
export function parseErrorBody(
  contentType: string | null | undefined,
  text: string,
  httpStatus: number,
): ErrorJson {
  if (!contentType?.startsWith('application/json')) {
    throw new Error(`expected JSON, got ${contentType}`);
  }
  const body = JSON.parse(text) as ErrorJson;
  const checked = validateErrorBody(body);
  if (!checked.ok) throw new Error(`not an Error body: ${text}`);
  if (body.status !== httpStatus) throw new Error(`status ${body.status} != HTTP ${httpStatus}`);
  return body;
}

/** Asserts the response is an Error body whose `status` equals the HTTP status, and returns it. */
export async function errorBody(res: Response): Promise<ErrorJson> {
  return parseErrorBody(res.headers.get('content-type'), await res.text(), res.status);
}
