import { createServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Outgoing } from '../src/http/client.js';
import { RawConnection } from '../src/http/raw-connection.js';

/** What the server does with a request: writes bytes, writes them and ends, or closes at once. */
type Answer =
  | string
  | Buffer
  | { readonly endWith: string }
  | { readonly inPieces: readonly string[] }
  | 'close';

/**
 * A TCP server on 127.0.0.1 that answers the Nth request (N from 0, counted over every connection)
 * as `answers[N]` says once its head has come.
 */
async function scriptedServer(answers: readonly Answer[]) {
  let n = 0;
  const connections: Socket[] = [];
  const heads: string[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    let data = '';
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      for (let end = data.indexOf('\r\n\r\n'); end !== -1; end = data.indexOf('\r\n\r\n')) {
        const head = data.slice(0, end);
        heads.push(head);
        data = data.slice(end + 4);
        // The body, which the tests send whole with the head: skipped.
        const length = /\r\ncontent-length: (\d+)/i.exec(head);
        if (length !== null) data = data.slice(Number(length[1]));
        if (/\r\ntransfer-encoding: chunked/i.test(head)) {
          data = data.slice(data.indexOf('0\r\n\r\n') + 5);
        }
        const answer = answers[n++];
        if (answer === 'close') socket.destroy();
        else if (typeof answer === 'object' && 'endWith' in answer) socket.end(answer.endWith);
        else if (typeof answer === 'object' && 'inPieces' in answer) writeInPieces(socket, answer);
        else if (answer !== undefined) socket.write(answer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/pets`,
    connections,
    heads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes each piece 20 ms after the last, so that the client reads most of them apart: however
 * they come, the answer is the same.
 */
function writeInPieces(socket: Socket, { inPieces }: { readonly inPieces: readonly string[] }) {
  inPieces.forEach((piece, i) => {
    setTimeout(() => socket.write(piece), 20 * i);
  });
}

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function started(answers: readonly Answer[]) {
  const server = await scriptedServer(answers);
  servers.push(server);
  return server;
}

/** Runs `use` with a new raw connection, closed after it. */
async function onOneConnection(use: (connection: RawConnection) => Promise<void>): Promise<void> {
  const connection = new RawConnection();
  try {
    await use(connection);
  } finally {
    connection.close();
  }
}

/** A GET, and a POST of `{}`, as a connection sends them. */
const get = (url: string, timeoutMs = 5_000): Outgoing => ({
  url,
  method: 'GET',
  headers: {},
  body: undefined,
  chunked: false,
  timeoutMs,
});
const post = (url: string, chunked: boolean): Outgoing => ({
  ...get(url),
  method: 'POST',
  body: Buffer.from('{}'),
  chunked,
});

const ok = (body: string) => `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

describe('a raw connection', () => {
  it('reads the bytes that follow an answer as the next answer, whatever the server meant', async () => {
    const server = await started([
      `${ok('[]')}HTTP/1.1 400 Bad Request\r\ncontent-length: 3\r\n\r\nbad`,
    ]);
    await onOneConnection(async (connection) => {
      const first = await connection.send(post(server.url, true));
      expect([first.status, await first.text()]).toEqual([200, '[]']);
      const second = await connection.send(get(server.url));
      expect([second.status, await second.text()]).toEqual([400, 'bad']);
      expect(server.connections).toHaveLength(1);
    });
  });

  it('writes a chunked body with its head, and a Content-Length one otherwise', async () => {
    const server = await started([ok('a'), ok('b')]);
    await onOneConnection(async (connection) => {
      await connection.send({
        url: server.url,
        method: 'POST',
        headers: { a: 'b' },
        body: Buffer.from('{}'),
        chunked: true,
        timeoutMs: 5_000,
      });
      await connection.send(post(server.url, false));
      expect(server.heads[0]).toMatch(
        /^POST \/v1\/pets HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\na: b\r\ntransfer-encoding: chunked$/,
      );
      expect(server.heads[1]).toMatch(/\r\ncontent-length: 2$/);
      expect(server.heads).toHaveLength(2);
    });
  });

  it('skips a 100 Continue and reads a chunked body with a trailer, and a gzipped one', async () => {
    const gzipped = gzipSync('[1]');
    const server = await started([
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n1\r\n \r\n0\r\nx-t: 1\r\n\r\n',
      Buffer.concat([
        Buffer.from(
          `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${gzipped.length}\r\n\r\n`,
        ),
        gzipped,
      ]),
    ]);
    await onOneConnection(async (connection) => {
      const created = await connection.send(post(server.url, false));
      expect([created.status, await created.text()]).toEqual([201, '[] ']);
      const listed = await connection.send(get(server.url));
      expect(await listed.text()).toBe('[1]');
    });
  });

  it('reads a body that ends with the connection, and sends the next request on a new one', async () => {
    const server = await started([{ endWith: 'HTTP/1.1 200 OK\r\n\r\n[]' }, 'close', ok('x')]);
    await onOneConnection(async (connection) => {
      const first = await connection.send(get(server.url));
      expect(await first.text()).toBe('[]');
      // A connection closed before any answer: the kit's client sends an idempotent request again.
      await expect(connection.send(get(server.url))).rejects.toThrow('socket hang up');
      const third = await connection.send(get(server.url));
      expect(await third.text()).toBe('x');
      expect(server.connections).toHaveLength(3);
    });
  });

  it('sends the next request on a new connection after an answer that says connection: close', async () => {
    const server = await started([
      `HTTP/1.1 401 Unauthorized\r\nConnection: close\r\ncontent-length: 2\r\n\r\n{}`,
      ok('[]'),
    ]);
    await onOneConnection(async (connection) => {
      expect((await connection.send(post(server.url, true))).status).toBe(401);
      expect((await connection.send(get(server.url))).status).toBe(200);
      expect(server.connections).toHaveLength(2);
    });
  });

  it('sends the next request on a new connection after a request that asked to close', async () => {
    const server = await started([ok('[]'), ok('[]')]);
    await onOneConnection(async (connection) => {
      const closing = { ...get(server.url), headers: { connection: 'keep-alive, close' } };
      expect((await connection.send(closing)).status).toBe(200);
      expect((await connection.send(get(server.url))).status).toBe(200);
      expect(server.connections).toHaveLength(2);
    });
  });

  it('reads what follows the last answer until the server closes, once the kit half-closed', async () => {
    const extra = 'HTTP/1.1 400 Bad Request\r\ncontent-length: 3\r\n\r\nbad';
    const server = await started([
      `HTTP/1.1 401 Unauthorized\r\nConnection: close\r\ncontent-length: 2\r\n\r\n{}${extra}`,
      ok('[]'),
    ]);
    await onOneConnection(async (connection) => {
      expect((await connection.send(post(server.url, true))).status).toBe(401);
      // The server ends its side only once it has read the kit's end.
      const after = await connection.afterLastAnswer();
      expect([after.bytes.toString('latin1'), after.closed]).toEqual([extra, true]);
      expect((await connection.send(get(server.url))).status).toBe(200);
      expect(server.connections).toHaveLength(2);
      expect((await connection.afterLastAnswer()).bytes).toHaveLength(0);
    });
    // Before any request and after the end, there is nothing to read.
    const other = await started([ok('[]')]);
    await onOneConnection(async (connection) => {
      expect(await connection.afterLastAnswer()).toEqual({ bytes: Buffer.alloc(0), closed: true });
      await connection.send(get(other.url));
      connection.close();
      expect(await connection.afterLastAnswer()).toMatchObject({ closed: true });
    });
  });

  it("tells a connection the server keeps open past the request's timeout from a closed one", async () => {
    const open = createServer({ allowHalfOpen: true }, (socket) => {
      socket.once('data', () => socket.write(ok('[]')));
    });
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    const { port } = open.address() as { port: number };
    try {
      await onOneConnection(async (connection) => {
        expect((await connection.send(get(`http://127.0.0.1:${port}/v1/pets`, 100))).status).toBe(
          200,
        );
        const after = await connection.afterLastAnswer();
        expect([after.bytes.length, after.closed]).toEqual([0, false]);
      });
    } finally {
      open.close();
    }
  });

  it('reads an answer that comes in pieces, split in its head, a chunk size or a body', async () => {
    const server = await started([
      {
        inPieces: [
          'HTTP/1.1 200 OK\r\ntransfer-',
          'encoding: chunked\r\n\r',
          '\n1',
          '0\r\n[1,2,3,4,5,',
          '6,77]\r',
          '\n0\r\n',
          '\r\n',
        ],
      },
      { inPieces: ['HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n[', '1', ',2]'] },
    ]);
    await onOneConnection(async (connection) => {
      expect(await (await connection.send(get(server.url))).text()).toBe('[1,2,3,4,5,6,77]');
      expect(await (await connection.send(get(server.url))).text()).toBe('[1,2]');
      expect(server.connections).toHaveLength(1);
    });
  });

  it('reads no body after a 204 or a 304, and a new connection after "keep-alive, close"', async () => {
    const server = await started([
      `HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\ncontent-length: 9\r\n\r\n${ok('[]')}`,
      '',
      '',
      'HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\ncontent-length: 1\r\n\r\ny',
      ok('z'),
    ]);
    await onOneConnection(async (connection) => {
      const answers: [number, string][] = [];
      for (let i = 0; i < 3; i++) {
        const res = await connection.send(get(server.url));
        answers.push([res.status, await res.text()]);
      }
      // The third answer is the bytes after the 304: no body was taken for either.
      expect(answers).toEqual([
        [204, ''],
        [304, ''],
        [200, '[]'],
      ]);
      expect(await (await connection.send(get(server.url))).text()).toBe('y');
      expect(await (await connection.send(get(server.url))).text()).toBe('z');
      expect(server.connections).toHaveLength(2);
    });
  });

  it('refuses bytes that are no HTTP answer, and a chunk without a size, then opens anew', async () => {
    const server = await started([
      '{"id":1}\r\n\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
    ]);
    await onOneConnection(async (connection) => {
      await expect(connection.send(get(server.url))).rejects.toThrow(
        'not an HTTP answer: "{\\"id\\":1}"',
      );
      await expect(connection.send(get(server.url))).rejects.toThrow(
        'a chunk of the answer has no size',
      );
      expect(server.connections).toHaveLength(2);
    });
  });

  it('gives up on a connection that does not open within the timeout', async () => {
    // A TLS connection to a server that never answers its handshake never opens.
    const server = await started([]);
    await onOneConnection(async (connection) => {
      const url = server.url.replace('http:', 'https:');
      await expect(connection.send(get(url, 50))).rejects.toMatchObject({ name: 'TimeoutError' });
    });
  });

  it('gives up on an answer that does not come within the timeout', async () => {
    const server = await started([]);
    await onOneConnection(async (connection) => {
      await expect(connection.send(get(server.url, 50))).rejects.toMatchObject({
        name: 'TimeoutError',
      });
    });
  });
});
