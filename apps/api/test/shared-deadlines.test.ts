import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodyDeadlines } from '../src/http/body-deadlines.js';
import { SharedDeadlines } from '../src/shared-deadlines.js';

describe('body read deadlines (one timer for every read)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a read that outlives its limit, once, within a twentieth of the limit after it', () => {
    const deadlines = bodyDeadlines(2_000);
    const expired = vi.fn();
    deadlines.start(expired);
    vi.advanceTimersByTime(1_999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(expired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('never ends a read that is done in time, and stops its timer at the next tick', () => {
    const deadlines = bodyDeadlines(3_000);
    const late = vi.fn();
    const reads = Array.from({ length: 5 }, () => deadlines.start(late));
    vi.advanceTimersByTime(2_000);
    for (const read of reads) deadlines.done(read);
    vi.advanceTimersByTime(150); // one tick: a twentieth of the limit
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(late).not.toHaveBeenCalled();
  });

  it('starts its timer at most once per tick for reads that come one at a time', () => {
    const deadlines = bodyDeadlines(5_000); // ticks every 250 ms
    const timers = vi.spyOn(globalThis, 'setInterval');
    for (let i = 0; i < 200; i++) {
      deadlines.done(deadlines.start(() => {}));
      vi.advanceTimersByTime(5);
    }
    expect(timers.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(timers.mock.calls.length).toBeLessThanOrEqual(5);
    vi.advanceTimersByTime(250);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends only the reads past their deadline, in the order they began', () => {
    const deadlines = bodyDeadlines(1_000);
    const ended: string[] = [];
    deadlines.start(() => ended.push('first'));
    vi.advanceTimersByTime(600);
    const second = deadlines.start(() => ended.push('second'));
    deadlines.start(() => ended.push('third'));
    vi.advanceTimersByTime(500);
    expect(ended).toEqual(['first']);
    deadlines.done(second);
    vi.advanceTimersByTime(600);
    expect(ended).toEqual(['first', 'third']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('checks every read with one limit by one timer, whoever asks for the limit', () => {
    const reads = Array.from({ length: 3 }, () => bodyDeadlines(4_000).start(() => {}));
    expect(bodyDeadlines(4_000)).toBe(bodyDeadlines(4_000));
    expect(vi.getTimerCount()).toBe(1);
    for (const read of reads) bodyDeadlines(4_000).done(read);
    vi.advanceTimersByTime(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends a read past its deadline with a 408 naming the limit', () => {
    const expired = vi.fn();
    bodyDeadlines(1_500).start(expired);
    vi.advanceTimersByTime(1_600);
    expect(expired).toHaveBeenCalledWith(
      expect.objectContaining({
        status: 408,
        message: 'request body did not arrive within 1500 ms',
      }),
    );
  });
});

describe('SharedDeadlines.race (a task against its deadline)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const timeout = () => new Error('too slow');

  it("answers with the task's value or error when it ends in time; the timer stops", async () => {
    const deadlines = new SharedDeadlines(1_000, timeout);
    await expect(deadlines.race(Promise.resolve('value'))).resolves.toBe('value');
    await expect(deadlines.race(Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    vi.advanceTimersByTime(50);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails with the deadline error when the task is too slow, and ignores its late end', async () => {
    const deadlines = new SharedDeadlines(1_000, timeout);
    let fail: (error: Error) => void = () => {};
    const stalled = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const raced = deadlines.race(stalled);
    vi.advanceTimersByTime(1_100);
    await expect(raced).rejects.toThrow('too slow');
    // A task that fails after its deadline is no unhandled rejection.
    fail(new Error('late'));
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(0);
  });
});
