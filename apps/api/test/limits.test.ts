import { connect, type Socket } from 'node:net';
import { BODY_LIMIT_BYTES } from '@animal-store/contract';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_URL_BYTES, DEFAULT_SERVER_LIMITS } from '../src/http/server-limits.js';
import { ApiMetrics } from '../src/metrics/api-metrics.js';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import { auth, errorBody, json, parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses, type RawResponse, SERVER_ENDS } from './helpers/raw-http.js';

// Every limit at its default.
const api = await startTestApi();
// Short timeouts, for the tests that wait for one to end an exchange (a busy machine only makes
// that later). Every other test uses the defaults, so a slow machine never turns its answer into
// a 408.
const hurried = await startTestApi({ bodyTimeoutMs: 400 }, { headersTimeoutMs: 300 });
const host = new URL(api.origin).host;

/** The single response a raw exchange got, asserted to be an Error body; returns its code. */
function onlyError(data: Buffer, status: number): { code: string; response: RawResponse } {
  const responses = parseResponses(data);
  expect(responses).toHaveLength(1);
  const [response] = responses as [RawResponse];
  expect(response.status).toBe(status);
  const body = parseErrorBody(response.headers['content-type'], response.body, response.status);
  return { code: body.code, response };
}

describe('request target length', () => {
  it('answers 414 uri_too_long beyond 8 KiB, before authentication', async () => {
    const path = `/v1/pets?name=${'a'.repeat(DEFAULT_MAX_URL_BYTES)}`;
    const res = await fetch(`${api.origin}${path}`);
    expect(res.status).toBe(414);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect((await errorBody(res)).code).toBe('uri_too_long');
  });

  it('answers a request target of exactly 8 KiB as usual', async () => {
    const prefix = '/v1/pets?x=';
    const res = await fetch(
      `${api.origin}${prefix}${'a'.repeat(DEFAULT_MAX_URL_BYTES - prefix.length)}`,
      { headers: auth },
    );
    expect(res.status).toBe(200);
  });

  it('counts bytes, not characters, of a percent-encoded target', async () => {
    const res = await fetch(`${api.base}/pets?q=${'é'.repeat(DEFAULT_MAX_URL_BYTES / 6 + 1)}`);
    expect(res.status).toBe(414);
  });
});

describe('header size', () => {
  it('answers 431 with an Error body when the headers exceed 16 KiB', async () => {
    const big = 'x'.repeat(DEFAULT_SERVER_LIMITS.maxHeaderBytes);
    const { data, closedByServer } = await exchange(
      api.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${big}\r\n\r\n`,
    );
    expect(closedByServer).toBe(true);
    const { code, response } = onlyError(data, 431);
    expect(code).toBe('request_header_fields_too_large');
    expect(response.headers.connection).toBe('close');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 431 to fetch too', async () => {
    const res = await fetch(`${api.base}/pets`, {
      headers: { ...auth, 'X-Big': 'x'.repeat(DEFAULT_SERVER_LIMITS.maxHeaderBytes) },
    });
    expect(res.status).toBe(431);
    expect((await errorBody(res)).code).toBe('request_header_fields_too_large');
  });

  it('accepts headers just under the limit', async () => {
    const res = await fetch(`${api.base}/pets`, {
      headers: { ...auth, 'X-Big': 'x'.repeat(DEFAULT_SERVER_LIMITS.maxHeaderBytes - 1024) },
    });
    expect(res.status).toBe(200);
  });
});

describe('malformed and unusual requests', () => {
  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a header line without a colon', `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nNoColon\r\n\r\n`],
    [
      'a bad chunk size',
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ],
  ])('answers 400 bad_request with an Error body to %s', async (_, request) => {
    const { data, closedByServer } = await exchange(api.origin, request);
    expect(closedByServer).toBe(true);
    expect(onlyError(data, 400).code).toBe('bad_request');
  });

  // Found by fuzzing: Node answered these itself, with an empty body.
  it('answers an HTTP/1.1 request without Host with 400 bad_request and an Error body', async () => {
    const { data } = await exchange(api.origin, 'GET /v1/pets HTTP/1.1\r\n\r\n', { end: true });
    const { code, response } = onlyError(data, 400);
    expect(code).toBe('bad_request');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves an HTTP/1.0 request without Host', async () => {
    const { data } = await exchange(api.origin, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(parseResponses(data)[0]?.status).toBe(200);
  });

  it('serves a request with an Expect it does not know instead of an empty 417', async () => {
    const { data } = await exchange(
      api.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
        'Expect: the-unexpected\r\nConnection: close\r\n\r\n',
    );
    expect(parseResponses(data).map((r) => r.status)).toEqual([200]);
  });

  // Found by fuzzing on MongoDB: the answer was dropped when the client had half-closed.
  it('answers a client that half-closes once its request is sent', async () => {
    const store = new MemoryPetStore();
    const list = store.listJson.bind(store);
    store.listJson = async (options) => {
      await new Promise((r) => setTimeout(r, 100));
      return list(options);
    };
    const slow = await startTestApi({ store });
    const { data } = await exchange(
      slow.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`,
      { ...SERVER_ENDS, end: true },
    );
    expect(parseResponses(data).map((r) => r.status)).toEqual([200]);
  });

  it('answers a malformed HEAD request with the headers of an Error but no body', async () => {
    const { data } = await exchange(
      api.origin,
      `HEAD /v1/pets HTTP/1.1\r\nHost: ${host}\r\nBad Name: x\r\n\r\n`,
    );
    const text = data.toString('latin1');
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });
});

