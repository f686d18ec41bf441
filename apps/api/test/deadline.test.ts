import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../src/deadline.js';

describe('withDeadline (a task against its time limit)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const timeout = () => new Error('too slow');

  it("answers with the task's value or error when it ends in time; the timer stops", async () => {
    await expect(withDeadline(Promise.resolve('value'), 1_000, timeout)).resolves.toBe('value');
    await expect(withDeadline(Promise.reject(new Error('failed')), 1_000, timeout)).rejects.toThrow(
      'failed',
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails with the deadline error when the task is too slow, and ignores its late end', async () => {
    let fail: (error: Error) => void = () => {};
    const stalled = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const raced = withDeadline(stalled, 1_000, timeout);
    vi.advanceTimersByTime(999);
    let settled = false;
    raced
      .catch(() => {})
      .finally(() => {
        settled = true;
      });
    await Promise.resolve();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(raced).rejects.toThrow('too slow');
    // A task that fails after its deadline is no unhandled rejection.
    fail(new Error('late'));
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(0);
  });
});
