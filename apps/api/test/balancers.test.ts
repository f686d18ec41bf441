import { connect, type Socket } from 'node:net';
import { runConformance } from '@animal-store/conformance';
import { describe, expect, it } from 'vitest';
import { parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { type Balancer, startHaproxy, startNginx } from './helpers/balancers.js';
import { exchange, parseResponses, type RawResponse, SERVER_ENDS } from './helpers/raw-http.js';
import { sample, scrape } from './helpers/scrape.js';
import { until } from './helpers/until.js';

// The held requests below wait for their bodies far longer than any test step takes.
const api = await startTestApi({ bodyTimeoutMs: 120_000 }, { requestTimeoutMs: 120_000 });
const upstream = new URL(api.origin).host;
const balancers: Balancer[] = await Promise.all([startHaproxy(upstream), startNginx(upstream)]);

/** The per-client limit both shipped configurations set. */
const PER_CLIENT = 100;

function request(origin: string, target: string, method = 'GET', headers = ''): string {
  return (
    `${method} ${target} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\n${headers}` +
    'Connection: close\r\n\r\n'
  );
}

async function answer(origin: string, raw: string | (string | Buffer)[]): Promise<RawResponse> {
  const { data } = await exchange(origin, raw, SERVER_ENDS);
  const [response] = parseResponses(data, { head: /^HEAD /.test(String(raw)) });
  if (!response) throw new Error('no answer');
  return response;
}

/** How long a wait on the balancer lasts before it fails. */
const WAIT_MS = 120_000;

const errorCode = (response: RawResponse) =>
  parseErrorBody(response.headers['content-type'], response.body, response.status).code;

/** How often a held request sends one more byte of its body. */
const TRICKLE_MS = 2_000;

/**
 * A create whose head is sent and whose body is not, yet: a request in progress. It sends one
 * byte of its body every `TRICKLE_MS`, so that the balancer's inactivity timeouts (30 s and more
 * in the shipped configurations) never close it however slowly the machine runs the test; the
 * body is long enough to last minutes.
 */
function heldCreate(origin: string): {
  sent: Promise<Socket>;
  readonly closed: boolean;
  finish(): Promise<number>;
} {
  const body = JSON.stringify({ name: `Held${'x'.repeat(150)}`, categoryId: 1 });
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(origin).port) });
  const received: Buffer[] = [];
  let written = 0;
  let closed = false;
  const trickle = setInterval(() => {
    if (written < body.length - 1) socket.write(body[written++] as string);
  }, TRICKLE_MS);
  socket.on('data', (chunk) => received.push(chunk));
  const ended = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closed = true;
      clearInterval(trickle);
      resolve();
    }),
  );
  socket.on('error', () => {});
  const sent = new Promise<Socket>((resolve) => {
    // A connection refused at once counts as sent: finish() then finds no answer.
    socket.on('close', () => resolve(socket));
    socket.on('connect', () =>
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: ${new URL(origin).host}\r\n` +
          `Authorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
        () => resolve(socket),
      ),
    );
  });
  return {
    sent,
    get closed() {
      return closed;
    },
    finish: async () => {
      clearInterval(trickle);
      socket.write(body.slice(written));
      await ended;
      return parseResponses(Buffer.concat(received))[0]?.status ?? 0;
    },
  };
}

