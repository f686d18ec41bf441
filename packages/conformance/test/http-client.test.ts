import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HttpClient, RequestError } from '../src/http/client.js';

/** A server that answers every request with `head` and `body`, then closes the connection. */
async function rawServer(head: string, body: string) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => socket.end(`${head}\r\n\r\n${body}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function client(baseUrl: string): HttpClient {
  return new HttpClient({
    baseUrl,
    apiKey: 'k',
    timeoutMs: 10_000,
    maxRetries: 0,
    maxRetryWaitMs: 0,
    userAgent: 'test',
    fetch: globalThis.fetch,
  });
}

describe('HttpClient', () => {
  it('names a Content-Length larger than the body the server sent', async () => {
    const server = await rawServer(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100',
      '[]',
    );
    try {
      const error = await client(server.baseUrl)
        .send({ method: 'GET', path: '/pets' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).reason).toBe(
        'the server declared Content-Length: 100 but sent 2 bytes of body and closed the connection',
      );
    } finally {
      await server.close();
    }
  });

  it('reads a body whose Content-Length is right', async () => {
    const server = await rawServer(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2',
      '[]',
    );
    try {
      const res = await client(server.baseUrl).send({ method: 'GET', path: '/pets' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
