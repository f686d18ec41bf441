import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { AnimalStoreClient, AnimalStoreError, DEFAULT_TIMEOUT_MS } from '../src/index.js';
import { answer, errorJson, scriptedServer } from './support/scripted-server.js';

/**
 * A server on 127.0.0.1 that accepts connections and never answers (or, with `partial`, sends
 * the head and the start of a body, then nothing). Keeps each request head it has read; closed
 * after the file's tests.
 */
async function silentServer(partial = false) {
  const heads: string[] = [];
  const waiting: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      heads.push(head);
      head = '';
      if (partial) {
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[',
        );
      }
      for (const wake of waiting.splice(0)) wake();
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    base: `http://127.0.0.1:${port}/v1`,
    heads,
    /** Resolves once the server has read `count` request heads in all. */
    received: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (heads.length >= count ? resolve() : waiting.push(check));
        check();
      }),
  };
}

const requestIdOf = (head: string | undefined) =>
  /\r\nx-request-id: ([^\r]*)/i.exec(head ?? '')?.[1];

/** A `fetch` that keeps the `X-Request-Id` of each request it sends. */
function recordingFetch() {
  const ids: (string | null)[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    ids.push(new Headers(init?.headers).get('X-Request-Id'));
    return globalThis.fetch(input, init);
  };
  return { ids, fetch };
}

const silent = await silentServer();
const stalled = await silentServer(true);

afterEach(() => {
  vi.useRealTimers();
});

describe('a server that accepts and never answers', () => {
  it('ends a call at its own timeout in a timeout error naming the request id sent', async () => {
    const { ids, fetch } = recordingFetch();
    const client = new AnimalStoreClient({
      baseUrl: silent.base,
      apiKey: 'k',
      retry: false,
      fetch,
    });
    const error = await client.pets.listPage({ timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnimalStoreError);
    expect(error).toMatchObject({ code: 'timeout', status: 0, response: undefined });
    expect(ids).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    expect((error as AnimalStoreError).requestId).toBe(ids[0]);
  });

  it('ends each attempt at the client’s timeout; a GET is retried with the same request id', async () => {
    const waits: number[] = [];
    const { ids, fetch } = recordingFetch();
    const client = new AnimalStoreClient({
      baseUrl: silent.base,
      apiKey: 'k',
      timeoutMs: 50,
      retry: { attempts: 3 },
      fetch,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const error = await client.pets.get(1).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(ids).toHaveLength(3);
    expect(new Set(ids)).toEqual(new Set([(error as AnimalStoreError).requestId]));
    expect(waits).toHaveLength(2);
  });

  it('does not retry a create without a key after a timeout: it may have been made', async () => {
    const { ids, fetch } = recordingFetch();
    const client = new AnimalStoreClient({
      baseUrl: silent.base,
      apiKey: 'k',
      timeoutMs: 50,
      fetch,
      sleep: async () => {},
    });
    await expect(client.pets.create({ name: 'Rex', categoryId: 1 })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(ids).toHaveLength(1);
  });

  it('ends a call whose answer starts and then stops, as a timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let headArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      headArrived = resolve;
    });
    const client = new AnimalStoreClient({
      baseUrl: stalled.base,
      apiKey: 'k',
      retry: false,
      fetch: async (input, init) => {
        const response = await globalThis.fetch(input, init);
        headArrived();
        return response;
      },
    });
    const call = client.pets.listPage({ timeoutMs: 1000 });
    call.catch(() => {});
    await arrived;
    vi.advanceTimersByTime(1000);
    await expect(call).rejects.toMatchObject({ code: 'timeout' });
  });

  it(`times out after DEFAULT_TIMEOUT_MS (${DEFAULT_TIMEOUT_MS} ms) when nobody says otherwise`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = new AnimalStoreClient({ baseUrl: silent.base, apiKey: 'k', retry: false });
    const before = silent.heads.length;
    let settled = false;
    const call = client.pets.listPage().finally(() => {
      settled = true;
    });
    call.catch(() => {});
    await silent.received(before + 1);
    vi.advanceTimersByTime(DEFAULT_TIMEOUT_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(call).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('the caller’s AbortSignal', () => {
  it('ends a call under way in an aborted error, the signal’s reason its cause', async () => {
    const client = new AnimalStoreClient({ baseUrl: silent.base, apiKey: 'k' });
    const controller = new AbortController();
    const before = silent.heads.length;
    const call = client.pets.listPage({ signal: controller.signal });
    await silent.received(before + 1);
    const reason = new Error('the user left');
    controller.abort(reason);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnimalStoreError);
    expect(error).toMatchObject({ code: 'aborted', status: 0, cause: reason });
    expect((error as AnimalStoreError).requestId).toBe(requestIdOf(silent.heads[before]));
  });

  it('sends nothing when the signal has already aborted', async () => {
    const client = new AnimalStoreClient({ baseUrl: silent.base, apiKey: 'k' });
    const before = silent.heads.length;
    await expect(
      client.pets.create({ name: 'Rex', categoryId: 1 }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(silent.heads.length).toBe(before);
  });

  it('ends the wait before a retry', async () => {
    const server = await scriptedServer((_n, _req, res) =>
      answer(res, 503, errorJson(503, 'service_unavailable'), { 'Retry-After': '50' }),
    );
    const controller = new AbortController();
    let waiting = 0;
    const client = new AnimalStoreClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: 'k',
      // Aborts as the client starts its 50 s wait for the retry.
      onResponse: (event) => {
        if (event.retryInMs === undefined) return;
        waiting = event.retryInMs;
        setImmediate(() => controller.abort());
      },
    });
    const call = client.pets.get(1, { signal: controller.signal });
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(waiting).toBeGreaterThanOrEqual(50_000);
    expect(server.received).toHaveLength(1);
  });
});
