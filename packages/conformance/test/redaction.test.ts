import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, SECRET_MIN } from '../src/redact.js';

// Every text the kit writes passes through one Redactor: the API key must not reach a report, a
// replay line or a message, in any form a server may echo it in.

describe('the redaction', () => {
  it('hides a key, its encoded forms, and its start where a quote cut it short', () => {
    const redactor = new Redactor(['s3cr"t/key+1']);
    expect(redactor.text('a s3cr"t/key+1 b')).toBe(`a ${REDACTED} b`);
    expect(redactor.text('?k=s3cr%22t%2Fkey%2B1')).toBe(`?k=${REDACTED}`);
    expect(redactor.text('"s3cr\\"t/key+1"')).toBe(`"${REDACTED}"`);
    expect(redactor.text('"Bearer s3cr\\"t/k…"')).toBe(`"Bearer ${REDACTED}…"`);
  });

  it('hides a key holding an unpaired surrogate as is and JSON-escaped (it has no URL form)', () => {
    // A HAR file may carry a `\uD800` escape in an Authorization value.
    const redactor = new Redactor(['k3y\uD800x']);
    expect(redactor.text('a k3y\uD800x b')).toBe(`a ${REDACTED} b`);
    expect(redactor.text('"k3y\\ud800x"')).toBe(`"${REDACTED}"`);
  });

  it("leaves the kit's own words whole where a secret lies inside one, and hides it elsewhere", () => {
    const redactor = new Redactor(['key-a'], ['auth.listPets.key-appended']);
    expect(redactor.text('auth.listPets.key-appended: Bearer key-ax answered 200 (key-a)')).toBe(
      `auth.listPets.key-appended: Bearer ${REDACTED}x answered 200 (${REDACTED})`,
    );
    // A word of the kit's that only holds part of the secret keeps none of it from being hidden.
    expect(redactor.text('listPets.key-a')).toBe(`listPets.${REDACTED}`);
  });

  it('keeps a secret whole inside a kept word from its first character to its last, and no wider', () => {
    expect(new Redactor(['key-a'], ['key-appended']).text('key-appended')).toBe('key-appended');
    expect(new Redactor(['key-a'], ['getPet.key-a']).text('getPet.key-a')).toBe('getPet.key-a');
    // A secret that starts before the kept word, or ends after it, is hidden.
    expect(new Redactor(['xkey-a'], ['key-appended']).text('xkey-appended')).toBe(
      `${REDACTED}ppended`,
    );
    expect(new Redactor(['key-ap'], ['getPet.key-a']).text('getPet.key-ap')).toBe(
      `getPet.${REDACTED}`,
    );
  });

  it('keeps a word whole only where it stands alone, not inside a longer run of its characters', () => {
    const redactor = new Redactor(['key-a'], ['getPet.key-a']);
    expect(redactor.text('(getPet.key-a)')).toBe('(getPet.key-a)');
    expect(redactor.text('remove getPet.key-a.')).toBe('remove getPet.key-a.');
    expect(redactor.text('xgetPet.key-a')).toBe(`xgetPet.${REDACTED}`);
    expect(redactor.text('getPet.key-ab')).toBe(`getPet.${REDACTED}b`);
    expect(redactor.text('getPet.key-a.x')).toBe(`getPet.${REDACTED}.x`);
  });

  it('changes no text while it holds no secret', () => {
    for (const text of ['Stryker was here', '', 'a…', '[redacted key]']) {
      expect(new Redactor().text(text)).toBe(text);
    }
  });

  it('hides every occurrence, and each secret added later', () => {
    const redactor = new Redactor(['first-key']);
    expect(redactor.text('first-key first-key')).toBe(`${REDACTED} ${REDACTED}`);
    expect(redactor.text('later-key')).toBe('later-key');
    redactor.add('later-key');
    expect(redactor.text('first-key, later-key')).toBe(`${REDACTED}, ${REDACTED}`);
    // Added again, a secret is hidden as before.
    redactor.add('first-key');
    expect(redactor.text('first-key')).toBe(REDACTED);
  });

  it('hides the longest secret first, so a value holding the key goes as one piece', () => {
    const redactor = new Redactor(['key-1234']);
    redactor.add('Bearer key-1234');
    expect(redactor.text('Authorization: Bearer key-1234')).toBe(`Authorization: ${REDACTED}`);
    const other = new Redactor(['Bearer key-1234', 'key-1234']);
    expect(other.text('Bearer key-1234 and key-1234')).toBe(`${REDACTED} and ${REDACTED}`);
  });

  it('hides secrets that overlap as one piece, leaving no part of either', () => {
    // The key-truncated probe's value, and a server that echoes the valid key's header.
    const redactor = new Redactor(['key-12345']);
    redactor.add('Bearer key-1234');
    expect(redactor.text('got "Bearer key-12345" nul')).toBe(`got "${REDACTED}" nul`);
    expect(redactor.text('Bearer key-1234, key-12345')).toBe(`${REDACTED}, ${REDACTED}`);
  });

  it(`hides keys of ${SECRET_MIN} characters or more, and no shorter one`, () => {
    expect(SECRET_MIN).toBe(4);
    expect(new Redactor(['abcd']).text('abcde')).toBe(`${REDACTED}e`);
    expect(new Redactor(['abc']).text('abcde')).toBe('abcde');
    expect(new Redactor(['ab']).text('about')).toBe('about');
    const late = new Redactor();
    late.add('abc');
    expect(late.text('abc')).toBe('abc');
  });

  it(`hides a start cut short by an ellipsis down to ${SECRET_MIN} characters`, () => {
    const redactor = new Redactor(['abcdefgh']);
    expect(redactor.text('abcdefg…')).toBe(`${REDACTED}…`);
    expect(redactor.text('abcd…')).toBe(`${REDACTED}…`);
    expect(redactor.text('abc…')).toBe('abc…');
    // Without an ellipsis, a start is no secret.
    expect(redactor.text('abcdefg')).toBe('abcdefg');
    // Every cut start in a text, each of its own length.
    expect(redactor.text('abcdef… and abcde…')).toBe(`${REDACTED}… and ${REDACTED}…`);
  });

  it('copies plain data with every string in it redacted, and nothing else changed', () => {
    const redactor = new Redactor(['s3cret-key']);
    const data = { a: ['s3cret-key', 2], b: { c: 'x s3cret-key' }, n: null, t: true, u: 1.5 };
    expect(redactor.deep(data)).toEqual({
      a: [REDACTED, 2],
      b: { c: `x ${REDACTED}` },
      n: null,
      t: true,
      u: 1.5,
    });
    expect(data.a[0]).toBe('s3cret-key');
    expect(redactor.deep('s3cret-key')).toBe(REDACTED);
    expect(redactor.deep(7)).toBe(7);
  });
});
