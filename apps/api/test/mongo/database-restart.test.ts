/**
 * The fault suite's database restart: the API process on a Toxiproxy link to a FerretDB of this
 * file's own, stopped and started again on the same port and data under keyed creates and reads.
 * Stopping the database closes the connections under the driver's server monitor; a check begun on
 * one of them never ended, and the API answered 503 until restarted (MonitorWatch reconnects it).
 */
import { describe, expect, it } from 'vitest';
import {
  expectAlerts,
  FAULTS,
  ownDatabaseAndRig,
  storeFailures,
  throughFault,
  untilDown,
} from '../helpers/faults.js';

const own = ownDatabaseAndRig();

describe('the database restarted under load (behind Toxiproxy)', () => {
  it('answers 503 with Retry-After while it is down, then 2xx; each create stored once', async () => {
    const { outage } = own.mongo;
    if (!outage) throw new Error(`${own.mongo.kind} cannot be restarted by the test (MONGODB_URI)`);
    // Twice: a stop that leaves the driver's monitor stalled comes about every other restart.
    for (let restart = 1; restart <= 2; restart++) {
      const run = await throughFault(own.rig, {
        begin: () => outage.down(),
        end: () => outage.up(),
        whileOn: untilDown(own.rig.api, 12),
      });
      expect(run.load.of('fault').some((a) => a.status === 503)).toBe(true);
      expect(storeFailures(run.during)).toBeGreaterThan(storeFailures(run.before));
      await expectAlerts(run, FAULTS.restart);
    }
  });
});
