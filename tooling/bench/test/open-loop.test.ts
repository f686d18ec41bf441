import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedRate } from '../src/open-loop.js';

const server = createServer((req, res) => {
  req.resume();
  res.statusCode = req.url === '/fail' ? 500 : 200;
  res.end('ok');
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (path: string) => [{ method: 'GET' as const, path, headers: {} }];

describe('fixedRate (the open-loop load of the latency runs)', () => {
  it('sends the number of requests asked for and never measures a latency below zero', async () => {
    // A server that answers at once and a rate whose interval is under the timers' millisecond:
    // requests leave before they are due, and their latency still runs from when they left.
    const options = {
      rate: 2_000,
      durationS: 1,
      amount: 1_000,
      connections: 50,
      expectStatus: 200,
    };
    const { requests, latencies } = await fixedRate(origin, get('/'), options);
    expect(requests).toBe(1_000);
    const [lowest] = latencies.quantiles(1e-9);
    expect(lowest).toBeGreaterThanOrEqual(0);
  });

  it('fails on an answer with another status than the expected one', async () => {
    const options = { rate: 100, durationS: 1, amount: 5, connections: 1, expectStatus: 200 };
    await expect(fixedRate(origin, get('/fail'), options)).rejects.toThrow(/unexpected status 500/);
  });
});
