import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { ClusterRateLimiter } from '../../src/rate-limit/cluster-rate-limiter.js';
import { guarded } from '../../src/store/mongo-errors.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';

const client = new MongoClient(inject('mongoUri'));
const names: string[] = [];
afterAll(async () => {
  for (const name of names) await client.db(name).dropDatabase();
  await client.close();
});
const freshDb = () => {
  names.push(uniqueDbName());
  return client.db(names.at(-1));
};

const QUOTA = 50;
const WINDOW = { requests: QUOTA, windowSeconds: 3600 };

describe('ClusterRateLimiter (the rate limit shared through MongoDB)', () => {
  it('grants a key at most its quota across processes, and every remaining count is honest', async () => {
    const db = freshDb();
    let leases = 0;
    const fallbacks: unknown[] = [];
    const now = () => 1_000_000;
    const processes = await Promise.all(
      [0, 1, 2].map(() =>
        ClusterRateLimiter.open(db, WINDOW, {
          lease: 7,
          now,
          onLease: () => leases++,
          onFallback: (error) => fallbacks.push(error),
        }),
      ),
    );
    let served = 0;
    const answers: { remaining: number; servedAfter: number }[] = [];
    // 180 requests of one key, spread over the three, all at once: each process is asked more
    // than the quota, so none is left holding part of it unspent.
    await Promise.all(
      Array.from({ length: 180 }, async (_, i) => {
        const remaining = await processes[i % 3]?.take('alice');
        if (remaining === undefined || remaining < 0) return;
        served += 1;
        answers.push({ remaining, servedAfter: served });
      }),
    );
    expect(fallbacks).toEqual([]);
    expect(served).toBe(QUOTA);
    // What a process reports left is what it holds: never more than the cluster had left then.
    for (const { remaining, servedAfter } of answers) {
      expect(remaining).toBeLessThanOrEqual(QUOTA - servedAfter);
    }
    expect(answers.filter((a) => a.remaining === 0).length).toBeGreaterThan(0);
    // Leases, not one round-trip per request: 50 requests in leases of 7, plus the refusals.
    expect(leases).toBeLessThan(served);
    // Another key has its own quota.
    expect(await processes[0]?.take('bob')).toBeGreaterThanOrEqual(0);
  });

  it('says 0 left only once the cluster has no quota left for the key', async () => {
    const db = freshDb();
    const one = await ClusterRateLimiter.open(
      db,
      { requests: 10, windowSeconds: 60 },
      {
        lease: 3,
        now: () => 0,
      },
    );
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) seen.push(await one.take('k'));
    expect(seen.slice(0, 10).filter((r) => r === 0)).toEqual([0]);
    expect(seen[9]).toBe(0);
    expect(seen.slice(10)).toEqual([-1, -1]);
  });

  it('refills the quota in the next window', async () => {
    const db = freshDb();
    let t = 0;
    const limiter = await ClusterRateLimiter.open(
      db,
      { requests: 2, windowSeconds: 60 },
      {
        lease: 1,
        now: () => t,
      },
    );
    expect([await limiter.take('k'), await limiter.take('k'), await limiter.take('k')]).toEqual([
      1, 0, -1,
    ]);
    expect(limiter.resetSeconds()).toBe(60);
    t = 60_000;
    expect(await limiter.take('k')).toBe(1);
  });

  it('counts in the process alone, and says so once, when the database cannot be reached', async () => {
    const lost = new MongoClient(inject('mongoUri'), { serverSelectionTimeoutMS: 500 });
    names.push(uniqueDbName());
    const db = lost.db(names.at(-1));
    const fallbacks: number[] = [];
    const limiter = await ClusterRateLimiter.open(
      db,
      { requests: 3, windowSeconds: 60 },
      {
        lease: 1,
        now: () => 0,
        onFallback: (_error, until) => fallbacks.push(until),
      },
    );
    await lost.close();
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) seen.push(await limiter.take('k'));
    expect(seen).toEqual([2, 1, 0, -1, -1]);
    expect(fallbacks).toEqual([60_000]);
  });

  it('grants no process a lease past the quota’s last, however the slots fell', async () => {
    const db = freshDb();
    const settings = { requests: 5, windowSeconds: 60 };
    const [a, b] = await Promise.all(
      [0, 1].map(() => ClusterRateLimiter.open(db, settings, { lease: 2, now: () => 0 })),
    );
    if (a === undefined || b === undefined) throw new Error('two limiters');
    // In turn: a takes slot 0, b slot 1, a slot 2 (the quota's last request), b finds none left.
    const seen = [];
    for (const limiter of [a, b, a, b, a, b, a, b]) seen.push(await limiter.take('k'));
    expect(seen.filter((left) => left >= 0)).toHaveLength(5);
    expect(seen.slice(-2)).toEqual([-1, -1]);
    const slots = await db.collection('rate_limits').find({}).toArray();
    expect(slots.map((slot) => slot._id).sort()).toEqual(['0:k:0', '0:k:1', '0:k:2']);
  });

  it('keeps each lease until the window after its own has ended', async () => {
    const db = freshDb();
    const limiter = await ClusterRateLimiter.open(
      db,
      { requests: 10, windowSeconds: 60 },
      { lease: 5, now: () => 90_000 },
    );
    await limiter.take('k');
    const lease = await db.collection('rate_limits').findOne({ _id: '1:k:0' as never });
    expect(lease).toMatchObject({ key: 'k', window: 1, expiresAt: new Date(180_000) });
  });

  it('drops the leases of windows before the last one when a new window starts', async () => {
    const db = freshDb();
    let t = 0;
    const limiter = await ClusterRateLimiter.open(
      db,
      { requests: 10, windowSeconds: 60 },
      { lease: 5, now: () => t },
    );
    const ids = async () =>
      (await db.collection('rate_limits').find({}).toArray()).map((lease) => lease._id).sort();
    for (t of [0, 60_000]) await limiter.take('k');
    expect(await ids()).toEqual(['0:k:0', '1:k:0']);
    t = 120_000;
    await limiter.take('k');
    // The drop is not awaited by the request that starts the window.
    await vi.waitFor(async () => expect(await ids()).toEqual(['1:k:0', '2:k:0']), {
      timeout: 60_000,
      interval: 50,
    });
  });

  it('counts alone from a failed lease to the end of its window, and says so once', async () => {
    const db = freshDb();
    let t = 0;
    let down = false;
    let leases = 0;
    const fallbacks: number[] = [];
    const limiter = await ClusterRateLimiter.open(
      db,
      { requests: 3, windowSeconds: 60 },
      {
        lease: 1,
        now: () => t,
        call: (operation) =>
          down ? Promise.reject(new StoreUnavailableError('down')) : guarded(operation),
        onLease: () => leases++,
        onFallback: (_error, until) => fallbacks.push(until),
      },
    );
    down = true;
    // Two keys' leases fail at once: one fallback, to the window's end.
    expect(await Promise.all([limiter.take('a'), limiter.take('b')])).toEqual([2, 2]);
    expect(fallbacks).toEqual([60_000]);
    down = false;
    t = 59_999;
    expect(await limiter.take('a')).toBe(1);
    expect(leases).toBe(0);
    // The next window shares the quota through the database again.
    t = 60_000;
    expect(await limiter.take('a')).toBe(1);
    expect(leases).toBeGreaterThan(0);
  });
});
