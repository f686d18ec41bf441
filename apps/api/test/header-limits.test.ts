import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createLimitedServer,
  DEFAULT_SERVER_LIMITS,
  MAX_HEADER_FIELDS,
} from '../src/http/server-limits.js';
import { parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses } from './helpers/raw-http.js';

const api = await startTestApi();
const host = new URL(api.origin).host;
/** The client waits long enough that only the server can end the exchange. */
const SERVER_ENDS = { waitMs: 120_000 };

function only431(data: Buffer): void {
  const responses = parseResponses(data);
  expect(responses.map((r) => r.status)).toEqual([431]);
  const [response] = responses;
  expect(response?.headers.connection).toBe('close');
  expect(parseErrorBody(response?.headers['content-type'], response?.body ?? '', 431).code).toBe(
    'request_header_fields_too_large',
  );
}

describe('more header fields than the server keeps', () => {
  const request = (fields: string[]) =>
    `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
    `${fields.join('\r\n')}\r\nConnection: close\r\n\r\n`;
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `X-F${i}: ${i}`);

  it('are refused with 431, so a second Authorization cannot hide past them', async () => {
    const fields = [...filler(1_100), 'Authorization: Bearer someone-else-entirely'];
    const { data } = await exchange(api.origin, request(fields), SERVER_ENDS);
    only431(data);
  });

  it.each([
    // Host, Authorization and Connection are three of them.
    ['one past the most the server keeps', MAX_HEADER_FIELDS - 2, 431],
    ['the most the server keeps', MAX_HEADER_FIELDS - 3, 200],
  ])('answer %s with %i fillers: %i', async (_, fillers, status) => {
    const { data } = await exchange(api.origin, request(filler(fillers)), SERVER_ENDS);
    expect(parseResponses(data).map((r) => r.status)).toEqual([status]);
  });
});

describe('MAX_HEADER_BYTES', () => {
  it('bounds 8,100 small headers, which Node alone counts as under the limit', async () => {
    const fields = Array.from({ length: 8_100 }, (_, i) => `x:${i % 10}`);
    const head = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n${fields.join('\r\n')}\r\n\r\n`;
    expect(head.length).toBeGreaterThan(DEFAULT_SERVER_LIMITS.maxHeaderBytes * 2);
    const { data } = await exchange(api.origin, head, SERVER_ENDS);
    only431(data);
  });

  it('stops reading a header padded with 20 MB of spaces, and answers 431', async () => {
    const sockets: Socket[] = [];
    const server = createLimitedServer((_req, res) => res.end('read'), DEFAULT_SERVER_LIMITS);
    server.on('connection', (socket: Socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const padded = Buffer.alloc(20_000_000, ' ');
      const { data } = await exchange(
        `http://127.0.0.1:${port}`,
        [`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad:`, padded, 'x\r\n\r\n'],
        SERVER_ENDS,
      );
      only431(data);
      const read = sockets.reduce((sum, socket) => sum + socket.bytesRead, 0);
      // The limit, and at most one read of the socket past it.
      expect(read).toBeLessThanOrEqual(DEFAULT_SERVER_LIMITS.maxHeaderBytes + 256 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
