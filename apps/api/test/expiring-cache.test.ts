import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '../src/keys/expiring-cache.js';

function cache(ttlMs: number, maxEntries = 10) {
  let now = 1_000;
  const c = new ExpiringCache<string, string | undefined>({ ttlMs, maxEntries, now: () => now });
  return {
    c,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('ExpiringCache', () => {
  it('serves an entry until its time is up, then forgets it', () => {
    const { c, advance } = cache(5_000);
    c.set('a', 'A');
    advance(4_999);
    expect(c.get('a')).toEqual({ value: 'A' });
    advance(1);
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('remembers undefined as an answer, told apart from a miss', () => {
    const { c } = cache(5_000);
    c.set('unknown', undefined);
    expect(c.get('unknown')).toEqual({ value: undefined });
    expect(c.get('never-set')).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const { c } = cache(5_000, 2);
    c.set('a', 'A');
    c.set('b', 'B');
    c.set('c', 'C');
    expect(c.size).toBe(2);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('c')).toEqual({ value: 'C' });
  });

  it('restarts the time of an entry set again', () => {
    const { c, advance } = cache(5_000, 2);
    c.set('a', 'A');
    advance(3_000);
    c.set('a', 'A2');
    advance(3_000);
    expect(c.get('a')).toEqual({ value: 'A2' });
  });

  it('keeps nothing with a ttl of 0', () => {
    const { c } = cache(0);
    c.set('a', 'A');
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });
});
