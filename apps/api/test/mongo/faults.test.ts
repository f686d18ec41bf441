/**
 * The fault suite: the built API as a process, Toxiproxy on its link to the test database, and
 * clients creating pets with Idempotency-Keys and reading them, through each fault of
 * docs/operations.md ("Faults on the database link"). Each fault must show every answer within
 * STORE_TIMEOUT_MS and its margin, `503` with `Retry-After` while the store cannot answer, `2xx`
 * as soon as it can, each keyed create stored once, readiness and the store's metrics telling the
 * truth, and the shipped alerts firing on the series it produced.
 */
import { describe, expect, it } from 'vitest';
import {
  expectAlerts,
  expectStoreSettled,
  FAULTS,
  isServed,
  ownDatabaseAndRig,
  STORE_TIMEOUT_MS,
  storeFailures,
  throughFault,
  untilDown,
} from '../helpers/faults.js';
import { until } from '../helpers/until.js';

const own = ownDatabaseAndRig();

describe('faults on the database link (Toxiproxy between the API process and FerretDB)', () => {
  it('latency below the deadline: every request served, slower than the latency SLO', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        {
          name: 'latency',
          type: 'latency',
          stream: 'downstream',
          // The latency SLO's threshold: every answer that needs the store misses it.
          attributes: { latency: 250 },
        },
      ],
      whileOn: (load) => until(() => load.of('fault').length >= 16),
    });
    expect(run.load.of('fault').filter((a) => !isServed(a))).toEqual([]);
    expect(storeFailures(run.during)).toBe(storeFailures(run.before));
    await expectAlerts(run, FAULTS.latencyBelow);
  });

  it('latency above the deadline: 503 with Retry-After within the deadline, then 2xx', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        {
          name: 'latency',
          type: 'latency',
          stream: 'downstream',
          attributes: { latency: 2 * STORE_TIMEOUT_MS },
        },
      ],
      // The database check times out too; the process stays in rotation.
      whileOn: untilDown(own.rig.api, 12),
      quiet: expectStoreSettled,
    });
    expect(run.readyStatus).toBe(200);
    expect(run.during.errors('timeout')).toBeGreaterThan(run.before.errors('timeout'));
    expect(run.during.databaseUp).toBe(0);
    await expectAlerts(run, FAULTS.latencyAbove);
  });

  it('a partition mid-write: 503 within the deadline, each create stored once, then 2xx', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        { name: 'partition-up', type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } },
        {
          name: 'partition-down',
          type: 'timeout',
          stream: 'downstream',
          attributes: { timeout: 0 },
        },
      ],
      whileOn: untilDown(own.rig.api, 12),
      quiet: expectStoreSettled,
    });
    expect(run.during.errors('timeout')).toBeGreaterThan(run.before.errors('timeout'));
    await expectAlerts(run, FAULTS.partition);
  });

  it('connection resets: 503 with Retry-After, then 2xx', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        { name: 'reset', type: 'reset_peer', stream: 'downstream', attributes: { timeout: 0 } },
      ],
      whileOn: untilDown(own.rig.api, 12),
    });
    expect(run.load.of('fault').some((a) => a.status === 503)).toBe(true);
    expect(storeFailures(run.during)).toBeGreaterThan(storeFailures(run.before));
    await expectAlerts(run, FAULTS.resets);
  });

  it('resets of 30% of connections: served or 503 with Retry-After, none stored twice', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        {
          name: 'some-resets',
          type: 'reset_peer',
          stream: 'downstream',
          // Toxiproxy draws per connection: about one connection in three is reset.
          toxicity: 0.3,
          attributes: { timeout: 0 },
        },
      ],
      whileOn: (load) =>
        until(
          () =>
            load.of('fault').filter((a) => a.status === 201).length >= 8 &&
            load.of('fault').length >= 24,
          'creates served through the resets',
        ),
    });
    // The connections the toxic spares serve; throughFault holds the rest to 503 with Retry-After.
    expect(run.load.of('fault').filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(8);
  });

  it('replies in small slices: every request served', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        {
          name: 'slices',
          type: 'slicer',
          stream: 'downstream',
          attributes: { average_size: 1, size_variation: 0, delay: 0 },
        },
      ],
      whileOn: (load) => until(() => load.of('fault').length >= 16),
    });
    expect(run.load.of('fault').filter((a) => !isServed(a))).toEqual([]);
    await expectAlerts(run, FAULTS.slices);
  });

  it('replies cut mid-document: 503 for what was cut, creates resent are replayed', async () => {
    const run = await throughFault(own.rig, {
      toxics: [
        {
          name: 'cut',
          type: 'limit_data',
          stream: 'downstream',
          // A page of 100 pets is longer: its reply is always cut; short replies sometimes.
          attributes: { bytes: 2_048 },
        },
      ],
      whileOn: async (load) => {
        const page = await load.list(100);
        expect(page.status).toBe(503);
        await until(() => load.of('fault').length >= 24);
      },
    });
    expect(run.during.errors('unavailable')).toBeGreaterThan(run.before.errors('unavailable'));
    await expectAlerts(run, FAULTS.cut);
  });
});
