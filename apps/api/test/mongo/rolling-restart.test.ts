import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { uniqueDbName } from '@animal-store/test-db';
import {
  type LoggedProcess,
  onFreePort,
  portAccepts,
  spawnLogged,
  waitUntil,
} from '@animal-store/test-support';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '../helpers/processes.js';

// The repository's balancer configuration, as shipped.
const HAPROXY_CFG = fileURLToPath(
  new URL('../../../../deploy/haproxy/haproxy.cfg', import.meta.url),
);
const KEY = 'rolling-restart-key-0123456789';
const auth = { Authorization: `Bearer ${KEY}` };
const uri = inject('mongoUri');
const db = uniqueDbName();
const children: LoggedProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
  const client = new MongoClient(uri);
  await client.db(db).dropDatabase();
  await client.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The API process on `port` as deploy/haproxy/haproxy.cfg's header says to run it. */
function startApi(port: number): Promise<ApiProcess> {
  return startApiProcess({
    PORT: String(port),
    MONGODB_URI: uri,
    MONGODB_DB: db,
    API_KEYS: KEY,
    RATE_LIMIT_REQUESTS: '0',
    DRAIN_DELAY_MS: '5000',
    KEEP_ALIVE_TIMEOUT_MS: '65000',
    // The balancer's health checks are logged, so the test sees when a process is back.
    OBSERVE_PROBES: 'true',
  });
}

/** haproxy with the shipped configuration, in front of the API processes on `ports`. */
async function startHaproxy(front: number, ports: readonly number[]) {
  const haproxy = spawnLogged('haproxy', ['-f', HAPROXY_CFG, '-db'], {
    env: {
      // Debian installs haproxy in /usr/sbin, on root's PATH only.
      PATH: `${process.env.PATH ?? ''}:/usr/sbin`,
      HAPROXY_BIND: `127.0.0.1:${front}`,
      API_SERVER_1: `127.0.0.1:${ports[0]}`,
      API_SERVER_2: `127.0.0.1:${ports[1]}`,
      API_SERVER_3: `127.0.0.1:${ports[2]}`,
    },
  });
  children.push(haproxy);
  // Its output says "Address already in use" when the port was taken meanwhile.
  await waitUntil(haproxy, 'haproxy', async () => (await portAccepts(front)) || undefined);
  return { haproxy, front };
}

/** How many health checks (`GET /readyz`) a process has answered 200. */
const readyChecks = (api: ApiProcess) =>
  [...api.stdout().matchAll(/"route":"\/readyz","status":200/g)].length;

/** Waits until the balancer has seen `api` ready (its `rise`: 2 checks), however long it takes. */
async function untilInRotation(api: ApiProcess): Promise<void> {
  while (readyChecks(api) < 3) await sleep(100);
}

describe('a rolling restart behind haproxy (deploy/haproxy/haproxy.cfg)', () => {
  it('restarts three processes in turn under load: no failed request, no write lost', async () => {
    // Each on a port free a moment ago, tried again on another when it is taken meanwhile.
    const apis: ApiProcess[] = [];
    const ports: number[] = [];
    // The first creates the collections and indexes; the others start on them.
    for (let n = 0; n < 3; n++) {
      const started = await onFreePort(async (port) => ({ port, api: await startApi(port) }));
      apis.push(started.api);
      ports.push(started.port);
    }
    const { haproxy, front } = await onFreePort((port) => startHaproxy(port, ports));
    // A missing haproxy fails the start above (spawn's error), never skips the test; one that
    // exits later fails it too.
    const haproxyFailed = haproxy.exited.then(() => {
      throw new Error(`haproxy exited (${haproxy.exitStatus()}): ${haproxy.output()}`);
    });
    await Promise.race([Promise.all(apis.map(untilInRotation)), haproxyFailed]);
    const base = `http://127.0.0.1:${front}/v1`;

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
    for (const [index, port] of ports.entries()) {
      const old = apis[index] as ApiProcess;
      const before = requests;
      old.child.kill('SIGTERM');
      const [code] = await once(old.child, 'exit');
      expect(code).toBe(0);
      whileDraining.push(requests - before);
      const fresh = await startApi(port);
      apis[index] = fresh;
      await untilInRotation(fresh);
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
