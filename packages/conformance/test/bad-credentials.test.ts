import { describe, expect, it } from 'vitest';
import {
  basicCredentialsOf,
  keyAppended,
  keysOneCharacterOff,
  keyTruncated,
} from '../src/cases/key-variants.js';

describe('the valid key one character off', () => {
  const values = (key: string) => keysOneCharacterOff(key).map((c) => c.authorization.value);

  it('changes the first, then the last character, the length kept', () => {
    expect(values('abc-123')).toEqual(['Bearer 0bc-123', 'Bearer abc-12A']);
    expect(keysOneCharacterOff('abc-123').map((c) => c.how)).toEqual([
      'with the valid key, its first character changed',
      'with the valid key, its last character changed',
    ]);
  });

  it('turns what stands for less than 32 in base64 into 0, the rest into A', () => {
    expect(values('zKeyZ')).toEqual(['Bearer AKeyZ', 'Bearer zKey0']);
    expect(values('Key9')).toEqual(['Bearer 0ey9', 'Bearer KeyA']);
    expect(values('-key_')).toEqual(['Bearer Akey_', 'Bearer -keyA']);
  });

  it("changes the last character before base64's padding, and a character of no base64 into 0", () => {
    expect(values('.key=')).toEqual(['Bearer 0key=', 'Bearer .keA=']);
    expect(values('q83vEjRWeJCrze8SNFZ4kA==')).toEqual([
      'Bearer A83vEjRWeJCrze8SNFZ4kA==',
      'Bearer q83vEjRWeJCrze8SNFZ4k0==',
    ]);
  });

  it('never turns a letter into itself in the other case', () => {
    for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') {
      const changed = values(`${c}-key`)[0]?.slice('Bearer '.length, 'Bearer '.length + 1);
      expect(changed?.toLowerCase()).not.toBe(c.toLowerCase());
    }
  });

  it('turns g, the first to stand for 32, into A', () => {
    expect(values('fg')).toEqual(['Bearer 0g', 'Bearer fA']);
  });

  it("cuts a key with no padding with the shell's %?, one with padding with sed", () => {
    const [, unpadded] = keysOneCharacterOff('abc');
    expect(unpadded?.authorization.shell).toBe(`Bearer \${ANIMAL_STORE_API_KEY%?}0`);
    const [, padded] = keysOneCharacterOff('abc=');
    expect(padded?.authorization.shell).toBe(
      `Bearer $(printf %s "$ANIMAL_STORE_API_KEY" | sed 's/.\\(=*\\)$/0\\1/')`,
    );
  });

  it('changes a key of one character once, and one of two at either end', () => {
    expect(values('k')).toEqual(['Bearer A']);
    expect(values('ab')).toEqual(['Bearer 0b', 'Bearer a0']);
  });
});

describe('the valid key with a character more or less', () => {
  it('adds or cuts before the padding', () => {
    expect(keyAppended('abc').value).toBe('Bearer abcx');
    expect(keyTruncated('abc').value).toBe('Bearer ab');
    expect(keyAppended('abc==').value).toBe('Bearer abcx==');
    expect(keyTruncated('abc==').value).toBe('Bearer ab==');
    expect(keyAppended('abc==').shell).toBe(
      `Bearer $(printf %s "$ANIMAL_STORE_API_KEY" | sed 's/=*$/x&/')`,
    );
    expect(keyAppended('abc').shell).toBe(`Bearer \${ANIMAL_STORE_API_KEY}x`);
  });

  it('takes only the = at the end for padding, and a key of = alone for all core', () => {
    expect(keyAppended('a=b').value).toBe('Bearer a=bx');
    expect(keyTruncated('a=b').value).toBe('Bearer a=');
    expect(keyAppended('==').value).toBe('Bearer ==x');
    expect(keyTruncated('==').value).toBe('Bearer =');
  });
});

describe('every credential made from a key in base64', () => {
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  it.each([
    [16, 'base64url'],
    [32, 'base64url'],
    [16, 'base64'],
    [32, 'base64'],
  ] as const)('decodes to other bytes than a key of %i bytes in %s, whatever its last character', (size, encoding) => {
    const [core = '', padding = ''] =
      /^(.*?)(=*)$/.exec(Buffer.alloc(size, 0x5a).toString(encoding))?.slice(1) ?? [];
    const alphabet = encoding === 'base64' ? BASE64 : BASE64.replace('+/', '-_');
    for (const last of alphabet) {
      const valid = `${core.slice(0, -1)}${last}${padding}`;
      const made = [
        ...keysOneCharacterOff(valid).map((c) => c.authorization),
        keyAppended(valid),
        keyTruncated(valid),
      ].map((credential) => credential.value.slice('Bearer '.length));
      for (const other of made) {
        // Node's decoder, like most, ignores the bits a last character carries beyond the
        // bytes, and what follows the padding.
        const same = Buffer.from(other, encoding).equals(Buffer.from(valid, encoding));
        expect(same, `${other} for ${valid}`).toBe(false);
      }
    }
  });
});

describe('Basic credentials of the key', () => {
  it('carry the key as the user name and no password, in base64', () => {
    const { value } = basicCredentialsOf('s3cret-key');
    expect(value).toBe(`Basic ${Buffer.from('s3cret-key:').toString('base64')}`);
    expect(Buffer.from(value.slice('Basic '.length), 'base64').toString()).toBe('s3cret-key:');
  });
});
