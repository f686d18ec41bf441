// The proxy (`startProxy`, in-process) in front of targets that answer in every way HTTP lets
// them: compressed, chunked and empty bodies passed on as they came and judged on their content,
// answers given before a body has all come, connections closed, answers cut off or streamed. It
// changes Host alone, adds nothing, keeps its connection to the target alive, answers 502 for a
// target it cannot reach or whose answer is not HTTP, and closes once the exchanges in flight
// have finished. It answers clients that half-close, HTTP/1.0 clients and long header lines, and
// answers what it cannot read itself, naming itself.
import { Agent, createServer, get, type IncomingMessage, request } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  type AddressInfo,
  connect,
  createServer as createTcpServer,
  type Server,
  type Socket,
} from 'node:net';
import * as tls from 'node:tls';
import * as zlib from 'node:zlib';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { onFreePort, selfSignedCertificate } from '@animal-store/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type RecordedExchange, startProxy, TrafficJudge } from '../src/index.js';
import { requestsIn } from './support/tcp-tap.js';
import { scratch } from './support/traffic.js';

const files = scratch();
/** Node's default CAs, set at run time since Node 22.19 (after the @types/node the repo pins). */
const defaultCas = tls as typeof tls & {
  getCACertificates(type: 'default'): string[];
  setDefaultCACertificates(certs: readonly string[]): void;
};
const stoppable: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(stoppable.splice(0).map((s) => s.stop()));
});
afterAll(() => files.remove());

/** A server on 127.0.0.1 that `stoppable` closes; its origin. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stoppable.push({
    stop: () =>
      new Promise((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The proxy in front of `origin`, each exchange kept and handed to `onExchange`; `stoppable`
 * closes it.
 */
async function proxyTo(origin: string, onExchange?: (e: RecordedExchange) => void) {
  const exchanges: RecordedExchange[] = [];
  const proxy = await startProxy({
    target: `${origin}/v1`,
    onExchange: (e) => {
      exchanges.push(e);
      onExchange?.(e);
    },
  });
  stoppable.push({ stop: () => proxy.close() });
  return { proxy, exchanges };
}

/**
 * Listens with `server` on 127.0.0.1, and starts the proxy (from the library) in front of it;
 * `onExchange` sees each exchange the proxy records before the judge does.
 */
async function proxyInFront(server: Server, onExchange?: (e: RecordedExchange) => void) {
  const origin = await listening(server);
  const judge = new TrafficJudge({ base: `${origin}/v1`, source: 'test' });
  const { proxy } = await proxyTo(origin, (e) => {
    onExchange?.(e);
    void judge.add(e);
  });
  return { judge, proxy };
}

/** zstd, which Node 24 (the kit's tests' Node) writes: @types/node is older. */
const zstdCompressSync = (zlib as unknown as { zstdCompressSync: (text: string) => Buffer })
  .zstdCompressSync;

