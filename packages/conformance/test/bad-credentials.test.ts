import { describe, expect, it } from 'vitest';
import { basicCredentialsOf, keysOneCharacterOff } from '../src/sections/auth.js';

describe('the valid key one character off', () => {
  const values = (key: string) => keysOneCharacterOff(key).map((c) => c.authorization?.value);

  it('changes the first, then the last character, the length kept', () => {
    expect(values('abc-123')).toEqual(['Bearer 6bc-123', 'Bearer abc-12X']);
    expect(keysOneCharacterOff('abc-123').map((c) => c.how)).toEqual([
      'with the valid key, its first character changed',
      'with the valid key, its last character changed',
    ]);
  });

  it('never turns a letter into itself in the other case', () => {
    expect(values('zKeyZ')).toEqual(['Bearer TKeyZ', 'Bearer zKey5']);
    expect(values('Key9')).toEqual(['Bearer qey9', 'Bearer Keyd']);
    for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') {
      const [changed] = values(`${c}-key`);
      expect(changed?.slice('Bearer '.length, 'Bearer '.length + 1).toLowerCase()).not.toBe(
        c.toLowerCase(),
      );
    }
  });

  it('reads - and _ as base64url does, and turns a character of no base64 into x', () => {
    expect(values('-key_')).toEqual(['Bearer ekey_', 'Bearer -keyf']);
    expect(values('.key=')).toEqual(['Bearer xkey=', 'Bearer .keyx']);
  });

  it.each([
    [16, 'base64url'],
    [32, 'base64url'],
    [16, 'base64'],
    [32, 'base64'],
  ] as const)('keeps no key of %i random bytes in %s: whatever its last character, the bytes differ', (size, encoding) => {
    const bytes = Buffer.alloc(size, 0x5a);
    const key = bytes.toString(encoding).replace(/=+$/, '');
    const alphabet = encoding === 'base64' ? BASE64 : BASE64.replace('+/', '-_');
    for (const last of alphabet) {
      const valid = `${key.slice(0, -1)}${last}`;
      const [first, changed] = keysOneCharacterOff(valid).map((c) =>
        (c.authorization?.value ?? '').slice('Bearer '.length),
      );
      for (const other of [first, changed]) {
        // Node's decoder, like most, ignores the bits a last character carries beyond the bytes.
        expect(Buffer.from(other ?? '', encoding).equals(Buffer.from(valid, encoding)), other).toBe(
          false,
        );
      }
    }
  });

  it('changes a key of one character once, and one of two at either end', () => {
    expect(values('k')).toEqual(['Bearer E']);
    expect(values('ab')).toEqual(['Bearer 6b', 'Bearer a7']);
  });
});

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

describe('Basic credentials of the key', () => {
  it('carry the key as the user name and no password, in base64', () => {
    const { value } = basicCredentialsOf('s3cret-key');
    expect(value).toBe(`Basic ${Buffer.from('s3cret-key:').toString('base64')}`);
    expect(Buffer.from(value.slice('Basic '.length), 'base64').toString()).toBe('s3cret-key:');
  });
});
