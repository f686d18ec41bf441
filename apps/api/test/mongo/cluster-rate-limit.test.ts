import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ClusterRateLimiter } from '../../src/rate-limit/cluster-rate-limiter.js';

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
});