describe('the proxy in front of a target', () => {
  it.each([
    ['gzip', gzipSync],
    ['zstd', zstdCompressSync],
  ] as const)('judges a compressed answer (%s) on its content, and passes the compressed bytes on', async (coding, compress) => {
    const pets = [1, 2, 3].map((id) => ({ id, name: 'Rex', categoryId: 1 }));
    const gzipped = compress(JSON.stringify(pets));
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(gzipped);
    });
    const { judge, proxy } = await proxyInFront(server);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      // node:http, which leaves the body as it came: fetch would undo the gzip.
      get(
        `${proxy.origin}/v1/pets?limit=2`,
        { headers: { authorization: 'Bearer k3y-of-test' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        },
      ).on('error', reject);
    });
    expect(raw.equals(gzipped)).toBe(true);
    await proxy.close();
    const report = await judge.report();
    const outcome = (id: string) => report.results.find((r) => r.id === id)?.outcome;
    expect(outcome('listPets.at-most-limit')).toBe('fail');
    expect(outcome('errors.strict-json')).toBe('pass');
    expect(outcome('errors.pet-fields')).toBe('pass');
  });

  it('judges a createPet body the client sent chunked, once it has all come', async () => {
    // A server that creates whatever it is sent: once the body has come, or at once (`?early`).
    const creator = () =>
      createServer((req, res) => {
        const answer = () => {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end('{"id":1,"name":"Rex","categoryId":1}');
        };
        if (req.url?.endsWith('?early')) answer();
        else req.resume().on('end', answer);
      });
    /** POSTs `first`, then `rest` once the answer has come (`?early`) or right after. */
    const post = (origin: string, path: string, first: string, rest: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request(
          `${origin}/v1${path}`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer k3y-of-test' },
          },
          (res) => {
            if (path.endsWith('?early')) req.end(rest);
            res.resume().on('end', resolve);
          },
        );
        req.on('error', reject);
        // No Content-Length: node:http sends the pieces chunked.
        req.write(first);
        if (!path.endsWith('?early')) req.end(rest);
      });

    const whole = await proxyInFront(creator());
    await post(whole.proxy.origin, '/pets', '{"categoryId"', ':1}');
    await whole.proxy.close();
    const report = await whole.judge.report();
    const missing = report.results.find((r) => r.id === 'createPet.missing-name');
    expect(missing?.outcome).toBe('fail');
    expect(missing?.message).toMatch(/the body has no name/);

    // Answered before the rest of the body came: what the proxy saw is no whole body.
    const cut = await proxyInFront(creator());
    await post(cut.proxy.origin, '/pets?early', '{"categoryId"', ':1}');
    await cut.proxy.close();
    const unjudged = await cut.judge.report();
    expect(unjudged.traffic?.judged).toBe(1);
    expect(unjudged.results.filter((r) => r.outcome === 'fail')).toEqual([]);
  });

  it('judges a createPet body declared empty, and keeps no body for a request that declared none', async () => {
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        res.end(req.method === 'POST' ? '{"id":1,"name":"Rex","categoryId":1}' : '[]');
      });
    });
    const seen: string[] = [];
    const { judge, proxy } = await proxyInFront(server, (e) =>
      seen.push(
        'requestBody' in e
          ? `${JSON.stringify(e.requestBody)}, whole: ${e.requestBodyWhole}`
          : 'no body',
      ),
    );
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k3y-of-test' };
    // fetch declares an empty body with Content-Length: 0; a GET declares none, and so does a
    // POST with neither Content-Length nor Transfer-Encoding (RFC 9112 §6.3).
    await (await fetch(`${proxy.origin}/v1/pets`, { method: 'POST', headers, body: '' })).text();
    await (await fetch(`${proxy.origin}/v1/pets?limit=1`, { headers })).text();
    const bodiless = await rawText(
      proxy.origin,
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n',
    );
    expect(bodiless).toMatch(/^HTTP\/1\.1 201 /);
    await proxy.close();
    const report = await judge.report();
    expect(seen).toEqual(['"", whole: true', 'no body', 'no body']);
    const empty = report.results.find((r) => r.id === 'createPet.empty-body');
    expect(empty?.outcome).toBe('fail');
    expect(empty?.message).toMatch(
      /POST \/pets answered 201: the body is empty: createPet refuses/,
    );
  });

  it('passes on an answer the target gave before the body and closed after, as axum does', async () => {
    // hyper answers a request it refuses on its head alone and closes the connection (RFC 9112
    // §9.6 lets it), with a TCP reset when the body's first bytes came unread. A later write of
    // the body then fails, and node:http drops the answer when that failure comes first: here the
    // client's next piece reaches the proxy as the answer does, and is read first; or it comes
    // once the client has the answer.
    const refusal = '{"code":"unauthorized","message":"no key","status":401}';
    let beforeAnswer = () => {};
    let received: Buffer[] = [];
    const early = (close: 'end' | 'reset') =>
      createTcpServer((socket) => {
        const index = received.push(Buffer.alloc(0)) - 1;
        socket.on('data', (data: Buffer) => {
          received[index] = Buffer.concat([received[index] as Buffer, data]);
        });
        socket.once('data', () => {
          beforeAnswer();
          socket.write(
            `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${refusal.length}\r\n\r\n${refusal}`,
          );
          if (close === 'end') socket.end();
          else socket.resetAndDestroy();
        });
        socket.on('error', () => {});
      });
    /** POSTs a NewPet without a key, chunked: its first piece, the rest as the target answers or after. */
    const post = (origin: string, restAfterAnswer: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${origin}/v1/pets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          if (restAfterAnswer) req.end('"categoryId":1}');
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        beforeAnswer = () => {
          beforeAnswer = () => {};
          if (!restAfterAnswer) req.end('"categoryId":1}');
        };
        req.write('{"name":"Rex",');
      });
    for (const [close, restAfterAnswer] of [
      ['end', false],
      ['reset', false],
      ['end', true],
      ['reset', true],
    ] as const) {
      received = [];
      const { judge, proxy } = await proxyInFront(early(close));
      const how = `${close}, the rest ${restAfterAnswer ? 'after' : 'as'} the answer`;
      expect(await post(proxy.origin, restAfterAnswer), how).toEqual({
        status: 401,
        body: refusal,
      });
      await proxy.close();
      const report = await judge.report();
      expect(report.traffic?.judged, how).toBe(1);
      expect(report.traffic?.notAnswered, how).toBe(0);
      // Sent again at most once (never once the answer came), and then with the whole body.
      expect(received.length, how).toBeLessThanOrEqual(restAfterAnswer ? 1 : 2);
      for (const again of received.slice(1)) {
        expect(requestsIn(again)[0]?.body.toString(), how).toBe('{"name":"Rex","categoryId":1}');
      }
    }
  });

  it('answers 502 when the target closes without an answer on the request sent again too', async () => {
    const rest = '"categoryId":1}';
    let connections = 0;
    let sendRest = () => {};
    const target = createTcpServer((socket) => {
      connections += 1;
      socket.once('data', () => {
        sendRest();
        socket.resetAndDestroy();
      });
      socket.on('error', () => {});
    });
    const { judge, proxy } = await proxyInFront(target);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${proxy.origin}/v1/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      sendRest = () => {
        sendRest = () => {};
        req.end(rest);
      };
      req.write('{"name":"Rex",');
    });
    expect(status).toBe(502);
    expect(connections).toBe(2);
    await proxy.close();
    expect((await judge.report()).traffic?.notAnswered).toBe(1);
  });

  it('answers 502 and sends a POST the target had whole never again: an answer not HTTP, a reset', async () => {
    // Only a lost connection sends a request again, and a POST only when its body had not all
    // gone (RFC 9112 §9.3.1): a target that read it whole may have created the pet.
    const fates: [string, (socket: Socket) => void, RegExp][] = [
      [
        'answers bytes that are not HTTP',
        (socket) => socket.end('PETS 200 OK\r\n\r\n'),
        /Parse Error/,
      ],
      ['resets the connection', (socket) => socket.resetAndDestroy(), /ECONNRESET|socket hang up/],
    ];
    for (const [fate, end, reason] of fates) {
      let connections = 0;
      const target = createTcpServer((socket) => {
        connections += 1;
        let received = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          received += chunk;
          if (received.endsWith('"categoryId":1}')) end(socket);
        });
        socket.on('error', () => {});
      });
      const { judge, proxy } = await proxyInFront(target);
      const answer = await new Promise<Awaited<ReturnType<typeof answerOf>>>((resolve, reject) => {
        const post = { method: 'POST', headers: { 'content-type': 'application/json' } };
        request(`${proxy.origin}/v1/pets`, post, (res) => answerOf(res).then(resolve, reject))
          .on('error', reject)
          .end('{"name":"Rex","categoryId":1}');
      });
      expect(answer.status, fate).toBe(502);
      expect(answer.body, fate).toMatch(/ gave no answer: /);
      expect(answer.body, fate).toMatch(reason);
      expect(connections, fate).toBe(1);
      await proxy.close();
      expect((await judge.report()).traffic?.notAnswered, fate).toBe(1);
    }
  });

  it('sends a request again on a new connection when the target closed the kept-alive one', async () => {
    // hyper closes a connection after an answer it gave on the head alone, without
    // Connection: close; the agent may already have sent the next request on it.
    const pets = '[]';
    let connections = 0;
    const target = createTcpServer((socket) => {
      connections += 1;
      let answered = false;
      socket.on('data', () => {
        if (answered) return void socket.end();
        answered = true;
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${pets.length}\r\n\r\n${pets}`,
        );
      });
      socket.on('error', () => {});
    });
    const { judge, proxy } = await proxyInFront(target);
    const list = () =>
      new Promise<number>((resolve, reject) => {
        request(`${proxy.origin}/v1/pets`, (res) => {
          res.resume().on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    expect([await list(), await list()]).toEqual([200, 200]);
    // The second request on the first connection, and again on a new one.
    expect(connections).toBe(2);
    await proxy.close();
    const { traffic } = await judge.report();
    expect([traffic?.judged, traffic?.notAnswered]).toEqual([2, 0]);
  });

  it('sends nothing again when the client goes away before its body has all come', async () => {
    let connections = 0;
    let goAway = () => {};
    const target = createTcpServer((socket) => {
      connections += 1;
      socket.once('data', () => {
        goAway();
        socket.write('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
        socket.resetAndDestroy();
      });
      socket.on('error', () => {});
    });
    const { judge, proxy } = await proxyInFront(target);
    await new Promise<void>((resolve) => {
      const req = request(`${proxy.origin}/v1/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('error', () => {});
      req.on('close', () => resolve());
      // The next piece reaches the proxy with the answer and the reset; when its write fails
      // first, the answer is lost, and the client then goes away with its body cut.
      goAway = () => {
        goAway = () => {};
        req.write('"categoryId"', () => setTimeout(() => req.destroy(), 50));
      };
      req.write('{"name":"Rex",');
    });
    await proxy.close();
    // Whether the answer or the failed write came first, the cut body went nowhere again.
    expect(connections).toBe(1);
    expect((await judge.report()).traffic?.exchanges).toBe(1);
  });

  it('cuts the answer off where the target does, and counts the exchange once, unanswered', async () => {
    const target = createTcpServer((socket) => {
      socket.once('data', () => {
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{"id":1',
        );
        setImmediate(() => socket.resetAndDestroy());
      });
      socket.on('error', () => {});
    });
    const exchanges: RecordedExchange[] = [];
    const { judge, proxy } = await proxyInFront(target, (e) => exchanges.push(e));
    const seen = await new Promise<string>((resolve) => {
      get(`${proxy.origin}/v1/pets`, (res) => {
        res.on('error', (error) => resolve(`${res.statusCode}, then ${error.message}`));
        res.on('end', () => resolve(`${res.statusCode}, whole`));
        res.resume();
      }).on('error', (error) => resolve(error.message));
    });
    expect(seen).toBe('200, then aborted');
    await proxy.close();
    // Recorded as no answer: neither the head nor the part of the body that came.
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ status: 0, responseHeaders: [] });
    expect(exchanges[0]).not.toHaveProperty('responseBody');
    const report = await judge.report();
    expect(report.traffic?.judged).toBe(0);
    expect(report.traffic?.notAnswered).toBe(1);
  });

  it('streams an answer: its first bytes reach the client while the target holds the rest', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":1,"name":"Rex","categoryId":1}');
      void held.then(() => res.end(']'));
    });
    const { judge, proxy } = await proxyInFront(server);
    const body = await new Promise<string>((resolve, reject) => {
      get(`${proxy.origin}/v1/pets`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          // The first piece came through before the target finished: now let it finish.
          if (text === '') release();
          text += chunk;
        });
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(body).toBe('[{"id":1,"name":"Rex","categoryId":1}]');
    await proxy.close();
    const report = await judge.report();
    expect(report.results.find((r) => r.id === 'errors.pet-fields')?.outcome).toBe('pass');
  });
});

