import { describe, expect, it } from 'vitest';
import { basicCredentialsOf, keysOneCharacterOff } from '../src/sections/auth.js';

describe('the valid key one character off', () => {
  const values = (key: string) => keysOneCharacterOff(key).map((c) => c.authorization?.value);

  it('changes the first, then the last character, the length kept', () => {
    expect(values('abc-123')).toEqual(['Bearer bbc-123', 'Bearer abc-124']);
    expect(keysOneCharacterOff('abc-123').map((c) => c.how)).toEqual([
      'with the valid key, its first character changed',
      'with the valid key, its last character changed',
    ]);
  });

  it('turns a letter into another letter of its case, never itself in the other case', () => {
    expect(values('zKeyZ')).toEqual(['Bearer aKeyZ', 'Bearer zKeyA']);
    expect(values('Key9')).toEqual(['Bearer Ley9', 'Bearer Key0']);
  });

  it('turns any other character into x', () => {
    expect(values('-key=')).toEqual(['Bearer xkey=', 'Bearer -keyx']);
  });

  it('changes a key of one character once, and one of two at either end', () => {
    expect(values('k')).toEqual(['Bearer l']);
    expect(values('ab')).toEqual(['Bearer bb', 'Bearer ac']);
  });
});

describe('Basic credentials of the key', () => {
  it('carry the key as the user name and no password, in base64', () => {
    const { value } = basicCredentialsOf('s3cret-key');
    expect(value).toBe(`Basic ${Buffer.from('s3cret-key:').toString('base64')}`);
    expect(Buffer.from(value.slice('Basic '.length), 'base64').toString()).toBe('s3cret-key:');
  });
});
