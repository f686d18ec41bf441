import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namesCheck } from '../src/matrix.js';
import { ARABIC_INDIC_ZERO, FULLWIDTH_ZERO, idSpellings } from '../src/sections/get-pet.js';
import { CHECKS, FIXTURE_SET_CHECKS, runOrder, SECTIONS } from '../src/sections/index.js';

describe('the spec sections', () => {
  it('hold each check beside the rows that name it', () => {
    for (const section of SECTIONS) {
      for (const check of section.checks) {
        const own = section.rows.some((row) => row.checks.some((p) => namesCheck(p, check.id)));
        expect(own, `${check.id} is named by a row of its own section`).toBe(true);
      }
      for (const row of section.rows) {
        for (const pattern of row.checks) {
          const held = section.checks.some((c) => namesCheck(pattern, c.id));
          expect(held, `${row.statement}: ${pattern} names a check of the row's section`).toBe(
            true,
          );
        }
      }
    }
  });

  it('give every check one home', () => {
    const ids = SECTIONS.flatMap((s) => s.checks.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(CHECKS.length + FIXTURE_SET_CHECKS.length);
  });

  it('run the first stage first and the last stage last, a pet set just before it', () => {
    const order = runOrder(true);
    const stages = order.map((c) => c.stage ?? 'middle');
    const firstLast = stages.lastIndexOf('first');
    const lastFirst = stages.indexOf('last');
    expect(stages.slice(0, firstLast + 1).every((s) => s === 'first')).toBe(true);
    expect(stages.slice(lastFirst).every((s) => s === 'last')).toBe(true);
    expect(order.slice(lastFirst - FIXTURE_SET_CHECKS.length, lastFirst)).toEqual(
      FIXTURE_SET_CHECKS,
    );
    expect(order.at(-1)?.group).toBe('errors');
  });
});

describe("getPet's spellings of an existing pet's id", () => {
  it('are no integer, and each is that id to the reader it is meant for', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: BigInt(Number.MAX_SAFE_INTEGER) }), (n) => {
        const id = String(n);
        const [fraction, letters, hex, underscored, arabic, fullwidth, before, after, parameter] =
          idSpellings(id);
        for (const spelling of idSpellings(id)) expect(spelling).not.toMatch(/^-?\d+$/);
        expect(Number.parseInt(fraction as string, 10)).toBe(Number(n));
        expect(Number.parseInt(letters as string, 10)).toBe(Number(n));
        expect(Number(hex)).toBe(Number(n));
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
      }),
    );
    expect(idSpellings('7')).toEqual([
      ...['7.5', '7abc', '0x7', '0_7', '٧', '７'],
      ...['%207', '7%20', '7;v=1'],
    ]);
    expect(idSpellings('12')).toEqual([
      ...['12.5', '12abc', '0xc', '1_2', '١٢', '１２'],
      ...['%2012', '12%20', '12;v=1'],
    ]);
  });

  it('are none for an id that is no plain integer', () => {
    for (const id of ['', 'abc', '-1', '1.5', '0x1']) expect(idSpellings(id)).toEqual([]);
  });
});
