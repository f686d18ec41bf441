/**
 * The fault suite's database restart: the API process on a Toxiproxy link to a FerretDB of this
 * file's own, stopped and started again on the same port and data under keyed creates and reads.
 */
import { startTestMongo, type TestMongo } from '@animal-store/test-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAlerts,
  FAULTS,
  type FaultRig,
  startFaultRig,
  storeFailures,
  throughFault,
  untilDown,
} from '../helpers/faults.js';

let mongo: TestMongo;
let rig: FaultRig;
beforeAll(async () => {
  // A server of our own: stopping the run's shared one would break the other test files.
  mongo = await startTestMongo();
  rig = await startFaultRig(mongo.uri);
});
afterAll(async () => {
  await rig?.close();
  await mongo?.stop();
});

describe('the database restarted under load (behind Toxiproxy)', () => {
  it('answers 503 with Retry-After while it is down, then 2xx; each create stored once', async () => {
    const { outage } = mongo;
    if (!outage) throw new Error(`${mongo.kind} cannot be restarted by the test (MONGODB_URI)`);
    const run = await throughFault(rig, {
      begin: () => outage.down(),
      end: () => outage.up(),
      whileOn: untilDown(rig.api, 12),
    });
    expect(run.load.of('fault').some((a) => a.status === 503)).toBe(true);
    expect(storeFailures(run.during)).toBeGreaterThan(storeFailures(run.before));
    await expectAlerts(run, FAULTS.restart);
  });
});