/**
 * Writes `bytes` on a new connection, half-closing it after them when `halfClose`; all the text
 * that comes back until the proxy closes the connection. `onText` sees the text so far as it
 * comes.
 */
function rawText(
  origin: string,
  bytes: string,
  halfClose = false,
  onText: (text: string, socket: Socket) => void = () => {},
): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write(bytes);
      if (halfClose) socket.end();
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      onText(text, socket);
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** An answer node:http received: its status, raw header lines and body, once it has all come. */
function answerOf(
  res: IncomingMessage,
): Promise<{ status?: number; headers: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      body += chunk;
    });
    res.on('end', () => resolve({ status: res.statusCode, headers: res.rawHeaders, body }));
    res.on('error', reject);
  });
}

/**
 * A raw target that answers each request `200 []` once its head and any Content-Length body have
 * come, keeping each connection's request heads, and a promise of each connection's close.
 */
function headsPerConnection() {
  const perConnection: string[][] = [];
  const closed: Promise<void>[] = [];
  const target = createTcpServer((socket) => {
    const heads: string[] = [];
    perConnection.push(heads);
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    let buffered = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) break;
        heads.push(head);
        buffered = buffered.slice(end + 4 + length);
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]',
        );
      }
    });
    socket.on('error', () => {});
  });
  return { target, perConnection, closed };
}

