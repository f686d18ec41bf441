import { BODY_LIMIT_BYTES } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { DISCARD_LIMIT_BYTES } from '../src/http/unread-bodies.js';
import { startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses, SERVER_ENDS } from './helpers/raw-http.js';

// Node's own timeouts wait far longer than any test step takes: what ends a connection below is
// the API's bound on what it drops (and, where a test says so, the body timeout).
const LONG = { requestTimeoutMs: 600_000, keepAliveTimeoutMs: 600_000 };
const api = await startTestApi({ bodyTimeoutMs: 120_000 }, LONG);
const host = new URL(api.origin).host;

const head = (method: string, ...framing: string[]) =>
  `${[
    `${method} /v1/pets HTTP/1.1`,
    `Host: ${host}`,
    `Authorization: Bearer ${TEST_KEY}`,
    'Content-Type: application/json',
    ...framing,
  ].join('\r\n')}\r\n\r\n`;

/** A request that ends the connection, sent after the one under test on the same connection. */
const lastRequest = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`;

const MIB = 1024 * 1024;
const padded = (bytes: number) => `{"name":"${'x'.repeat(bytes - 30)}","categoryId":1}`;
const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;

describe('a body left unread by the answer to a request with a valid key', () => {
  it('is read and dropped: the 413 keeps the connection, which serves the next request', async () => {
    const body = padded(2 * MIB);
    const { data, closedByServer } = await exchange(
      api.origin,
      [head('POST', `Content-Length: ${body.length}`), body, lastRequest],
      SERVER_ENDS,
    );
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([413, 200]);
    expect(responses[0]?.headers.connection).toBe('keep-alive');
    expect(JSON.parse(responses[0]?.body ?? '').code).toBe('payload_too_large');
    expect(closedByServer).toBe(true);
  });

  it('is read and dropped when chunked, up to its last chunk', async () => {
    const body = padded(MIB);
    const chunks = [body.slice(0, BODY_LIMIT_BYTES), body.slice(BODY_LIMIT_BYTES)].map(chunk);
    const { data } = await exchange(
      api.origin,
      [head('POST', 'Transfer-Encoding: chunked'), ...chunks, '0\r\n\r\n', lastRequest],
      SERVER_ENDS,
    );
    expect(parseResponses(data).map((r) => r.status)).toEqual([413, 200]);
  });

  it('is read and dropped on a request that takes no body', async () => {
    const body = padded(MIB);
    const get = head('GET', `Content-Length: ${body.length}`).replace('/v1/pets ', '/v1/pets/1 ');
    const { data } = await exchange(api.origin, [get, body, lastRequest], SERVER_ENDS);
    expect(parseResponses(data).map((r) => r.status)).toEqual([404, 200]);
  });

  it('closes the connection after the answer when declared beyond what is dropped', async () => {
    const { data, closedByServer } = await exchange(
      api.origin,
      [head('POST', `Content-Length: ${DISCARD_LIMIT_BYTES + 1}`), '{"name":'],
      SERVER_ENDS,
    );
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([413]);
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedByServer).toBe(true);
  });

  it('cuts the connection once a chunked body goes on beyond what is dropped', async () => {
    const piece = chunk('x'.repeat(MIB));
    const endless = Array.from({ length: DISCARD_LIMIT_BYTES / MIB + 2 }, () => piece);
    const { data, closedByServer } = await exchange(
      api.origin,
      [head('POST', 'Transfer-Encoding: chunked'), ...endless],
      SERVER_ENDS,
    );
    expect(parseResponses(data).map((r) => r.status)).toEqual([413]);
    expect(closedByServer).toBe(true);
  });

  it('cuts the connection once the rest of the body is slower than the body timeout', async () => {
    const slow = await startTestApi({ bodyTimeoutMs: 300 }, LONG);
    try {
      // The body stops short of its declared length and never ends: only the timeout ends it.
      const { data, closedByServer } = await exchange(
        slow.origin,
        [head('POST', `Content-Length: ${MIB}`), padded(BODY_LIMIT_BYTES * 2).slice(0, -10)],
        SERVER_ENDS,
      );
      expect(parseResponses(data).map((r) => r.status)).toEqual([413]);
      expect(closedByServer).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('a request waiting for 100 Continue, with a valid key', () => {
  it('is refused a body declared too long before it is asked for it, and the connection closes', async () => {
    const { data, closedByServer } = await exchange(
      api.origin,
      head('POST', `Content-Length: ${2 * MIB}`, 'Expect: 100-continue'),
      SERVER_ENDS,
    );
    expect(data.toString('latin1')).toMatch(/^HTTP\/1\.1 413 /);
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([413]);
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedByServer).toBe(true);
  });

  it('has the connection closed when refused before its body (a 415)', async () => {
    const { data, closedByServer } = await exchange(
      api.origin,
      head('POST', 'Content-Length: 20', 'Expect: 100-continue').replace(
        'application/json',
        'text/plain',
      ),
      SERVER_ENDS,
    );
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([415]);
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedByServer).toBe(true);
  });
});