describe.each(
  balancers.map((balancer) => [balancer.name, balancer] as const),
)('the shipped %s configuration in front of the API', (name, balancer) => {
  it('passes the API through', async () => {
    const list = await answer(
      balancer.origin,
      request(balancer.origin, '/v1/pets', 'GET', `Authorization: Bearer ${TEST_KEY}\r\n`),
    );
    expect(list.status).toBe(200);
  });

  it.each([
    '/metrics',
    '/metrics?x=1',
    '/metrics?',
    'absolute',
    '/%6detrics',
    '//metrics',
  ])('refuses /metrics to the public, spelt %s, with a 404 Error body', async (spelling) => {
    const target = spelling === 'absolute' ? `${balancer.origin}/metrics` : spelling;
    for (const method of ['GET', 'POST']) {
      const response = await answer(balancer.origin, request(balancer.origin, target, method));
      expect(response.status).toBe(404);
      expect(errorCode(response)).toBe('not_found');
      expect(response.body).not.toContain('process_cpu');
    }
    const head = await answer(balancer.origin, request(balancer.origin, target, 'HEAD'));
    expect(head.status).toBe(404);
  });

  it('refuses /metrics with the scraper’s own headers too', async () => {
    const response = await answer(
      balancer.origin,
      request(balancer.origin, '/metrics', 'GET', 'Accept: text/plain;version=0.0.4\r\n'),
    );
    expect(response.status).toBe(404);
  });

  it('refuses a 65 KB head sent in one write before it reaches the API', async () => {
    const head = request(balancer.origin, '/healthz', 'GET', `X-Pad: ${'a'.repeat(65_000)}\r\n`);
    const { data, closedByServer } = await exchange(balancer.origin, head, SERVER_ENDS);
    expect(parseResponses(data).map((r) => r.status)).toEqual([400]);
    expect(closedByServer).toBe(true);
  });

  it('refuses a head padded with 20 MB of white space, which Node does not count', async () => {
    const { data, closedByServer } = await exchange(
      balancer.origin,
      [
        `GET /healthz HTTP/1.1\r\nHost: ${new URL(balancer.origin).host}\r\nX-Pad:`,
        Buffer.alloc(20_000_000, ' '),
        'x\r\n\r\n',
      ],
      SERVER_ENDS,
    );
    // The 400 may be lost: a balancer closing while the client still writes resets the connection.
    expect([[400], []]).toContainEqual(parseResponses(data).map((r) => r.status));
    expect(closedByServer).toBe(true);
  });

  it(`holds at most ${PER_CLIENT} connections with a request in progress per client address`, async () => {
    const held = Array.from({ length: PER_CLIENT }, () => heldCreate(balancer.origin));
    await Promise.all(held.map((h) => h.sent));
    if (name === 'haproxy') {
      // haproxy counts a connection when one of its threads accepts it, and passes the request
      // on at once: a probe sent before the API holds every request could be counted before the
      // last held connection, which would then be the one refused.
      await until(
        async () =>
          (sample(await scrape(api.origin), 'http_requests_in_flight') ?? 0) >= PER_CLIENT,
        `the ${PER_CLIENT} held requests in progress at the API`,
        WAIT_MS,
      );
    }
    // One more is refused once the balancer has counted the others (it reads them as it can).
    await until(
      async () => {
        expect(held.filter((h) => h.closed)).toHaveLength(0);
        const { data, closedByServer } = await exchange(
          balancer.origin,
          request(balancer.origin, '/healthz'),
          SERVER_ENDS,
        );
        expect(closedByServer).toBe(true);
        if (name === 'haproxy' && data.length === 0) return true; // closed at once, unanswered
        const [response] = parseResponses(data);
        if (response?.status === 429) {
          expect(errorCode(response)).toBe('rate_limited');
          return true;
        }
        expect(response?.status).toBe(200);
        return false;
      },
      `the ${PER_CLIENT + 1}st connection refused`,
      WAIT_MS,
    );
    // Every held request is served in full once its body comes.
    const statuses = await Promise.all(held.map((h) => h.finish()));
    expect(statuses).toEqual(held.map(() => 201));
    // Then the address may connect again.
    await until(
      async () => {
        const { data } = await exchange(balancer.origin, request(balancer.origin, '/healthz'));
        return parseResponses(data)[0]?.status === 200;
      },
      'a connection answered again',
      WAIT_MS,
    );
  });
  // Last: the kit's fetch keeps its connections open a while, and haproxy counts them against
  // the per-address limit the test above holds.
  it("answers a create padded to 2 MiB with an Error, as the kit's createPet.large-body holds", async () => {
    const report = await runConformance({
      baseUrl: `${balancer.origin}/v1`,
      apiKey: TEST_KEY,
      only: ['createPet.large-body'],
    });
    const result = report.results.find((r) => r.id === 'createPet.large-body');
    expect(result?.outcome, result?.message).toBe('pass');
    expect(result?.message).toMatch(/ answered 413$/);
  });
});
