// `proxy --target URL`: between the official client and the API, under the client's scenario, it
// changes no byte of any exchange either way (TCP relays on both sides keep what passed; only
// Host names the target), prints each violation as it passes, writes the report when stopped by
// SIGTERM, and that report is the HAR judge's report of the same traffic.
import { writeFileSync } from 'node:fs';
import { createServer, get, request } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type StartedProcess, startLogged } from '@animal-store/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type RecordedExchange, startProxy, TrafficJudge } from '../src/index.js';
import { startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';
import {
  harOf,
  requestsIn,
  startTcpTap,
  type TcpTap,
  type WireMessage,
} from './support/tcp-tap.js';
import { clientScenario, scratch, startApi } from './support/traffic.js';

const bin = fileURLToPath(new URL('../bin/animal-store-conformance.js', import.meta.url));
const files = scratch();
const stoppable: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(stoppable.splice(0).map((s) => s.stop()));
});
afterAll(() => files.remove());

interface JsonReport {
  verdict: string;
  results: { id: string; outcome: string }[];
  traffic: { judged: number; exercised: string[]; notExercised: string[] };
}

function tapped(tap: TcpTap): TcpTap {
  stoppable.push({ stop: () => tap.close() });
  return tap;
}

/** Starts the CLI's proxy to `target` and waits for the address it listens on. */
async function startKitProxy(target: string, ...more: string[]): Promise<StartedProcess> {
  const proxy = await startLogged(process.execPath, [bin, 'proxy', '--target', target, ...more], {
    env: { PATH: process.env.PATH ?? '' },
    ready: /point the client at (http:\/\/\S+)/,
  });
  stoppable.push(proxy);
  return proxy;
}

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

/** The request head with its Host line, the one the proxy sets to the target, set aside. */
const withoutHost = (m: WireMessage) => m.head.replace(/\r\nHost: [^\r]*/i, '\r\nHost: (set)');

describe('the proxy between the official client and the API', () => {
  it('changes no byte either way, and reports what the HAR judge reports of that traffic', async () => {
    const api = await startApi();
    stoppable.push(api);
    const apiSide = tapped(await startTcpTap(new URL(api.base).origin));
    const proxy = await startKitProxy(`${apiSide.origin}/v1`, '--reporter', 'json');
    const clientBase = proxy.match[1] as string;
    expect(clientBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const clientSide = tapped(await startTcpTap(new URL(clientBase).origin));

    const seen = await clientScenario(`${clientSide.origin}/v1`, api.apiKey);
    expect(seen).toEqual({ names: ['Rex', 'Max', 'Ida'], errors: [400, 401, 404] });

    await proxy.stop();
    expect(proxy.exitStatus()).toBe(0);
    const sent = clientSide.exchanges();
    const received = apiSide.exchanges();
    expect(sent.length).toBeGreaterThanOrEqual(10);
    expect(received.length).toBe(sent.length);
    // Keep-alive both ways: connections carried several exchanges each.
    expect(clientSide.connections()).toBeLessThan(sent.length);
    expect(apiSide.connections()).toBeLessThan(received.length);
    for (const [i, atClient] of sent.entries()) {
      const atApi = received[i] as (typeof received)[number];
      // Requests: every header line as the client wrote it (Host aside), the body byte for byte.
      expect(withoutHost(atApi.request)).toBe(withoutHost(atClient.request));
      expect(atApi.request.head).toMatch(
        new RegExp(`\\r\\nHost: ${new URL(apiSide.origin).host}`, 'i'),
      );
      expect(atApi.request.body.equals(atClient.request.body)).toBe(true);
      // Answers: status line and every header line as the API wrote them, the body byte for byte.
      expect(atClient.response.head).toBe(atApi.response.head);
      expect(atClient.response.body.equals(atApi.response.body)).toBe(true);
    }

    const report = JSON.parse(proxy.stdout()) as JsonReport;
    expect(report.verdict).toBe('pass');
    expect(report.traffic.judged).toBe(sent.length);
    expect(proxy.stdout()).not.toContain(api.apiKey);
    expect(proxy.stderr()).not.toContain(api.apiKey);

    const har = join(files.dir, 'client-side.har');
    writeFileSync(har, harOf(clientSide.origin, sent));
    const judged = await runCli(['judge', '--har', har, '--reporter', 'json']);
    const fromHar = JSON.parse(judged.stdout) as JsonReport;
    const outcomes = (r: JsonReport) => r.results.map(({ id, outcome }) => `${id}: ${outcome}`);
    expect(outcomes(report)).toEqual(outcomes(fromHar));
    expect(report.traffic.exercised).toEqual(fromHar.traffic.exercised);
    expect(judged.exitCode).toBe(0);
  });

  it('prints each violation as it passes, and fails the report when stopped', async () => {
    const fake = await startFakeServer({ faults: ['list-ignores-limit'] });
    stoppable.push({ stop: () => fake.close() });
    const proxy = await startKitProxy(fake.baseUrl);
    const base = proxy.match[1] as string;
    const auth = { authorization: `Bearer ${fake.apiKey}` };
    for (const name of ['Rex', 'Max']) {
      await fetch(`${base}/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
    }
    await (await fetch(`${base}/pets?limit=1`, { headers: auth })).text();
    // Before the proxy stops: the line comes as the answer passes.
    const line = await proxy.untilStderr(
      (text) => /✗ listPets\.at-most-limit \(§4\.1, §8\): .*/.exec(text)?.[0],
    );
    expect(line).toContain('GET /pets?limit=1 answered 200: 2 pets, more than limit 1');
    await proxy.stop();
    expect(proxy.exitStatus()).toBe(1);
    expect(proxy.stdout()).toMatch(/FAIL: 1 must check failed/);
    expect(proxy.stdout() + proxy.stderr()).not.toContain(fake.apiKey);
  });

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