/** The answer to a GET of `url` with node:http (`answerOf`). */
function rawGet(url: string): ReturnType<typeof answerOf> {
  return new Promise((resolve, reject) => {
    get(url, (res) => answerOf(res).then(resolve, reject)).on('error', reject);
  });
}

describe('what the proxy changes on the way, and what it keeps', () => {
  it("sends the client's header lines as written, Host alone set to the target's, once", async () => {
    const received: string[][] = [];
    const target = await listening(
      createServer((req, res) => {
        received.push(req.rawHeaders);
        res.end();
      }),
    );
    const { proxy } = await proxyTo(target);
    await rawText(
      proxy.origin,
      'GET /v1/pets?limit=1 HTTP/1.1\r\nX-First: 1\r\nhost: client.example\r\nx-SECOND: two\r\nConnection: close\r\n\r\n',
    );
    expect(received).toEqual([
      ['X-First', '1', 'host', new URL(target).host, 'x-SECOND', 'two', 'Connection', 'close'],
    ]);
  });

  it("passes the answer's header lines on as the target wrote them, adding none, not even Date", async () => {
    const target = await listening(
      createServer((_req, res) => {
        res.sendDate = false;
        res.writeHead(200, 'Fine', ['X-B', '1', 'content-type', 'application/json', 'x-a', '2']);
        res.end('[]');
      }),
    );
    const { proxy } = await proxyTo(target);
    const direct = await rawGet(`${target}/v1/pets`);
    const through = await rawGet(`${proxy.origin}/v1/pets`);
    expect(direct.headers).not.toContain('Date');
    expect(through).toEqual(direct);
    const raw = await rawText(
      proxy.origin,
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(
      /^HTTP\/1\.1 200 Fine\r\nX-B: 1\r\ncontent-type: application\/json\r\nx-a: 2\r\n/,
    );
  });

  it("passes an answer's head on before its body has begun", async () => {
    let release = () => {};
    const target = await listening(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        release = () => res.end('[]');
      }),
    );
    const { proxy } = await proxyTo(target);
    const body = await new Promise<string>((resolve, reject) => {
      get(`${proxy.origin}/v1/pets`, (res) => {
        // The head is here while the target still holds the body: now let it go.
        expect(res.statusCode).toBe(200);
        release();
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(body).toBe('[]');
  }, 60_000);

  it('judges on after request targets in absolute form and `*`, each placed by what it names', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    const target = await listening(server);
    const judge = new TrafficJudge({ base: `${target}/v1`, source: 'test' });
    const { proxy, exchanges } = await proxyTo(target, (e) => void judge.add(e));
    const heads = [
      // A client that takes the proxy for a forward proxy names the host in the request line.
      'GET http://elsewhere.example/v1/pets HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n',
      `GET ${target}/v1/pets?limit=1 HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n`,
      'OPTIONS * HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n',
    ];
    for (const head of heads) {
      expect(await rawText(proxy.origin, head)).toMatch(/^HTTP\/1\.1 200 /);
    }
    expect((await rawGet(`${proxy.origin}/v1/pets`)).status).toBe(200);
    await proxy.close();
    expect(exchanges.map((e) => e.url)).toEqual([
      'http://elsewhere.example/v1/pets',
      `${target}/v1/pets?limit=1`,
      '*',
      `${target}/v1/pets`,
    ]);
    const { traffic } = await judge.report();
    expect(traffic).toMatchObject({ exchanges: 4, judged: 2, otherHosts: 1, otherPaths: 1 });
  });

  it('forwards to a target named by an IPv6 address, in brackets as a URL writes it', async () => {
    const server = createServer((_req, res) => res.end('[]'));
    const origin = await listening(server);
    // The IPv4 server as an IPv6 address: the same listener, named as [::1] would be.
    const { proxy } = await proxyTo(origin.replace('127.0.0.1', '[::ffff:127.0.0.1]'));
    const answer = await rawGet(`${proxy.origin}/v1/pets`);
    expect([answer.status, answer.body]).toEqual([200, '[]']);
  });

  it('keeps its connection to the target alive from one request to the next', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('[]'));
    server.on('connection', () => {
      connections += 1;
    });
    const { proxy } = await proxyTo(await listening(server));
    for (const path of ['/v1/pets', '/v1/pets?limit=1', '/v1/pets/1']) {
      expect((await rawGet(`${proxy.origin}${path}`)).status).toBe(200);
    }
    expect(connections).toBe(1);
  });

  it('sends a request that asks to close its connection on one of its own, never used again', async () => {
    // A target may answer such a request without saying Connection: close, and close later
    // (Mojolicious does): a request sent after it on that connection would get no answer.
    const { target, perConnection } = headsPerConnection();
    const { proxy } = await proxyInFront(target);
    for (let i = 0; i < 3; i++) {
      // node:http without an agent sends Connection: close.
      const answer = await new Promise<Awaited<ReturnType<typeof answerOf>>>((resolve, reject) => {
        request(`${proxy.origin}/v1/pets`, { agent: false }, (res) =>
          answerOf(res).then(resolve, reject),
        )
          .on('error', reject)
          .end();
      });
      expect(answer.status).toBe(200);
    }
    expect(perConnection.map((heads) => heads.length)).toEqual([1, 1, 1]);
    expect(perConnection.flat().every((head) => /\r\nConnection: close/i.test(head))).toBe(true);
  });

  it('sends each request that is not idempotent on a connection of its own, closed once answered', async () => {
    // A target may close a kept-alive connection idle just as a request goes out on it; a POST
    // lost so must not be sent again (RFC 9112 §9.3.1), so none goes on a connection used before.
    const { target, perConnection, closed } = headsPerConnection();
    const { proxy } = await proxyInFront(target);
    const client = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const method of ['GET', 'POST', 'PATCH', 'GET', 'POST']) {
        const answer = await new Promise<Awaited<ReturnType<typeof answerOf>>>(
          (resolve, reject) => {
            request(`${proxy.origin}/v1/pets`, { method, agent: client }, (res) =>
              answerOf(res).then(resolve, reject),
            )
              .on('error', reject)
              .end(method === 'GET' ? undefined : '{"name":"Rex","categoryId":1}');
          },
        );
        expect(answer.status, method).toBe(200);
      }
    } finally {
      client.destroy();
    }
    const methods = perConnection.map((heads) => heads.map((head) => head.split(' ')[0]));
    expect(methods).toEqual([['GET', 'GET'], ['POST'], ['PATCH'], ['POST']]);
    // Each still says keep-alive, as the client's did, and the proxy closes it once answered.
    for (const head of perConnection.slice(1).flat())
      expect(head).toMatch(/\r\nConnection: keep-alive/i);
    await Promise.all(closed.slice(1));
  });

  it('sends each HEAD on a connection of its own: a body the target writes after the head dies with it', async () => {
    // plumber (httpuv) answers HEAD 405 with a JSON body, written after the head: on a shared
    // connection those bytes would be read as the answer to the next request, another client's.
    // Here they come just before the next answer on the connection, as they do when Nagle's
    // algorithm holds them until then.
    const pets = '[]';
    const heads: string[] = [];
    const target = createTcpServer((socket) => {
      let buffered = '';
      let late = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
          const method = buffered.slice(0, buffered.indexOf(' '));
          heads.push(method);
          buffered = buffered.slice(end + 4);
          const body = method === 'HEAD' ? '{"error":"405 - Method Not Allowed"}' : pets;
          const status = method === 'HEAD' ? '405 Method Not Allowed' : '200 OK';
          const head = `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
          socket.write(`${late}${head}${method === 'HEAD' ? '' : body}`);
          late = method === 'HEAD' ? body : '';
        }
      });
      socket.on('error', () => {});
    });
    const { judge, proxy } = await proxyInFront(target);
    const client = new Agent({ keepAlive: true, maxSockets: 1 });
    const statuses: (number | undefined)[] = [];
    try {
      for (const method of ['HEAD', 'GET', 'HEAD', 'GET']) {
        const answer = await new Promise<Awaited<ReturnType<typeof answerOf>>>(
          (resolve, reject) => {
            request(`${proxy.origin}/v1/pets`, { method, agent: client }, (res) =>
              answerOf(res).then(resolve, reject),
            )
              .on('error', reject)
              .end();
          },
        );
        statuses.push(answer.status);
        if (method === 'GET') expect(answer.body).toBe(pets);
      }
    } finally {
      client.destroy();
    }
    expect(statuses).toEqual([405, 200, 405, 200]);
    expect(heads).toEqual(['HEAD', 'GET', 'HEAD', 'GET']);
    await proxy.close();
    expect((await judge.report()).traffic).toMatchObject({ exchanges: 4, notAnswered: 0 });
  });

  it('answers 502 in plain text naming the target when it cannot be reached, and records no answer', async () => {
    const closed = createTcpServer();
    const origin = await listening(closed);
    await new Promise((resolve) => closed.close(resolve));
    const { proxy, exchanges } = await proxyTo(origin);
    const answer = await rawGet(`${proxy.origin}/v1/pets`);
    expect(answer.status).toBe(502);
    expect(answer.headers.slice(0, 2)).toEqual(['content-type', 'text/plain; charset=utf-8']);
    expect(answer.body).toMatch(
      new RegExp(
        `^animal-store-conformance proxy: ${new URL(origin).host} gave no answer: connect ECONNREFUSED .*\\n$`,
      ),
    );
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ method: 'GET', status: 0, responseHeaders: [] });
    expect(exchanges[0]).not.toHaveProperty('responseBody');
  });

  it('closes only once an exchange in flight has finished, and records it', async () => {
    let release = () => {};
    let asked = () => {};
    const arrived = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const target = await listening(
      createServer((_req, res) => {
        release = () => res.end('[]');
        asked();
      }),
    );
    const { proxy, exchanges } = await proxyTo(target);
    const answer = rawGet(`${proxy.origin}/v1/pets`);
    await arrived;
    const closing = proxy.close().then(() => exchanges.length);
    release();
    expect(await answer).toMatchObject({ status: 200, body: '[]' });
    // By the time close resolved, the exchange in flight was recorded.
    expect(await closing).toBe(1);
    expect(exchanges[0]).toMatchObject({ status: 200 });
  }, 60_000);

  it('closes, the exchange recorded unanswered, when an answer before a pipelined one says close', async () => {
    // The first answer says close, so the client's connection ends with it, while the second
    // request, pipelined, is still at the target: the proxy takes it back, which loses its
    // connection; the request must not go again for a client that is gone, nor hold close.
    let second = 0;
    const target = await listening(
      createServer((req, res) => {
        if (req.url !== '/v1/pets/1') {
          res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
          res.end('[]');
        } else if (++second > 1) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"code":"not_found","message":"no pet","status":404}');
        }
      }),
    );
    const { proxy, exchanges } = await proxyTo(target);
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const text = await rawText(proxy.origin, get('/v1/pets?limit=1') + get('/v1/pets/1'));
    expect(text.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 200']);
    await proxy.close();
    expect(exchanges.map((e) => [e.url.replace(target, ''), e.status])).toEqual([
      ['/v1/pets?limit=1', 200],
      ['/v1/pets/1', 0],
    ]);
    expect(second).toBe(1);
  }, 60_000);

  it('takes the request to the target with it when the client goes away mid-body', async () => {
    let started = () => {};
    const bodyBegun = new Promise<void>((resolve) => {
      started = resolve;
    });
    let gone = () => {};
    const targetSawItGo = new Promise<void>((resolve) => {
      gone = resolve;
    });
    const target = await listening(
      createServer((req) => {
        req.once('data', () => started());
        req.on('close', () => {
          if (!req.complete) gone();
        });
      }),
    );
    const { proxy } = await proxyTo(target);
    const { hostname, port } = new URL(proxy.origin);
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
      );
    });
    socket.on('error', () => {});
    // Once the target has the first bytes, the client leaves; the target must see the request go.
    await bodyBegun;
    socket.destroy();
    await targetSawItGo;
  }, 60_000);

  it('sends nothing again when the client goes away before the body a lost connection needs', async () => {
    // The target resets the connection on the request's first bytes: the proxy would send the
    // request again, whole, once its body has come; the client goes away before it has.
    let connections = 0;
    let reset = () => {};
    const wasReset = new Promise<void>((resolve) => {
      reset = resolve;
    });
    const target = createTcpServer((socket) => {
      connections += 1;
      socket.once('data', () => {
        socket.resetAndDestroy();
        reset();
      });
      socket.on('error', () => {});
    });
    const { proxy, exchanges } = await proxyTo(await listening(target));
    const { hostname, port } = new URL(proxy.origin);
    const client = connect(Number(port), hostname, () => {
      client.write(
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
      );
    });
    client.on('error', () => {});
    await wasReset;
    client.destroy();
    await proxy.close();
    expect(connections).toBe(1);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ method: 'POST', status: 0, responseHeaders: [] });
    expect(exchanges[0]).not.toHaveProperty('responseBody');
  }, 60_000);

  it('keeps its connection to an HTTPS target alive too', async () => {
    const certificate = await selfSignedCertificate(files.path, 'target');
    // This process trusts the target's certificate as NODE_EXTRA_CA_CERTS would have it do.
    const before = defaultCas.getCACertificates('default');
    defaultCas.setDefaultCACertificates([...before, certificate.cert]);
    stoppable.push({ stop: async () => defaultCas.setDefaultCACertificates(before) });
    let connections = 0;
    const server = createHttpsServer(certificate, (_req, res) => res.end('[]'));
    server.on('secureConnection', () => {
      connections += 1;
    });
    const origin = (await listening(server)).replace(/^http:/, 'https:');
    const { proxy } = await proxyTo(origin);
    for (const path of ['/v1/pets', '/v1/pets?limit=1', '/v1/pets/1']) {
      expect(await rawGet(`${proxy.origin}${path}`)).toMatchObject({ status: 200, body: '[]' });
    }
    expect(connections).toBe(1);
  });

  it('answers 502 to a target whose certificate it does not trust, naming the remedy', async () => {
    const certificate = await selfSignedCertificate(files.path, 'untrusted');
    const server = createHttpsServer(certificate, (_req, res) => res.end('[]'));
    const origin = (await listening(server)).replace(/^http:/, 'https:');
    const { proxy } = await proxyTo(origin);
    const answer = await rawGet(`${proxy.origin}/v1/pets`);
    expect(answer.status).toBe(502);
    expect(answer.body).toMatch(
      /gave no answer: .*certificate.* \(to trust the server's CA, set NODE_EXTRA_CA_CERTS to the file of its certificate \(PEM\)\)\n$/,
    );
  });

  it('refuses to start on a port already taken, with the reason', async () => {
    const taken = Number(new URL(await listening(createTcpServer())).port);
    await expect(
      startProxy({ target: 'http://127.0.0.1:9/v1', port: taken, onExchange: () => {} }),
    ).rejects.toThrow(/EADDRINUSE/);
  });

  it('listens on 127.0.0.1 and the port given', async () => {
    const target = await listening(createServer((_req, res) => res.end('[]')));
    const { proxy, port } = await onFreePort(async (port) => ({
      proxy: await startProxy({ target: `${target}/v1`, port, onExchange: () => {} }),
      port,
    }));
    stoppable.push({ stop: () => proxy.close() });
    expect(proxy.origin).toBe(`http://127.0.0.1:${port}`);
    expect((await rawGet(`${proxy.origin}/v1/pets`)).status).toBe(200);
  });
});

