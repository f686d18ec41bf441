import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARABIC_INDIC_ZERO,
  FULLWIDTH_ZERO,
  integerSpellings,
  integerSpellingsInWords,
} from '../src/cases/integer-spellings.js';

describe('the spellings of an integer that getPet and listPets send', () => {
  it('are no integer, and each is that integer to the reader it is meant for', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: BigInt(Number.MAX_SAFE_INTEGER) }), (n) => {
        const id = String(n);
        const [
          fraction,
          letters,
          hex,
          octal,
          binary,
          underscored,
          arabic,
          fullwidth,
          before,
          after,
          parameter,
          notUtf8,
        ] = integerSpellings(id);
        for (const spelling of integerSpellings(id)) expect(spelling).not.toMatch(/^-?\d+$/);
        expect(Number.parseInt(fraction as string, 10)).toBe(Number(n));
        expect(Number.parseInt(letters as string, 10)).toBe(Number(n));
        expect(Number(hex)).toBe(Number(n));
        expect(Number(octal)).toBe(Number(n));
        expect(Number(binary)).toBe(Number(n));
        // Python's int drops an underscore between digits.
        expect(underscored).toMatch(/^\d+_\d+$/);
        expect(BigInt((underscored as string).replace('_', ''))).toBe(n);
        // Python's int and Java's Character.digit: each digit of another script, by its value.
        for (const [spelled, zero] of [
          [arabic, ARABIC_INDIC_ZERO],
          [fullwidth, FULLWIDTH_ZERO],
        ] as const) {
          expect(spelled).toMatch(/^\p{Nd}+$/u);
          const read = [...(spelled as string)].map((c) => (c.codePointAt(0) as number) - zero);
          expect(read.join('')).toBe(id);
        }
        // Spring's number reader takes white space out; a servlet container, `;` parameters.
        expect(decodeURIComponent(before as string).trim()).toBe(id);
        expect(decodeURIComponent(after as string).trim()).toBe(id);
        expect((parameter as string).split(';')[0]).toBe(id);
        // Decoded as UTF-8 with what cannot be read dropped (Python's errors='ignore').
        const bytes = Buffer.from(
          (notUtf8 as string).replace(/%([0-9A-F]{2})/gi, (_, hex) =>
            String.fromCharCode(Number.parseInt(hex, 16)),
          ),
          'latin1',
        );
        expect(new TextDecoder().decode(bytes).replaceAll('\uFFFD', '')).toBe(id);
      }),
    );
    expect(integerSpellings('7')).toEqual([
      ...['7.5', '7abc', '0x7', '0o7', '0b111', '0_7', '٧', '７'],
      ...['%207', '7%20', '7;v=1', '7%FF'],
    ]);
    expect(integerSpellings('12')).toEqual([
      ...['12.5', '12abc', '0xc', '0o14', '0b1100', '1_2', '١٢', '１２'],
      ...['%2012', '12%20', '12;v=1', '12%FF'],
    ]);
  });

  it('are none for what is no plain positive integer', () => {
    for (const id of ['', 'abc', '-1', '1.5', '0x1']) expect(integerSpellings(id)).toEqual([]);
  });

  it('are named in words, one name for each, in their order', () => {
    expect(integerSpellingsInWords('N')).toBe(
      'N.5, Nabc, N in hexadecimal, N in octal (0o), N in binary (0b), N split by an underscore, N in Arabic-Indic digits, ' +
        'N in fullwidth digits, N after a space (%20), N before a space (%20), N;v=1, ' +
        'N and a byte no UTF-8 holds (%FF)',
    );
    expect(integerSpellingsInWords('10').split(', ')).toHaveLength(integerSpellings('10').length);
  });
});
