import { describe, expect, it } from 'vitest';
import { lookAlikeKey } from '../src/http/client.js';

// Where a key would go into a URL, the kit sends a look-alike: the key's length and kinds of
// characters, random, and never the key, so that proxies and access logs never keep it.

const KEY = 'Kit-Key-51c0ffee9d2a';

/** Each character's kind: a lower-case letter, an upper-case one, a digit, or itself. */
const shape = (text: string) =>
  [...text]
    .map((c) => (/[a-z]/.test(c) ? 'a' : /[A-Z]/.test(c) ? 'A' : /\d/.test(c) ? '9' : c))
    .join('');

describe('a look-alike key', () => {
  it('has the key’s length and the kind of each of its characters, other characters kept', () => {
    for (const key of [KEY, 'a', 'Z', '0', 'ab.CD_12~é']) {
      const alike = lookAlikeKey(key);
      expect(alike.length, key).toBe(key.length);
      expect(shape(alike), key).toBe(shape(key));
    }
    expect(lookAlikeKey(KEY)).toMatch(
      /^[A-Z][a-z]{2}-[A-Z][a-z]{2}-\d\d[a-z]\d[a-z]{4}\d[a-z]\d[a-z]$/,
    );
  });

  it('is never the key, even when the key has one letter or digit', () => {
    for (let i = 0; i < 200; i++) {
      for (const key of ['a', 'Q', '7', '--x--']) expect(lookAlikeKey(key)).not.toBe(key);
    }
  });

  it('draws its letters and digits at random', () => {
    const drawn = new Set(Array.from({ length: 20 }, () => lookAlikeKey(KEY)));
    expect(drawn.size).toBeGreaterThan(15);
    const letters = new Set(Array.from({ length: 400 }, () => lookAlikeKey('a')));
    expect(letters.size).toBeGreaterThan(20);
    expect([...letters].every((c) => /^[a-z]$/.test(c))).toBe(true);
  });

  it('is a plain random word for a key with no letter or digit', () => {
    for (const key of ['-_-', '', '~']) expect(lookAlikeKey(key)).toMatch(/^not-the-key-[a-z]{3}$/);
  });
});