/** A target that answers every request after its body, chunked, and keeps each request's head. */
async function chunkedTarget(heads: string[][] = []) {
  return listening(
    createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
      heads.push(req.rawHeaders);
      req.resume().on('end', () => {
        res.writeHead(404, { 'content-type': 'application/json', 'x-big': 'b'.repeat(20_000) });
        res.write('{"code":"not_found",');
        res.end('"message":"no pet","status":404}');
      });
    }),
  );
}

const NOT_FOUND = '{"code":"not_found","message":"no pet","status":404}';

describe('the clients the proxy answers, and what it answers itself', () => {
  it('answers a client that half-closes its connection once its requests are sent', async () => {
    const { proxy, exchanges } = await proxyTo(await chunkedTarget());
    const text = await rawText(
      proxy.origin,
      'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/pets/2 HTTP/1.1\r\nHost: x\r\n\r\n',
      true,
    );
    expect(text.match(/^HTTP\/1\.1 404 /gm)).toHaveLength(2);
    expect(exchanges.map((e) => e.url)).toEqual([
      expect.stringMatching(/\/v1\/pets\/1$/),
      expect.stringMatching(/\/v1\/pets\/2$/),
    ]);
  });

  it('answers an HTTP/1.0 client without chunked, the body ending with the connection', async () => {
    const heads: string[][] = [];
    const target = await chunkedTarget(heads);
    const { proxy, exchanges } = await proxyTo(target);
    // Without Host, as HTTP/1.0 allows: it goes on with the target's, as HTTP/1.1 needs.
    const text = await rawText(proxy.origin, 'GET /v1/pets/1 HTTP/1.0\r\n\r\n');
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(head).not.toMatch(/transfer-encoding/i);
    // The target's other header lines, all of them, as it wrote them.
    expect(head).toContain('\r\ncontent-type: application/json\r\nx-big: b');
    expect(body).toBe(NOT_FOUND);
    expect(heads[0]?.slice(0, 2)).toEqual(['Host', new URL(target).host]);
    expect(exchanges[0]).toMatchObject({ status: 404, requestHeaders: [] });
    expect(new TextDecoder().decode(exchanges[0]?.responseBody)).toBe(NOT_FOUND);
  });

  it("passes header lines beyond Node's default 16 KiB both ways, the target's limit the one that counts", async () => {
    const heads: string[][] = [];
    const { proxy, exchanges } = await proxyTo(await chunkedTarget(heads));
    const long = 'v'.repeat(40_000);
    const text = await rawText(
      proxy.origin,
      `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nX-Long: ${long}\r\nConnection: close\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text).toContain(`x-big: ${'b'.repeat(20_000)}\r\n`);
    expect(heads[0]).toContain(long);
    expect(exchanges).toHaveLength(1);
  });

  it('keeps the client its connection from one answer to the next request', async () => {
    const { proxy, exchanges } = await proxyTo(await chunkedTarget());
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    let second = false;
    const text = await rawText(proxy.origin, request('/v1/pets/1'), false, (seen, socket) => {
      const whole = seen.split('\r\n0\r\n\r\n').length - 1;
      // The first answer is whole: the next request goes on the same connection.
      if (whole === 1 && !second) {
        second = true;
        socket.write(request('/v1/pets/2'));
      }
      if (whole === 2) socket.end();
    });
    expect(text.match(/^HTTP\/1\.1 404 /gm)).toHaveLength(2);
    expect(exchanges).toHaveLength(2);
  });

  it('ends the connection, writing nothing of its own, when a body turns unreadable under an answer begun', async () => {
    const target = createServer((req, res) => {
      // The head and part of the body at once, the rest never: the answer is under way.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.write('{"code":');
      req.resume();
    });
    const { proxy } = await proxyTo(await listening(target));
    let cut = false;
    const text = await rawText(
      proxy.origin,
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n',
      false,
      (seen, socket) => {
        // Once the answer has begun, a chunk size no reader can read.
        if (cut || !seen.includes('{"code":')) return;
        cut = true;
        socket.write('zz\r\n');
      },
    );
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toContain('{"code":');
    expect(text).not.toContain('animal-store-conformance proxy');
  });

  it("passes more header lines than Node's default 2,000 both ways, every one", async () => {
    const lines = Array.from({ length: 2_100 }, (_, i) => [`X-Line-${i}`, String(i)]);
    const seen: string[][] = [];
    const target = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
      seen.push(req.rawHeaders);
      res.writeHead(200, lines.flat()).end('[]');
    });
    target.maxHeadersCount = 0;
    const { proxy, exchanges } = await proxyTo(await listening(target));
    const head = lines.map(([name, value]) => `${name}: ${value}`).join('\r\n');
    const text = await rawText(
      proxy.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${head}\r\nConnection: close\r\n\r\n`,
    );
    expect(text.match(/^X-Line-\d+: \d+\r$/gm)).toHaveLength(2_100);
    expect(seen[0]?.filter((field) => field.startsWith('X-Line-'))).toHaveLength(2_100);
    expect(exchanges[0]?.requestHeaders).toHaveLength(2_102);
    expect(exchanges[0]?.responseHeaders.length).toBeGreaterThanOrEqual(2_100);
  });

  it('answers a request it cannot read with a 400 naming itself, after the answers under way, and records none', async () => {
    const heads: string[][] = [];
    const { proxy, exchanges } = await proxyTo(await chunkedTarget(heads));
    const alone = await rawText(proxy.origin, 'NOT HTTP AT ALL\r\n\r\n');
    expect(alone).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\ncontent-type: text\/plain; charset=utf-8\r\ncontent-length: \d+\r\nconnection: close\r\n\r\nanimal-store-conformance proxy: it cannot forward the request: it cannot read it as HTTP\/1\.1 \(.+\)\n$/,
    );
    // After a request it forwards, on the same connection: that answer first, whole.
    const after = await rawText(
      proxy.origin,
      'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n',
    );
    const refused = after.indexOf('HTTP/1.1 400 Bad Request\r\n');
    expect(after.startsWith('HTTP/1.1 404 Not Found\r\n')).toBe(true);
    // The answer under way ends (its last chunk) before the refusal begins.
    expect(after.slice(0, refused)).toMatch(/"status":404\}\r\n0\r\n\r\n$/);
    expect(heads).toHaveLength(1);
    expect(exchanges).toHaveLength(1);
    // To a HEAD, the same head without the body (RFC 9110 §9.3.2).
    const head = await rawText(proxy.origin, 'HEAD /v1/pets HTTP/1.1\r\nContent-Length: x\r\n\r\n');
    expect(head).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n[^\n]*\r\ncontent-length: \d+\r\nconnection: close\r\n\r\n$/,
    );
  });

  it('answers a body it cannot read with a 400 naming itself, and judges nothing', async () => {
    const target = await chunkedTarget();
    const judge = new TrafficJudge({ base: `${target}/v1`, source: 'test' });
    const { proxy } = await proxyTo(target, (e) => void judge.add(e));
    // RFC 9112 §6.3: a request whose last transfer coding is not chunked has no readable length.
    const text = await rawText(
      proxy.origin,
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}',
    );
    // A HEAD whose body the client cut short: the same head, without the body.
    const head = await rawText(
      proxy.origin,
      'HEAD /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n',
      true,
    );
    expect(head).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n[^\n]*\r\ncontent-length: \d+\r\nconnection: close\r\n\r\n$/,
    );
    expect(text).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*animal-store-conformance proxy: it cannot forward the request: it cannot read it as HTTP\/1\.1 \(.*Transfer-Encoding.*\)\n$/,
    );
    await proxy.close();
    expect((await judge.report()).traffic?.judged).toBe(0);
  });

  it("leaves every expectation to the target: its 100 Continue or its refusal, and another's answer", async () => {
    const target = createServer((req, res) => {
      req.resume().on('end', () => res.writeHead(201).end('{}'));
    });
    // Without a key, the target refuses before the body (no 100 Continue); with one, invites it.
    target.on('checkContinue', (req, res) => {
      if (req.headers.authorization === undefined) return res.writeHead(401).end('{}');
      res.writeContinue();
      target.emit('request', req, res);
    });
    target.on('checkExpectation', (_req, res) => res.writeHead(200).end('[]'));
    const { proxy, exchanges } = await proxyTo(await listening(target));
    const head = (more: string) =>
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n${more}Connection: close\r\n\r\n`;
    /** Sends the head, and the body only once `100 Continue` came; all the text that came. */
    const continued = (text: string) =>
      rawText(proxy.origin, text, false, (seen, socket) => {
        if (/^HTTP\/1\.1 100 Continue\r\n\r\n$/.test(seen)) socket.write('{}');
      });
    expect(await continued(head(''))).toMatch(/^HTTP\/1\.1 401 /);
    expect(await continued(head('Authorization: Bearer k\r\n'))).toMatch(
      /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /,
    );
    const other = await rawText(
      proxy.origin,
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: the-unexpected\r\nConnection: close\r\n\r\n',
    );
    expect(other).toMatch(/^HTTP\/1\.1 200 /);
    expect(exchanges.map((e) => e.status)).toEqual([401, 201, 200]);
  });

  it.each([
    [
      'CONNECT',
      'CONNECT /v1/pets HTTP/1.1\r\nHost: x',
      '501 Not Implemented',
      'it opens no tunnel (CONNECT)',
    ],
    [
      'an HTTP/1.1 request without Host',
      'GET /v1/pets/1 HTTP/1.1',
      '400 Bad Request',
      'an HTTP/1.1 request needs a Host header',
    ],
  ])('answers %s itself, naming itself, and forwards nothing', async (_, head, status, why) => {
    const heads: string[][] = [];
    const { proxy, exchanges } = await proxyTo(await chunkedTarget(heads));
    const text = await rawText(proxy.origin, `${head}\r\n\r\n`);
    expect(text.startsWith(`HTTP/1.1 ${status}\r\n`)).toBe(true);
    expect(text).toMatch(/\r\ncontent-type: text\/plain; charset=utf-8\r\n/i);
    expect(text).toContain(
      `animal-store-conformance proxy: it cannot forward the request: ${why}\n`,
    );
    expect(heads).toEqual([]);
    expect(exchanges).toEqual([]);
  });

  it('answers header lines beyond its own limit with a 431 naming itself', async () => {
    const { proxy, exchanges } = await proxyTo(await chunkedTarget());
    const text = await rawText(
      proxy.origin,
      `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nX-Long: ${'v'.repeat(1_100_000)}`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(text).toMatch(
      /animal-store-conformance proxy: it cannot forward the request: its header lines exceed \d+ bytes/,
    );
    expect(exchanges).toEqual([]);
  });
});

describe('the body the judge reads of a compressed answer', () => {
  const pets = '[{"id":1,"name":"Rex","categoryId":1}]';
  /** The exchange the proxy records of an answer of `bytes` with Content-Encoding `coding`. */
  async function exchangeOf(coding: string, bytes: Buffer): Promise<RecordedExchange | undefined> {
    const target = await listening(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(bytes);
      }),
    );
    const { proxy, exchanges } = await proxyTo(target);
    await rawGet(`${proxy.origin}/v1/pets`);
    await proxy.close();
    expect(exchanges).toHaveLength(1);
    return exchanges[0];
  }

  it.each<[string, string, Buffer]>([
    ['gzip', 'gzip', gzipSync(pets)],
    ['a coding in capitals, with spaces', ' GZIP ', gzipSync(pets)],
    ['two codings, undone in reverse order', 'deflate, gzip', gzipSync(deflateSync(pets))],
    ['identity beside another', 'identity, br', brotliCompressSync(pets)],
    ['identity alone', 'identity', Buffer.from(pets)],
  ])('is the content for %s', async (_, coding, bytes) => {
    const exchange = await exchangeOf(coding, bytes);
    expect(new TextDecoder().decode(exchange?.responseBody)).toBe(pets);
  });

  it.each<[string, string, Buffer]>([
    ['a coding it cannot undo', 'compress', Buffer.from(pets)],
    ['bytes that are not what they claim', 'gzip', Buffer.from(pets)],
  ])('is left unjudged for %s', async (_, coding, bytes) => {
    expect(await exchangeOf(coding, bytes)).not.toHaveProperty('responseBody');
  });
});
