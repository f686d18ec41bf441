import { startTestMongo, type TestMongo } from '@animal-store/test-db';
import { afterAll, describe, expect, it } from 'vitest';
import { json, listAllPets, type PetBody, read, startTestApi } from '../helpers/api.js';
import { openMongoTestStore } from '../helpers/store.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { sleep, until } from '../helpers/until.js';

// A server of our own: stopping the run's shared one would break the other test files.
const mongo: TestMongo = await startTestMongo();
let proxy: TcpProxy | undefined;
let uri = mongo.uri;
if (!mongo.outage) {
  // A database we do not own (MONGODB_URI) is taken offline through a proxy instead.
  const target = new URL(mongo.uri.replace(/^mongodb:/, 'http:'));
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 27017) });
  uri = `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`;
}
const outage = mongo.outage ?? (proxy as TcpProxy);
afterAll(async () => {
  await proxy?.close();
  await mongo.stop();
});

describe('a database outage under load', () => {
  it('answers 503 while down, recovers by itself, and loses no acknowledged write', async () => {
    const api = await startTestApi({ store: await openMongoTestStore(uri), databaseCheckMs: 200 });
    const acknowledged: PetBody[] = [];
    const statuses = new Map<number, number>();
    let phase: 'before' | 'down' | 'after' = 'before';
    const downStatuses = new Set<number>();
    let running = true;
    const unexpected: string[] = [];

    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const res = await fetch(`${api.base}/pets`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: `load-${n}-${i}`, categoryId: n + 1 }),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (phase === 'down') downStatuses.add(res.status);
        if (res.status === 201) acknowledged.push(await read(res));
        else {
          // Kept for the end: an assertion thrown here would reject `load` unobserved.
          if (res.status !== 503 || res.headers.get('retry-after') === null) {
            unexpected.push(`${res.status} ${await res.text()}`);
          } else await res.arrayBuffer();
          await sleep(50);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, n) => client(n)));

    // Writes under way before the outage, then the outage until the API has said so: a create
    // and the readiness probe answered 503. No guess of how long either takes.
    await until(() => acknowledged.length >= 60, '60 creates acknowledged before the outage');
    await outage.down();
    phase = 'down';
    await until(() => downStatuses.has(503), 'a create answered 503 during the outage');
    // The process stays ready (every backend down would leave clients the balancer's error
    // page): /readyz reports the database's state in its body.
    await until(async () => {
      const res = await fetch(`${api.origin}/readyz`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { database: string }).database === 'down';
    }, "/readyz to report the database 'down'");
    await outage.up();

    // Recovery: the driver reconnects by itself; wait until creates succeed again (a driver that
    // never reconnects fails the wait, naming it).
    const before = acknowledged.length;
    await until(
      () => acknowledged.length >= before + 50,
      '50 creates acknowledged after the outage',
    );
    phase = 'after';
    running = false;
    await load;

    const serverErrors = api.logs.filter((line) => Number(line.level) >= 50);
    expect(unexpected, JSON.stringify(serverErrors)).toEqual([]);
    expect(downStatuses.has(503)).toBe(true);
    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    await until(
      async () =>
        ((await (await fetch(`${api.origin}/readyz`)).json()) as { database: string }).database ===
        'up',
      "/readyz to report the database 'up' again",
    );
    const listed = new Map((await listAllPets(api.base)).map((pet) => [pet.id, pet]));
    expect(acknowledged.length).toBeGreaterThan(100);
    for (const pet of acknowledged) expect(listed.get(pet.id), `pet ${pet.id}`).toEqual(pet);
  });
});
