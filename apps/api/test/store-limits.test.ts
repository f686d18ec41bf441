import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import { auth, errorBody, startTestApi } from './helpers/api.js';
import { sample, scrape } from './helpers/scrape.js';

/**
 * An in-memory store whose reads wait until `release()`: a database that stopped answering.
 * `waiting` counts the reads that reached it.
 */
function stalledStore() {
  const store = new MemoryPetStore();
  const gates: (() => void)[] = [];
  let waiting = 0;
  const stall = () =>
    new Promise<void>((resolve) => {
      waiting++;
      gates.push(resolve);
    });
  const getJson = store.getJson.bind(store);
  store.getJson = async (id) => {
    await stall();
    return getJson(id);
  };
  return {
    store,
    get waiting() {
      return waiting;
    },
    release() {
      for (const open of gates.splice(0)) open();
    },
  };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
};

async function expect503(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect((await errorBody(res)).code).toBe('service_unavailable');
}

describe('requests waiting on the store', () => {
  it('are capped: past STORE_MAX_IN_FLIGHT a request is answered 503 at once', async () => {
    const stalled = stalledStore();
    const api = await startTestApi({ store: stalled.store, storeLimits: { maxInFlight: 2 } });
    const waiting = [1, 2].map(() => fetch(`${api.base}/pets/1`, { headers: auth }));
    await until(() => stalled.waiting === 2);

    // Answered while the two before it still wait on the store, which has not answered at all.
    await expect503(await fetch(`${api.base}/pets/1`, { headers: auth }));
    const text = await scrape(api.origin);
    expect(sample(text, 'pet_store_calls_in_flight')).toBe(2);
    expect(sample(text, 'pet_store_errors_total', { operation: 'get', kind: 'timeout' })).toBe(1);
    expect(stalled.waiting).toBe(2);

    // The store answers again: the waiting requests get theirs, and new ones are served.
    stalled.release();
    for (const res of await Promise.all(waiting)) expect(res.status).toBe(404);
    const next = fetch(`${api.base}/pets/1`, { headers: auth });
    await until(() => stalled.waiting === 3);
    stalled.release();
    expect((await next).status).toBe(404);
    expect(sample(await scrape(api.origin), 'pet_store_calls_in_flight')).toBe(0);
  });

  it('end at STORE_TIMEOUT_MS with 503 while the store has still not answered', async () => {
    const stalled = stalledStore();
    const api = await startTestApi({ store: stalled.store, storeLimits: { timeoutMs: 200 } });
    await expect503(await fetch(`${api.base}/pets/1`, { headers: auth }));
    expect(stalled.waiting).toBe(1);
    const text = await scrape(api.origin);
    expect(sample(text, 'pet_store_errors_total', { operation: 'get', kind: 'timeout' })).toBe(1);
    // The request's slot is free again: the cap counts requests waiting, not abandoned calls.
    expect(sample(text, 'pet_store_calls_in_flight')).toBe(0);
    stalled.release();
  });
});
