import { describe, expect, inject, it } from 'vitest';
import { driverTimeouts } from '../../src/store/create-store.js';
import { auth, errorBody, json, read, startTestApi } from '../helpers/api.js';
import { sample, scrape } from '../helpers/scrape.js';
import { openMongoTestStore } from '../helpers/store.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/until.js';

// Long enough for FerretDB on two busy cores to answer in time when it is not slowed.
const STORE_TIMEOUT_MS = 1_500;
// Longer than the whole test: replies held this long never come back while it looks.
const HELD_MS = 60 * 60_000;

describe('a database that stops answering in time', () => {
  it('gets every request a 503 within the limit, and recovers when it answers again', async () => {
    const target = new URL(inject('mongoUri').replace(/^mongodb:/, 'http:'));
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const uri = `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`;
    const store = await openMongoTestStore(uri, {
      clientOptions: driverTimeouts(STORE_TIMEOUT_MS),
    });
    const api = await startTestApi({
      store,
      storeLimits: { timeoutMs: STORE_TIMEOUT_MS, maxInFlight: 4 },
    });
    const create = (name: string) =>
      fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: { ...json, 'Idempotency-Key': `slow-${name}` },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
    let id = 0;
    await until(async () => {
      const res = await create('before');
      if (res.status === 201) id = (await read(res)).id;
      else await res.arrayBuffer();
      return res.status === 201;
    }, 'a create answered 201 through the proxy');

    proxy.delayReplies(HELD_MS);
    // More requests than may wait: some wait out the limit, the rest are refused at once.
    const requests = [
      ...Array.from({ length: 8 }, () => fetch(`${api.base}/pets/${id}`, { headers: auth })),
      ...Array.from({ length: 4 }, (_, n) => create(`during-${n}`)),
      fetch(`${api.base}/pets?limit=5`, { headers: auth }),
    ];
    // Every one is answered while the database's replies are still held.
    const answers = await Promise.all(requests);
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect((await errorBody(res)).code).toBe('service_unavailable');
    }
    // A slow database is no fault of the API: never a 500.
    expect(api.logs.filter((line) => line.msg === 'unhandled error')).toEqual([]);
    const text = await scrape(api.origin);
    // No request is left waiting (the scrape is the one in flight), none on the store.
    expect(sample(text, 'http_requests_in_flight')).toBe(1);
    expect(sample(text, 'pet_store_calls_in_flight')).toBe(0);
    const timeouts = ['get', 'createOnce', 'list'].map(
      (operation) => sample(text, 'pet_store_errors_total', { operation, kind: 'timeout' }) ?? 0,
    );
    expect(timeouts.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(1);

    // The delay stops: the same process serves again, by itself.
    proxy.delayReplies(0);
    await until(async () => {
      const res = await fetch(`${api.base}/pets/${id}`, { headers: auth });
      await res.arrayBuffer();
      return res.status === 200;
    }, 'a read answered 200 once replies flow again');
    await until(async () => {
      const res = await create('after');
      await res.arrayBuffer();
      return res.status === 201;
    }, 'a create answered 201 once replies flow again');
    await api.close();
    await proxy.close();
  });
});