describe('timeouts', () => {
  it('answers 408 when the headers do not arrive in time (slow loris), then closes', async () => {
    const { data, closedByServer } = await exchange(
      hurried.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `,
      SERVER_ENDS,
    );
    // The server closed the connection with its 408: its own timeout ended the exchange.
    expect(closedByServer).toBe(true);
    expect(onlyError(data, 408).code).toBe('request_timeout');
  });

  it('answers 408 when a request body does not arrive in time, then closes', async () => {
    const { data, closedByServer } = await exchange(
      hurried.origin,
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
      SERVER_ENDS,
    );
    expect(closedByServer).toBe(true);
    const { code, response } = onlyError(data, 408);
    expect(code).toBe('request_timeout');
    expect(response.headers.connection).toBe('close');
  });

  it("answers 408 at Node's request timeout when the body read waits longer, with the request's id", async () => {
    const slow = await startTestApi(
      { bodyTimeoutMs: 10_000 },
      { headersTimeoutMs: 200, requestTimeoutMs: 400 },
    );
    const { data, closedByServer } = await exchange(
      slow.origin,
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
        'X-Request-Id: slow-body-1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
      SERVER_ENDS,
    );
    expect(closedByServer).toBe(true);
    expect(onlyError(data, 408).code).toBe('request_timeout');
    const { response } = onlyError(data, 408);
    // The id the request was given in the application, not a fresh one.
    const requestId = response.headers['x-request-id'];
    expect(requestId).toBe('slow-body-1');
    expect(slow.logs).toContainEqual(
      expect.objectContaining({ msg: 'request refused', status: 408, requestId }),
    );
  });

  it('closes a keep-alive connection idle beyond the keep-alive timeout', async () => {
    const quick = await startTestApi({}, { keepAliveTimeoutMs: 200 });
    const { data, closedByServer, ms } = await exchange(
      quick.origin,
      `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      SERVER_ENDS,
    );
    expect(closedByServer).toBe(true);
    // Never before the keep-alive timeout (a busy machine only makes it later).
    expect(ms).toBeGreaterThanOrEqual(150);
    const [response] = parseResponses(data);
    expect(response?.status).toBe(200);
  });
});

describe('connections', () => {
  it('closes connections beyond the maximum without an answer', async () => {
    const metrics = new ApiMetrics(new Registry(), { processMetrics: false });
    const few = await startTestApi({ metrics }, { maxConnections: 2 });
    const request = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    // Two keep-alive connections, each answered (so the server counts both), stay open while the
    // third one is tried.
    const { port } = new URL(few.origin);
    const held = await Promise.all(
      [1, 2].map(
        () =>
          new Promise<{ socket: Socket; answer: string }>((resolve, reject) => {
            const socket = connect({ host: '127.0.0.1', port: Number(port) }, () =>
              socket.write(request),
            );
            socket.once('data', (chunk) => resolve({ socket, answer: chunk.toString('latin1') }));
            socket.once('error', reject);
          }),
      ),
    );
    try {
      const extra = await exchange(few.origin, request, SERVER_ENDS);
      expect(extra.closedByServer).toBe(true);
      expect(extra.data).toHaveLength(0);
      for (const { answer } of held) expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
    // Read in-process: a scrape could itself be dropped until the server sees the others close.
    const dropped = await metrics.registry.getSingleMetricAsString(
      'http_dropped_connections_total',
    );
    expect(dropped).toMatch(/^http_dropped_connections_total 1$/m);
  });
});

describe('body size', () => {
  it('answers 413 payload_too_large beyond the default 16 KiB', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'x'.repeat(16 * 1024), categoryId: 1 }),
    });
    expect(res.status).toBe(413);
    expect((await errorBody(res)).code).toBe('payload_too_large');
  });

  it('takes a body of exactly the limit, and refuses one byte more', async () => {
    const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const post = (bytes: number) =>
      fetch(`${api.base}/pets`, { method: 'POST', headers: json, body: pet.padEnd(bytes, ' ') });
    expect((await post(BODY_LIMIT_BYTES)).status).toBe(201);
    const beyond = await post(BODY_LIMIT_BYTES + 1);
    expect(beyond.status).toBe(413);
    expect((await errorBody(beyond)).code).toBe('payload_too_large');
  });
});
