import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedRate, saturate } from '../src/load.js';
import { processCpuByThread, processCpuSeconds } from '../src/process-cpu.js';
import { rotated, together, tracingWarmupRequests } from '../src/rounds.js';
import { type ServerChild, untilIdle } from '../src/servers.js';

const server = createServer((req, res) => {
  req.resume();
  res.statusCode = req.url === '/fail' ? 500 : 200;
  res.end('ok');
});
let child: ServerChild;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // This process stands for the server child: its own CPU time is what is metered.
  child = {
    name: 'test',
    origin,
    cpuSeconds: () => processCpuSeconds(process.pid),
    cpuByThread: () => processCpuByThread(process.pid),
    idle: async () => {},
    rssMb: () => 0,
    signal: () => {},
    stderrUntil: async () => {},
    stop: async () => {},
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (path: string) => [{ method: 'GET' as const, path, headers: {} }];
const load = { connections: 5, expectStatus: 200, durationS: 1 };

describe('the load', () => {
  it('sends the requests asked for at a fixed rate, latencies never below zero', async () => {
    // Faster than the timers' millisecond: requests leave before they are due.
    const run = await fixedRate(child, get('/'), { ...load, rate: 2_000, amount: 500 });
    expect(run.requests).toBe(500);
    expect(run.p50Ms).toBeGreaterThanOrEqual(0);
    expect(run.cpuUsPerRequest).toBeGreaterThan(0);
  });

  it('fails a run that sees another status than the expected one', async () => {
    const options = { ...load, rate: 100, amount: 5 };
    await expect(fixedRate(child, get('/fail'), options)).rejects.toThrow('status 500');
    const saturated = { ...load, pipelining: 2, amount: 20 };
    await expect(saturate(child, get('/fail'), saturated)).rejects.toThrow('"500":');
  });

  it('counts the responses of a run at saturation and the CPU time they took', async () => {
    const run = await saturate(child, get('/'), { ...load, pipelining: 2, amount: 100 });
    expect(run.requests).toBeGreaterThan(0);
    expect(run.cpuUsPerRequest).toBeGreaterThan(0);
    // By kind of thread: this process's main thread served and drove the requests.
    const split = run.threadUsPerRequest;
    expect(split?.main).toBeGreaterThan(0);
    const { main, v8, workers, other } = split ?? { main: 0, v8: 0, workers: 0, other: 0 };
    // One reading gives both: the kinds add up to the whole, each rounded to 0.01 µs.
    expect(Math.abs(main + v8 + workers + other - run.cpuUsPerRequest)).toBeLessThan(0.05);
  });
});

describe('waiting for a server to finish its leftovers', () => {
  it('resolves only once the CPU time stops rising', async () => {
    // A process that uses 50 ms of CPU per look for its first five looks, then none.
    let looks = 0;
    await untilIdle(() => Math.min(++looks, 6) * 0.05);
    expect(looks).toBe(7);
  });
});

describe('the rotation of the rounds', () => {
  it('starts each round with the next server and keeps their order', () => {
    const servers = ['api', 'traced', 'fastify', 'limit'];
    expect(rotated(0, servers)).toEqual(servers);
    expect(rotated(1, servers)).toEqual(['traced', 'fastify', 'limit', 'api']);
    expect(rotated(4, servers)).toEqual(servers);
  });
});

describe('runs together on one core', () => {
  it('last as many times as long as there are servers, so each gets its CPU time alone', () => {
    expect(together({ durationS: 2.5 }, 8)).toEqual({ durationS: 20 });
    expect(together({ durationS: 1 }, 1)).toEqual({ durationS: 1 });
  });

  it("keep a smoke run's count of requests, which needs no stretching", () => {
    expect(together({ durationS: 1, amount: 20 }, 8)).toEqual({ durationS: 1, amount: 20 });
  });
});

describe("the tracing group's second warm-up", () => {
  const load = { connections: 100, pipelining: 10 };

  it('lasts until the traced API has recorded the requests asked, at its ratio', () => {
    expect(tracingWarmupRequests({ ...load, tracing: 0.01, recordedWarmup: 1000 })).toBe(100_000);
    expect(tracingWarmupRequests({ ...load, tracing: 0.03, recordedWarmup: 1000 })).toBe(33_334);
  });

  it('sends at least what autocannon needs to end a run by count, and nothing untraced', () => {
    expect(tracingWarmupRequests({ ...load, tracing: 1, recordedWarmup: 1 })).toBe(1000);
    expect(tracingWarmupRequests({ ...load, tracing: undefined, recordedWarmup: 1000 })).toBe(0);
  });
});
