import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createLimitedServer,
  DEFAULT_SERVER_LIMITS,
  MAX_HEADER_FIELDS,
  type ServerLimits,
} from '../src/http/server-limits.js';
import { parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses, SERVER_ENDS } from './helpers/raw-http.js';

const api = await startTestApi();
const host = new URL(api.origin).host;

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

/** A server under `limits` whose handler `handle`s each request; `stop` ends it. */
async function limitedServer(
  handle: Parameters<typeof createLimitedServer>[0],
  limits: ServerLimits = DEFAULT_SERVER_LIMITS,
) {
  const sockets: Socket[] = [];
  const server = createLimitedServer(handle, limits);
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    /** Bytes the server has read from every connection. */
    bytesRead: () => sockets.reduce((sum, socket) => sum + socket.bytesRead, 0),
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The most a server reads past MAX_HEADER_BYTES: what one read of the socket can bring. */
const ONE_READ = 256 * 1024;

describe('MAX_HEADER_BYTES', () => {
  it('refuses a 65 KB head sent in one write with 431', async () => {
    const head =
      `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n` +
      `X-Pad: ${'a'.repeat(65_000)}\r\nConnection: close\r\n\r\n`;
    const { data } = await exchange(api.origin, head, SERVER_ENDS);
    only431(data);
  });

  it('refuses a head of many short fields with 431, whatever Node counts of them', async () => {
    const fields = Array.from({ length: 8_100 }, (_, i) => `x:${i % 10}`);
    const head = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n${fields.join('\r\n')}\r\n\r\n`;
    expect(head.length).toBeGreaterThan(DEFAULT_SERVER_LIMITS.maxHeaderBytes * 2);
    const { data } = await exchange(api.origin, head, SERVER_ENDS);
    only431(data);
  });

  it('stops reading a header value of 20 MB, spaces inside it included, and answers 431', async () => {
    const server = await limitedServer((_req, res) => res.end('read'));
    try {
      const padded = Buffer.alloc(20_000_000, ' ');
      const { data } = await exchange(
        server.origin,
        [`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: x`, padded, 'x\r\n\r\n'],
        SERVER_ENDS,
      );
      only431(data);
      expect(server.bytesRead()).toBeLessThanOrEqual(
        DEFAULT_SERVER_LIMITS.maxHeaderBytes + ONE_READ,
      );
    } finally {
      await server.stop();
    }
  });

  it('bounds a head pipelined behind a response still being written', async () => {
    // The first request's answer has begun and never ends; a second head follows it.
    const server = await limitedServer((req, res) => {
      if (req.url === '/slow') res.write('begun');
      else res.end('read');
    });
    try {
      const padding = Buffer.alloc(20_000_000, 'a');
      const { data, closedByServer } = await exchange(
        server.origin,
        [
          'GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
          'GET /next HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ',
          padding,
          '\r\n\r\n',
        ],
        SERVER_ENDS,
      );
      // The answer under way cannot be followed by a 431: the connection closes instead.
      expect(closedByServer).toBe(true);
      expect(data.toString('latin1')).not.toContain('read');
      expect(server.bytesRead()).toBeLessThanOrEqual(
        DEFAULT_SERVER_LIMITS.maxHeaderBytes + ONE_READ,
      );
    } finally {
      await server.stop();
    }
  });

  it("bounds in time what Node does not count: a value's leading white space gets 408", async () => {
    const limits = { ...DEFAULT_SERVER_LIMITS, headersTimeoutMs: 1000, requestTimeoutMs: 1000 };
    const server = await limitedServer((_req, res) => res.end('read'), limits);
    try {
      const spaces = Buffer.alloc(64 * 1024, ' ');
      // Leading white space of a value, sent until the server ends the exchange.
      const chunks = [
        'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad:',
        ...Array.from({ length: 2_000 }, () => spaces),
      ];
      const { data, closedByServer } = await exchange(server.origin, chunks, {
        ...SERVER_ENDS,
        gapMs: 20,
      });
      expect(closedByServer).toBe(true);
      const responses = parseResponses(data);
      expect(responses.map((r) => r.status)).toEqual([408]);
    } finally {
      await server.stop();
    }
  });
});
