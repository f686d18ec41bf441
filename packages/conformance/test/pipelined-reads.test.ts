import { request as httpRequest, STATUS_CODES } from 'node:http';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';
import { startFakeServer } from './support/fake-server.js';
import { notPassed, resultOf } from './support/run-kit.js';

// Reads pipelined on one connection: HTTP/1.1 has a server answer them in the order they came
// (RFC 9112 §9.3.2); the spec says nothing of connections, so what else a server does is advised,
// never failed. node:http answers pipelined requests in order; the ways other servers take them
// are a front before the fake server that reads what comes in one write as a batch.
const ONLY = { only: ['listPets.pipelined'], timeoutMs: 2_000 };

/** How the front answers the requests that came in one write. */
type Batches =
  | 'in order'
  | 'the first alone, the rest dropped'
  | 'in reverse order'
  | 'the first, then the connection closed';

interface Front {
  readonly baseUrl: string;
  /** How many requests each write held, in the order they came. */
  readonly writes: number[];
  close(): Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** The requests whole at the start of `bytes` (a body by its Content-Length), and what is left. */
function requestsAt(bytes: Buffer): [Buffer[], Buffer] {
  const requests: Buffer[] = [];
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return [requests, rest];
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(rest.subarray(0, end).toString('latin1'));
    const size = end + 4 + Number(length?.[1] ?? 0);
    if (rest.length < size) return [requests, rest];
    requests.push(rest.subarray(0, size));
    rest = rest.subarray(size);
  }
}

/** Sends one request's bytes to `origin` on a connection of its own and reads the answer. */
function forward(origin: URL, bytes: Buffer): Promise<Answer> {
  const end = bytes.indexOf('\r\n\r\n');
  const [line = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const [method, path] = line.split(' ');
  const headers: Record<string, string> = {};
  for (const header of lines) {
    const colon = header.indexOf(':');
    headers[header.slice(0, colon).toLowerCase()] = header.slice(colon + 1).trim();
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: origin.hostname, port: origin.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answerHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (!['connection', 'keep-alive', 'transfer-encoding'].includes(name)) {
              answerHeaders[name] = String(value);
            }
          }
          resolve({
            status: res.statusCode ?? 500,
            headers: answerHeaders,
            body: Buffer.concat(chunks),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(bytes.subarray(end + 4));
  });
}

function answerBytes({ status, headers, body }: Answer, close: boolean): Buffer {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
  for (const [name, value] of Object.entries({ ...headers, 'content-length': `${body.length}` })) {
    lines.push(`${name}: ${value}`);
  }
  if (close) lines.push('connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** A front that answers what comes in one write as `batches` says, through `target`. */
async function startFront(target: string, batches: Batches): Promise<Front> {
  const origin = new URL(target);
  const writes: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffer: Buffer = Buffer.alloc(0);
    // Batches are answered one after another, as they came.
    let previous = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const [requests, rest] = requestsAt(Buffer.concat([buffer, chunk]));
      buffer = rest;
      if (requests.length === 0) return;
      writes.push(requests.length);
      const answers = Promise.all(requests.map((bytes) => forward(origin, bytes)));
      previous = previous.then(async () => {
        const all = await answers;
        if (all.length === 1 || batches === 'in order') {
          for (const answer of all) client.write(answerBytes(answer, false));
        } else if (batches === 'in reverse order') {
          for (const answer of all.reverse()) client.write(answerBytes(answer, false));
        } else if (batches === 'the first alone, the rest dropped') {
          client.write(answerBytes(all[0] as Answer, false));
        } else {
          client.end(answerBytes(all[0] as Answer, true));
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${origin.pathname}`,
    writes,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The kit's pipelining check against the fake server (its store preloaded) behind a front. */
async function runBehind(batches: Batches, only = ONLY.only) {
  const fake = await startFakeServer({ choices: ['preloaded-store'] });
  const front = await startFront(fake.baseUrl, batches);
  try {
    const report = await runConformance({
      baseUrl: front.baseUrl,
      apiKey: fake.apiKey,
      ...ONLY,
      only,
    });
    return { result: resultOf(report, 'listPets.pipelined'), report, front, fake };
  } finally {
    await front.close();
    await fake.close();
  }
}

describe('reads pipelined on one connection', () => {
  it('passes a server that answers them in order, sent in one write after each alone', async () => {
    const { result, front, fake } = await runBehind('in order');
    expect(result).toMatchObject({
      level: 'should',
      outcome: 'pass',
      message:
        '5 reads pipelined on one connection, each answered as alone (200, 401, 200, 404, 401)',
    });
    expect(front.writes.filter((n) => n > 1)).toEqual([5]);
    // The five reads alone, then pipelined: the fake server saw each twice.
    const paths = fake.requests.map((r) => `${r.method} ${r.path}`);
    const pet = expect.stringMatching(/^GET \/pets\/\d+$/);
    const reads = [
      'GET /pets?limit=1',
      'GET /pets?limit=1',
      pet,
      'GET /pets/9007199254740991',
      pet,
    ];
    expect(paths.slice(-10, -5)).toEqual(reads);
    expect(new Set(paths.slice(-5))).toEqual(new Set(paths.slice(-10, -5)));
  });

  it('advises answers in another order than the requests, naming the read and both answers', async () => {
    // The checks of every answer leave the pipelined answers to this check: an answer the server
    // gave to another request is no answer of the spec's operation.
    const { result, report } = await runBehind('in reverse order', [...ONLY.only, 'errors']);
    expect(notPassed(report)).toEqual([expect.stringMatching(/^listPets\.pipelined: advisory: /)]);
    expect(result.outcome).toBe('advisory');
    expect(result.message).toMatch(
      /^GET \/pets\?limit=1 with the key, pipelined with 4 other reads on one connection, answered 401 with a JSON object where alone it answered 200 with a JSON array: the answers came in another order than the requests, or a request was read wrong \(and 3 more\)\nserver said: code "unauthorized", [^\n]+\nreplay: curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=1' -H "Authorization: Bearer \$ANIMAL_STORE_API_KEY"$/,
    );
    expect(report.verdict).toBe('pass');
  });

  it('advises reads left unanswered after the first, naming the first of them', async () => {
    const { result } = await runBehind('the first alone, the rest dropped');
    expect(result.outcome).toBe('advisory');
    // The replay line is the request that got no answer.
    expect(result.message).toMatch(
      /^GET \/pets\?limit=1 without a key, pipelined with 4 other reads on one connection: no answer within 2000 ms\nreplay: curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=1'$/,
    );
  });

  it('passes a server that closes the connection after the first answer, as HTTP lets it', async () => {
    const { result, front } = await runBehind('the first, then the connection closed');
    expect(result.outcome).toBe('pass');
    // The three reads it left went again, each alone.
    expect(front.writes.filter((n) => n > 1)).toEqual([5]);
  });
});
