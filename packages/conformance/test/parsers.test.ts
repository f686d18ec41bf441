import { describe, expect, it } from 'vitest';
import { retryDelay } from '../src/http/client.js';
import { fallsOnDay, parseHttpDate, parseStructuredDate, readableDate } from '../src/http/dates.js';
import { canonicalInteger, integerText, numberText, parseJson } from '../src/http/json.js';
import { linkTargets } from '../src/http/link.js';

describe('parseJson', () => {
  it('parses like JSON.parse', () => {
    const text = '{"a":[1,{"b":"x\\"y"}],"c":null,"d":true,"e":-1.5e3,"f":{}}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps the digits of integers beyond 2^53', () => {
    const pet = parseJson('{"id": 1790000000000000123, "categoryId":9007199254740993}');
    expect(integerText(pet, 'id')).toBe('1790000000000000123');
    expect(numberText(pet, 'categoryId')).toBe('9007199254740993');
  });

  it('keeps the digits in every object of an array', () => {
    const list = parseJson('[{"id":9223372036854775807},{"id":2}]') as unknown[];
    expect(list.map((p) => integerText(p, 'id'))).toEqual(['9223372036854775807', '2']);
  });

  it('keeps "__proto__" an ordinary key', () => {
    const value = parseJson('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('throws on malformed JSON', () => {
    expect(() => parseJson('{"name": ')).toThrow(SyntaxError);
  });
});

describe('canonicalInteger', () => {
  it.each([
    ['42', '42'],
    ['-0', '0'],
    ['1e3', '1000'],
    ['1.0', '1'],
    ['9.007199254740993e15', '9007199254740993'],
    ['1500e-3', undefined],
    ['15000e-3', '15'],
    ['1.5', undefined],
  ])('reads %s as %s', (literal, expected) => {
    expect(canonicalInteger(literal)).toBe(expected);
  });
});

describe('parseHttpDate', () => {
  const sunset = '2030-12-05T00:00:00.000Z';
  it.each([
    ['Thu, 05 Dec 2030 00:00:00 GMT', sunset],
    ['Thursday, 05-Dec-30 00:00:00 GMT', sunset],
    ['Thu Dec  5 00:00:00 2030', sunset],
    ['Thu, 05 Dec 2030 23:59:59 GMT', '2030-12-05T23:59:59.000Z'],
  ])('accepts %s', (value, iso) => {
    expect(parseHttpDate(value)?.toISOString()).toBe(iso);
  });

  it.each([
    '2030-12-05T00:00:00Z',
    'Fri, 05 Dec 2030 00:00:00 GMT',
    'Thu, 5 Dec 2030 00:00:00 GMT',
    'Thu, 05 Dec 2030 00:00:00 UTC',
    'Thu, 31 Feb 2030 00:00:00 GMT',
    '1764892800',
  ])('refuses %s', (value) => {
    expect(parseHttpDate(value)).toBeUndefined();
  });
});

describe('readableDate and fallsOnDay', () => {
  it.each([
    ['2030-12-05', true],
    ['2030-12-06', false],
    ['2030-12-04', false],
    ['2030-12-05T23:00:00+01:00', true],
    ['Wed, 04 Dec 2030 23:00:00 GMT', true],
    ['Fri, 06 Dec 2030 12:00:00 GMT', false],
  ])('reads %s as naming 5 December 2030: %s', (value, names) => {
    const date = readableDate(value);
    expect(date).toBeDefined();
    expect(fallsOnDay(date as NonNullable<typeof date>, '2030-12-05')).toBe(names);
  });
});

describe('parseStructuredDate', () => {
  it.each([
    ['@1767225600', '2026-01-01T00:00:00.000Z'],
    ['@0', '1970-01-01T00:00:00.000Z'],
    ['@1767225600;foo=bar', '2026-01-01T00:00:00.000Z'],
  ])('accepts %s', (value, iso) => {
    expect(parseStructuredDate(value)?.toISOString()).toBe(iso);
  });

  it.each([
    'true',
    '1767225600',
    '@',
    '@1.5',
    'Thu, 01 Jan 2026 00:00:00 GMT',
  ])('refuses %s', (value) => {
    expect(parseStructuredDate(value)).toBeUndefined();
  });
});

describe('linkTargets', () => {
  it.each([
    ['</v1/pets?after=3>; rel="next"', 'next', ['/v1/pets?after=3']],
    ['</a>; rel="prev", </b>; rel=next', 'next', ['/b']],
    ['</v1/pets>; rel="successor-version"', 'successor-version', ['/v1/pets']],
    ['</x>; rel="alternate NEXT"', 'next', ['/x']],
    ['</x>; title="next, please"; rel="prev"', 'next', []],
    ['', 'next', []],
  ])('finds in %j the %s targets', (header, rel, targets) => {
    expect(linkTargets(header, rel)).toEqual(targets);
  });
});

describe('retryDelay', () => {
  it.each([
    ['0', 0],
    ['2', 2000],
    ['120', 5000],
    [null, 1000],
    ['soon', 1000],
  ])('waits for Retry-After %j as %i ms (capped at 5 s)', (value, ms) => {
    expect(retryDelay(value, 5000)).toBe(ms);
  });

  it('reads an HTTP-date', () => {
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    expect(retryDelay(inTwoSeconds, 5000)).toBeGreaterThan(500);
  });
});
