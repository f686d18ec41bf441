/**
 * The fault suite behind the shipped haproxy: three API processes on one Toxiproxy link to the
 * test database, slowed (below the deadline) and its replies sliced, restarted one at a time
 * under keyed creates and reads.
 */
import {
  startTestMongo,
  startToxiproxy,
  type Toxiproxy,
  uniqueDbName,
} from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenAnswers, expectEachCreateStoredOnce, faultApiEnv, Load } from '../helpers/faults.js';
import { startRotation } from '../helpers/rotation.js';

// A server of its own: the suite's load never slows the other files' database.
const mongo = await startTestMongo();
const uri = mongo.uri;
const dbName = uniqueDbName();
const client = new MongoClient(uri);
let toxiproxy: Toxiproxy | undefined;
afterAll(async () => {
  await toxiproxy?.stop();
  await client.db(dbName).dropDatabase();
  await client.close();
  await mongo.stop();
});

describe('a slow, sliced database link during a rolling restart behind haproxy', () => {
  it("answers every request 2xx, or the store deadline's 503, each create stored once", async () => {
    toxiproxy = await startToxiproxy();
    const link = await toxiproxy.link('rolling', new URL(uri.replace(/^mongodb:/, 'http:')).host);
    await link.addToxic({
      name: 'latency',
      type: 'latency',
      stream: 'downstream',
      attributes: { latency: 100, jitter: 50 },
    });
    await link.addToxic({
      name: 'slices',
      type: 'slicer',
      stream: 'downstream',
      attributes: { average_size: 64, size_variation: 32, delay: 0 },
    });
    const rotation = await startRotation(faultApiEnv(link.port, dbName));
    const load = new Load(rotation.base);
    load.start();
    for (const index of rotation.apis.keys()) {
      load.phase = `restart of process ${index + 1}`;
      const before = load.answers.length;
      await rotation.restart(index);
      // The load ran through the restart.
      expect(load.answers.length).toBeGreaterThan(before);
    }
    await load.stop();

    expect(brokenAnswers(load.answers)).toEqual([]);
    // The balancer retries what a stopping process closed: no request fails for the restarts.
    // A store call the slowed link keeps past the deadline is the store's 503 with Retry-After,
    // as at any time (a busy machine makes some): the API's answer, not a failed request.
    const failed = load.answers.filter(
      (a) =>
        a.status !== 200 &&
        a.status !== 201 &&
        !(a.status === 503 && a.code === 'service_unavailable' && a.retryAfter !== null),
    );
    expect(failed).toEqual([]);
    await expectEachCreateStoredOnce(load, client.db(dbName));
  });
});
