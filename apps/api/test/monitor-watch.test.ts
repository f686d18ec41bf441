import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type HeartbeatEvents, MonitorWatch } from '../src/store/monitor-watch.js';

const timings = { connectTimeoutMS: 2_000, heartbeatFrequencyMS: 10_000 };

function watched(settings = timings) {
  let now = 0;
  const client = new EventEmitter();
  const watch = new MonitorWatch(settings, () => now);
  watch.observe(client as unknown as HeartbeatEvents);
  const started = (awaited = false) =>
    client.emit('serverHeartbeatStarted', { connectionId: 'db:27017', awaited });
  return {
    watch,
    client,
    started,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('MonitorWatch', () => {
  it('reports a polled check that outlives connecting and its reply', () => {
    const { watch, started, advance } = watched();
    started();
    advance(2 * timings.connectTimeoutMS);
    expect(watch.stalled()).toEqual([]);
    advance(2_000);
    expect(watch.stalled()).toEqual(['db:27017']);
  });

  it('gives an awaited check the heartbeat interval on top', () => {
    const { watch, started, advance } = watched();
    started(true);
    advance(timings.heartbeatFrequencyMS + 2 * timings.connectTimeoutMS);
    expect(watch.stalled()).toEqual([]);
    advance(2_000);
    expect(watch.stalled()).toEqual(['db:27017']);
  });

  it('forgets a check once it succeeds or fails', () => {
    const { watch, client, started, advance } = watched();
    started();
    client.emit('serverHeartbeatSucceeded', { connectionId: 'db:27017' });
    advance(60_000);
    expect(watch.stalled()).toEqual([]);
    started();
    client.emit('serverHeartbeatFailed', { connectionId: 'db:27017' });
    advance(60_000);
    expect(watch.stalled()).toEqual([]);
  });

  it('forgets every check on reset (the client reconnected)', () => {
    const { watch, started, advance } = watched();
    started();
    advance(60_000);
    watch.reset();
    expect(watch.stalled()).toEqual([]);
  });

  it('never reports checks that have no time limit', () => {
    const { watch, started, advance } = watched({ ...timings, connectTimeoutMS: 0 });
    started();
    advance(600_000);
    expect(watch.stalled()).toEqual([]);
  });
});
