import { BODY_LIMIT_BYTES } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { DISCARD_LIMIT_BYTES } from '../src/http/unread-bodies.js';
import { parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses, SERVER_ENDS } from './helpers/raw-http.js';

// The default timeouts: a server that waited for the body would answer nothing within the test's
// wait, and a short timeout would only turn a busy machine's delay into a 408.
const api = await startTestApi();
const host = new URL(api.origin).host;
const body = JSON.stringify({ name: 'Rex', categoryId: 1 });

describe('a request with a body and no valid key', () => {
  const keyless = (...framing: string[]) =>
    `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer wrong\r\n` +
    `Content-Type: application/json\r\n${framing.map((line) => `${line}\r\n`).join('')}\r\n`;
  const lastRequest = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`;

  it('gets its 401 at once, and its body, up to what a create may carry, is read and dropped: the connection serves the next request', async () => {
    // Chunks keep coming after the answer, as from a front still sending the body: they are
    // read, so no reset of unread bytes can take the 401 away.
    const chunks = [
      keyless('Transfer-Encoding: chunked'),
      ...Array.from({ length: 15 }, () => '1\r\n \r\n'),
    ];
    const { data, closedByServer } = await exchange(
      api.origin,
      [...chunks, '0\r\n\r\n', lastRequest],
      { ...SERVER_ENDS, gapMs: 100 },
    );
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([401, 200]);
    expect(responses[0]?.headers.connection).toBe('keep-alive');
    expect(closedByServer).toBe(true);
  });

  it('has its connection closed after the 401 when its body is declared longer than a create may carry', async () => {
    const { data, closedByServer } = await exchange(
      api.origin,
      keyless(`Content-Length: ${BODY_LIMIT_BYTES + 1}`),
      SERVER_ENDS,
    );
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([401]);
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedByServer).toBe(true);
  });

  it('reads no more than BODY_LIMIT_BYTES as configured, nor than 4 MiB: a body declared longer closes the connection', async () => {
    const small = await startTestApi({ bodyLimitBytes: 64 });
    const host = new URL(small.origin).host;
    const head = (length: number) =>
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer wrong\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const last = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`;
    try {
      const within = parseResponses(
        (await exchange(small.origin, [head(64), 'x'.repeat(64), last], SERVER_ENDS)).data,
      );
      expect(within.map((r) => r.status)).toEqual([401, 200]);
      // Declared longer, the body is not sent: no byte of it is left unread when it closes.
      const beyond = parseResponses((await exchange(small.origin, head(65), SERVER_ENDS)).data);
      expect(beyond.map((r) => r.status)).toEqual([401]);
      expect(beyond[0]?.headers.connection).toBe('close');
    } finally {
      await small.close();
    }
    // Nor more than a keyed request's refused body, however large a create may be.
    const large = await startTestApi({ bodyLimitBytes: 2 * DISCARD_LIMIT_BYTES });
    try {
      const post = head(DISCARD_LIMIT_BYTES + 1).replace(host, new URL(large.origin).host);
      const [answer] = parseResponses((await exchange(large.origin, post, SERVER_ENDS)).data);
      expect(answer?.status).toBe(401);
      expect(answer?.headers.connection).toBe('close');
    } finally {
      await large.close();
    }
  });

  it('has its connection cut once its chunked body goes on beyond what a create may carry', async () => {
    const piece = 'x'.repeat(BODY_LIMIT_BYTES / 2);
    const chunk = `${piece.length.toString(16)}\r\n${piece}\r\n`;
    const { data, closedByServer } = await exchange(
      api.origin,
      [keyless('Transfer-Encoding: chunked'), chunk, chunk, chunk, '0\r\n\r\n', lastRequest],
      SERVER_ENDS,
    );
    expect(parseResponses(data).map((r) => r.status)).toEqual([401]);
    expect(closedByServer).toBe(true);
  });

  it('is not told to send its body (no 100 Continue) before its key is checked', async () => {
    const head =
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer wrong\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      'Expect: 100-continue\r\n\r\n';
    const { data, closedByServer } = await exchange(api.origin, head, SERVER_ENDS);
    expect(closedByServer).toBe(true);
    expect(data.toString('latin1')).toMatch(/^HTTP\/1\.1 401 /);
    const [answer, ...rest] = parseResponses(data);
    expect(answer?.status).toBe(401);
    expect(parseErrorBody(answer?.headers['content-type'], answer?.body ?? '', 401).code).toBe(
      'unauthorized',
    );
    expect(rest).toEqual([]);
  });
});

describe('a request with a body and a valid key', () => {
  it('is told to send its body with 100 Continue when it expects it', async () => {
    const head =
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      'Expect: 100-continue\r\nConnection: close\r\n\r\n';
    // The body follows the interim answer, as a client waiting for it sends it.
    const { data } = await exchange(api.origin, [head, body], { ...SERVER_ENDS, gapMs: 300 });
    expect(data.toString('latin1')).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});
