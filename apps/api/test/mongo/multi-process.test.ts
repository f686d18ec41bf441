import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runKit } from '../helpers/kit.js';
import { type ApiProcess, startApiProcess } from '../helpers/processes.js';

const KEY = 'multi-process-key-0123456789';
const QUOTA = 30;
const uri = inject('mongoUri');
const databases: string[] = [];
afterAll(async () => {
  const client = new MongoClient(uri);
  for (const name of databases) await client.db(name).dropDatabase();
  await client.close();
});

/** Three API processes on one database, started as the README says (environment only). */
async function cluster(env: Record<string, string>): Promise<ApiProcess[]> {
  const db = uniqueDbName();
  databases.push(db);
  const shared = { MONGODB_URI: uri, MONGODB_DB: db, API_KEYS: KEY, ...env };
  const first = await startApiProcess(shared);
  // The first creates the collections and indexes; the others start on them.
  return [first, ...(await Promise.all([startApiProcess(shared), startApiProcess(shared)]))];
}

const auth = { Authorization: `Bearer ${KEY}` };
const json = { ...auth, 'Content-Type': 'application/json' };

async function everyId(api: ApiProcess): Promise<number[]> {
  const ids: number[] = [];
  let path = '/pets?limit=100';
  for (;;) {
    const answer = await fetch(`${api.base}${path}`, { headers: auth });
    expect(answer.status).toBe(200);
    ids.push(...((await answer.json()) as { id: number }[]).map((pet) => pet.id));
    const next = /<\/v1([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
    if (!next) return ids;
    path = next;
  }
}

describe('three API processes on one MongoDB', async () => {
  const apis = await cluster({ RATE_LIMIT_REQUESTS: '0' });

  it('gives concurrent creates spread over all three unique ids, each listed by every process', async () => {
    const created = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const api = apis[i % 3] as ApiProcess;
        const answer = await fetch(`${api.base}/pets`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: `multi-${i}`, categoryId: 1 }),
        });
        expect(answer.status).toBe(201);
        return ((await answer.json()) as { id: number }).id;
      }),
    );
    expect(new Set(created).size).toBe(60);
    for (const api of apis) expect(await everyId(api)).toEqual(expect.arrayContaining(created));
  });

  it('replays an Idempotency-Key request retried on another process, never duplicates it', async () => {
    const send = (api: ApiProcess) =>
      fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: { ...json, 'Idempotency-Key': 'retried-elsewhere-1' },
        body: JSON.stringify({ name: 'Once', categoryId: 1 }),
      });
    const first = await send(apis[0] as ApiProcess);
    expect(first.status).toBe(201);
    const pet = (await first.json()) as { id: number };
    for (const api of [apis[1], apis[2]] as ApiProcess[]) {
      const again = await send(api);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      expect(((await again.json()) as { id: number }).id).toBe(pet.id);
    }
    const named = await fetch(`${apis[2]?.base}/pets?limit=100&after=${pet.id - 1}`, {
      headers: auth,
    });
    const once = ((await named.json()) as { name: string }[]).filter((p) => p.name === 'Once');
    expect(once).toHaveLength(1);
  });

  it.each([0, 1, 2])('passes the conformance kit against process %i', async (index) => {
    const report = await runKit((apis[index] as ApiProcess).base, KEY);
    // A skip is allowed: the runs share one store, and a filter check whose page is full of
    // earlier runs' pets cannot see its own (the kit says so and skips it).
    expect(report.results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip')).toEqual([]);
    expect(report.summary).toMatchObject({ failed: 0, advisories: 0 });
  });
});

describe('three API processes sharing a rate limit through MongoDB', async () => {
  const apis = await cluster({
    RATE_LIMIT_REQUESTS: String(QUOTA),
    RATE_LIMIT_WINDOW_SECONDS: '3600',
  });

  it('limits a key’s requests spread over the three to its quota', async () => {
    const answers = await Promise.all(
      Array.from({ length: QUOTA * 6 }, async (_, i) => {
        const answer = await fetch(`${apis[i % 3]?.base}/pets?limit=1`, { headers: auth });
        await answer.arrayBuffer();
        return { status: answer.status, rateLimit: answer.headers.get('ratelimit') ?? '' };
      }),
    );
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    // The documented bound: at most the quota per window, across any number of processes.
    expect(served.length).toBe(QUOTA);
    expect(refused.length).toBe(QUOTA * 5);
    for (const a of served) {
      const left = Number(/;r=(\d+)/.exec(a.rateLimit)?.[1]);
      expect(left).toBeLessThan(QUOTA);
    }
    expect(refused.every((a) => a.rateLimit.includes(';r=0;'))).toBe(true);
  });
});
