import { describe, expect, it } from 'vitest';
import { LookupThrottle } from '../src/keys/lookup-throttle.js';

describe('LookupThrottle', () => {
  it('grants `limit` lookups per address per window, then refuses until the window ends', () => {
    let now = 0;
    const throttle = new LookupThrottle({ limit: 2, windowMs: 60_000, now: () => now });
    expect(throttle.take('a')).toEqual({ ok: true });
    expect(throttle.take('a')).toEqual({ ok: true });
    expect(throttle.take('a')).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(throttle.take('b')).toEqual({ ok: true });
    now = 59_001;
    expect(throttle.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now = 60_000;
    expect(throttle.take('a')).toEqual({ ok: true });
  });

  it('takes back nothing but what a valid key gave back', () => {
    const throttle = new LookupThrottle({ limit: 1, windowMs: 60_000, now: () => 0 });
    expect(throttle.take('a').ok).toBe(true);
    throttle.giveBack('a');
    expect(throttle.take('a').ok).toBe(true);
    expect(throttle.take('a').ok).toBe(false);
    throttle.giveBack('unknown address');
    expect(throttle.take('a').ok).toBe(false);
  });

  it('tracks at most maxAddresses, forgetting the oldest', () => {
    const throttle = new LookupThrottle({ limit: 1, windowMs: 60_000, maxAddresses: 2 });
    throttle.take('a');
    throttle.take('b');
    throttle.take('c');
    // `a` was forgotten: a fresh window.
    expect(throttle.take('a').ok).toBe(true);
    expect(throttle.take('c').ok).toBe(false);
  });

  it('limits nothing with limit 0', () => {
    const throttle = new LookupThrottle({ limit: 0, windowMs: 1 });
    for (let i = 0; i < 100; i++) expect(throttle.take('a').ok).toBe(true);
  });
});
