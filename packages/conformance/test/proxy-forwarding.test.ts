// The proxy (`startProxy`, in-process) in front of targets that answer in every way HTTP lets
// them: compressed, chunked and empty bodies passed on as they came and judged on their content,
// answers given before a body has all come, connections closed, answers cut off or streamed.
import { createServer, get, request } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordedExchange, startProxy, TrafficJudge } from '../src/index.js';
import { requestsIn } from './support/tcp-tap.js';

const stoppable: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(stoppable.splice(0).map((s) => s.stop()));
});

/**
 * Listens with `server` on 127.0.0.1, and starts the proxy (from the library) in front of it;
 * `onExchange` sees each exchange the proxy records before the judge does.
 */
async function proxyInFront(server: Server, onExchange?: (e: RecordedExchange) => void) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stoppable.push({ stop: () => new Promise((resolve) => server.close(() => resolve())) });
  const { port } = server.address() as AddressInfo;
  const target = `http://127.0.0.1:${port}/v1`;
  const judge = new TrafficJudge({ base: target, source: 'test' });
  const proxy = await startProxy({
    target,
    onExchange: (e) => {
      onExchange?.(e);
      void judge.add(e);
    },
  });
  stoppable.push({ stop: () => proxy.close() });
  return { judge, proxy };
}

describe('the proxy in front of a target', () => {
  it('judges a compressed answer on its content, and passes the compressed bytes on', async () => {
    const pets = [1, 2, 3].map((id) => ({ id, name: 'Rex', categoryId: 1 }));
    const gzipped = gzipSync(JSON.stringify(pets));
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
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
    const seen: (string | undefined)[] = [];
    const { judge, proxy } = await proxyInFront(server, (e) => seen.push(e.requestBody));
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k3y-of-test' };
    // fetch declares an empty body with Content-Length: 0; a GET declares none.
    await (await fetch(`${proxy.origin}/v1/pets`, { method: 'POST', headers, body: '' })).text();
    await (await fetch(`${proxy.origin}/v1/pets?limit=1`, { headers })).text();
    await proxy.close();
    const report = await judge.report();
    expect(seen).toEqual(['', undefined]);
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
    const { judge, proxy } = await proxyInFront(target);
    const seen = await new Promise<string>((resolve) => {
      get(`${proxy.origin}/v1/pets`, (res) => {
        res.on('error', (error) => resolve(`${res.statusCode}, then ${error.message}`));
        res.on('end', () => resolve(`${res.statusCode}, whole`));
        res.resume();
      }).on('error', (error) => resolve(error.message));
    });
    expect(seen).toBe('200, then aborted');
    await proxy.close();
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
