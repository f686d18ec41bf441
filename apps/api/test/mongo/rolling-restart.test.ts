import { randomUUID } from 'node:crypto';
import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startRotation } from '../helpers/rotation.js';

const KEY = 'rolling-restart-key-0123456789';
const auth = { Authorization: `Bearer ${KEY}` };
const uri = inject('mongoUri');
const db = uniqueDbName();
afterAll(async () => {
  const client = new MongoClient(uri);
  await client.db(db).dropDatabase();
  await client.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a rolling restart behind haproxy (deploy/haproxy/haproxy.cfg)', () => {
  it('restarts three processes in turn under load: no failed request, no write lost', async () => {
    // A missing haproxy fails the start (spawn's error), never skips the test.
    const rotation = await startRotation({
      MONGODB_URI: uri,
      MONGODB_DB: db,
      API_KEYS: KEY,
      RATE_LIMIT_REQUESTS: '0',
    });
    const base = rotation.base;

    // Steady load: clients that create a pet (with its Idempotency-Key, as clients should)
    // and read it back, through the balancer.
    const acknowledged = new Map<number, { name: string }>();
    const failures: string[] = [];
    let requests = 0;
    let running = true;
    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const name = `rolling-${n}-${i}`;
        try {
          const created = await fetch(`${base}/pets`, {
            method: 'POST',
            headers: {
              ...auth,
              'Content-Type': 'application/json',
              'Idempotency-Key': randomUUID(),
            },
            body: JSON.stringify({ name, categoryId: 1 }),
          });
          requests++;
          if (created.status !== 201) {
            failures.push(`POST ${created.status} ${await created.text()}`);
            continue;
          }
          const pet = (await created.json()) as { id: number; name: string };
          acknowledged.set(pet.id, pet);
          const read = await fetch(`${base}/pets/${pet.id}`, { headers: auth });
          requests++;
          if (read.status !== 200) failures.push(`GET ${read.status} ${await read.text()}`);
          else await read.arrayBuffer();
        } catch (error) {
          failures.push(`${name}: ${(error as Error).message} ${(error as Error).cause ?? ''}`);
        }
        await sleep(20);
      }
    };
    const load = Promise.all(Array.from({ length: 4 }, (_, n) => client(n)));

    const whileDraining: number[] = [];
    for (const index of rotation.apis.keys()) {
      const before = requests;
      await rotation.restart(index);
      whileDraining.push(requests - before);
    }
    running = false;
    await load;

    expect(failures).toEqual([]);
    // The load ran through every restart.
    for (const count of whileDraining) expect(count).toBeGreaterThan(0);
    const listed = new Map<number, { name: string }>();
    let path = '/pets?limit=100';
    for (;;) {
      const page = await fetch(`${base}${path}`, { headers: auth });
      expect(page.status).toBe(200);
      for (const pet of (await page.json()) as { id: number; name: string }[]) {
        listed.set(pet.id, pet);
      }
      const next = /<\/v1([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
      if (!next) break;
      path = next;
    }
    for (const [id, pet] of acknowledged) expect(listed.get(id), `pet ${id}`).toEqual(pet);
    // Each name was sent once: a create sent twice by the balancer was stored once.
    expect(new Set([...listed.values()].map((pet) => pet.name)).size).toBe(listed.size);
    expect(listed.size).toBe(acknowledged.size);
  });
});
