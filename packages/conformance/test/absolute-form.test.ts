import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';
import { startFakeServer } from './support/fake-server.js';
import { resultOf, runAgainst, TEST_TIMEOUT_MS } from './support/run-kit.js';
import { startTcpTap } from './support/tcp-tap.js';

// Reads whose request target is in absolute form: a server must accept the form (RFC 9112
// §3.2.2); the spec says nothing of it, so what else a server does is advised, never failed.
const ONLY = { only: ['listPets.absolute-form'], timeoutMs: TEST_TIMEOUT_MS };

/**
 * A relay to the fake server that answers a request in absolute form itself: `null` as JSON, or
 * by closing the connection unanswered.
 */
async function frontThat(answers: 'null' | 'nothing', origin: string) {
  const { hostname, port } = new URL(origin);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(Number(port), hostname);
    sockets.add(upstream);
    client.on('data', (chunk: Buffer) => {
      if (!chunk.toString('latin1').startsWith('GET http')) return void upstream.write(chunk);
      if (answers === 'nothing') return void client.destroy();
      client.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4\r\n\r\nnull',
      );
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on('error', () => {});
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The check's result against the fake server (pets in store) behind a front that `answers`. */
async function behindFront(answers: 'null' | 'nothing') {
  const fake = await startFakeServer({ choices: ['preloaded-store'] });
  const front = await frontThat(answers, new URL(fake.baseUrl).origin);
  try {
    const report = await runConformance({
      baseUrl: `${front.origin}/v1`,
      apiKey: fake.apiKey,
      ...ONLY,
    });
    return resultOf(report, 'listPets.absolute-form');
  } finally {
    await front.close();
    await fake.close();
  }
}

describe('reads with their target in absolute form', () => {
  it('passes a server that reads the form as origin form, each read sent in both forms', async () => {
    const fake = await startFakeServer({ choices: ['preloaded-store'] });
    const tap = await startTcpTap(new URL(fake.baseUrl).origin);
    try {
      const report = await runConformance({
        baseUrl: `${tap.origin}/v1`,
        apiKey: fake.apiKey,
        ...ONLY,
      });
      expect(resultOf(report, 'listPets.absolute-form')).toMatchObject({
        level: 'should',
        outcome: 'pass',
        message:
          '5 reads in absolute form, each answered as in origin form (200, 401, 200, 404, 401)',
      });
      // Each read in origin form, then the same in absolute form, as the wire shows them.
      const lines = tap.exchanges().map(({ request }) => request.head.split('\r\n')[0]);
      const targets = [
        '/v1/pets?limit=1',
        '/v1/pets?limit=1',
        expect.stringMatching(/^\/v1\/pets\/\d+$/),
        '/v1/pets/9007199254740991',
        expect.stringMatching(/^\/v1\/pets\/\d+$/),
      ];
      expect(lines.slice(-10)).toEqual(
        targets.flatMap((target) => [
          typeof target === 'string'
            ? `GET ${target} HTTP/1.1`
            : expect.stringMatching(/^GET \/v1\/pets\/\d+ HTTP\/1\.1$/),
          typeof target === 'string'
            ? `GET ${tap.origin}${target} HTTP/1.1`
            : expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+ HTTP\/1\.1$/),
        ]),
      );
    } finally {
      await tap.close();
      await fake.close();
    }
  });

  it('advises a router that matches the target as written, naming the form and both answers', async () => {
    const { report } = await runAgainst(
      { choices: ['preloaded-store', 'routes-target-as-written'] },
      ONLY,
    );
    const { outcome, message } = resultOf(report, 'listPets.absolute-form');
    expect(outcome).toBe('advisory');
    expect(message).toMatch(
      /^GET \/pets\?limit=1 with the key, its target in absolute form \(http:\/\/127\.0\.0\.1:(\d+)\/v1\/pets\?limit=1\), answered 404 with a JSON object where in origin form it answered 200 with a JSON array: a server reads the path and query of a target in absolute form as in origin form \(and 3 more\)\nserver said: [^\n]+\nreplay: curl -sS -i 'http:\/\/127\.0\.0\.1:\1\/v1\/pets\?limit=1' --request-target 'http:\/\/127\.0\.0\.1:\1\/v1\/pets\?limit=1' -H "Authorization: Bearer \$ANIMAL_STORE_API_KEY"$/,
    );
    expect(report.verdict).toBe('pass');
  });

  it('tells a JSON null from an array and from an object', async () => {
    const { outcome, message } = await behindFront('null');
    expect(outcome).toBe('advisory');
    expect(message).toMatch(
      /^GET \/pets\?limit=1 with the key, its target in absolute form \(http:[^)]+\), answered 200 with no JSON array or object where in origin form it answered 200 with a JSON array: .* \(and 4 more\)\n/,
    );
  });

  it('advises a read in absolute form left unanswered, never sent again in origin form', async () => {
    const { outcome, message } = await behindFront('nothing');
    expect(outcome).toBe('advisory');
    expect(message).toMatch(
      /^GET \/pets\?limit=1 with the key, its target in absolute form \(http:[^)]+\): socket hang up \(and 4 more\)\nreplay: curl .*--request-target/,
    );
  });
});
