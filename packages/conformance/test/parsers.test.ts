import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('keeps the literals of a text with white space around every token', () => {
    const text = ' \t{ "a" :\n0 , "b" : [ 1 , { "c" : -2.50 } ] , "d" : { } }\r\n';
    const value = parseJson(text) as { b: [number, object] };
    expect(value).toEqual(JSON.parse(text));
    expect(numberText(value, 'a')).toBe('0');
    expect(numberText(value.b[1], 'c')).toBe('-2.50');
  });

  it('keeps the literal of the last of two members with one name, as JSON.parse keeps its value', () => {
    expect(numberText(parseJson('{"a":1,"a":"x"}'), 'a')).toBeUndefined();
    expect(numberText(parseJson('{"a":"x","a":2e0}'), 'a')).toBe('2e0');
  });

  it('reads the literal of a short integer as written, in every object, whatever nests it', () => {
    // No fraction, exponent, -0 or long integer anywhere: the text takes JSON.parse alone.
    const list = parseJson('[{"id":5,"o":{"n":-7,"m":[{"z":0}]}},{"id":123456789012345}]') as {
      id: number;
      o: { n: number; m: [object] };
    }[];
    expect(list.map((p) => numberText(p, 'id'))).toEqual(['5', '123456789012345']);
    expect(numberText(list[0]?.o, 'n')).toBe('-7');
    expect(numberText(list[0]?.o.m[0], 'z')).toBe('0');
    expect(numberText(parseJson('{"__proto__":7}'), '__proto__')).toBe('7');
  });

  it.each([
    ['a fraction', '{"a":[{"b":2.50}],"id":12}', 'b', '2.50'],
    ['an exponent', '{"a":[{"b":1E2}],"id":12}', 'b', '1E2'],
    ['-0', '{"a":[{"b":-0}],"id":12}', 'b', '-0'],
    ['an integer of 16 digits', '{"a":[{"b":1234567890123456}],"id":12}', 'b', '1234567890123456'],
  ])('keeps the literal of %s as written, and of every other number', (_, text, key, literal) => {
    const value = parseJson(text) as { a: [object] };
    expect(numberText(value.a[0], key)).toBe(literal);
    expect(numberText(value, 'id')).toBe('12');
  });

  it('reads the same literals when a string holds what a fraction or an exponent would', () => {
    const value = parseJson('{"name":"1.5e3 -0","id":12,"__proto__":7}');
    expect(numberText(value, 'id')).toBe('12');
    expect(numberText(value, '__proto__')).toBe('7');
  });

  it('names no literal for a member that is no number, or none of the object', () => {
    for (const text of ['{"a":"1","b":{}}', '{"a":"1.5","b":{}}']) {
      const value = parseJson(text);
      expect(numberText(value, 'a')).toBeUndefined();
      expect(numberText(value, 'b')).toBeUndefined();
      expect(numberText(value, 'toString')).toBeUndefined();
      expect(numberText(value, 'missing')).toBeUndefined();
    }
  });

  it('reads every number of a JSON text as JSON.stringify wrote it', () => {
    // Every number a text holds, with the literal JSON.stringify gave it.
    const numbers = (value: unknown): [object, string, string][] =>
      value === null || typeof value !== 'object'
        ? []
        : Object.entries(value).flatMap(([key, member]) => [
            ...(typeof member === 'number' && !Array.isArray(value)
              ? [[value, key, JSON.stringify(member)] as [object, string, string]]
              : []),
            ...numbers(member),
          ]);
    fc.assert(
      fc.property(
        // Lists of objects with integer members, as answers hold them, and any JSON value.
        fc.oneof(
          fc.array(fc.dictionary(fc.string(), fc.oneof(fc.integer(), fc.string()))),
          fc.jsonValue(),
        ),
        (generated) => {
          const text = JSON.stringify(generated);
          const value = parseJson(text);
          expect(value).toEqual(JSON.parse(text));
          for (const [object, key, literal] of numbers(value)) {
            expect(numberText(object, key)).toBe(literal);
          }
        },
      ),
    );
  });
});

describe('integerText', () => {
  it('reads a number that parseJson did not parse as its exact integer, or none', () => {
    expect(integerText({ id: 5 }, 'id')).toBe('5');
    expect(integerText({ id: -(2 ** 60) }, 'id')).toBe('-1152921504606846976');
    expect(integerText({ id: 5.5 }, 'id')).toBeUndefined();
    expect(integerText({ id: '5' }, 'id')).toBeUndefined();
    expect(integerText(null, 'id')).toBeUndefined();
    expect(numberText('{"id":1}', 'id')).toBeUndefined();
  });
});

describe('canonicalInteger', () => {
  it.each([
    ['42', '42'],
    ['-0', '0'],
    ['0', '0'],
    ['999999999999999', '999999999999999'],
    ['-9007199254740993', '-9007199254740993'],
    ['1e3', '1000'],
    ['1.0', '1'],
    ['9.007199254740993e15', '9007199254740993'],
    ['1500e-3', undefined],
    ['15000e-3', '15'],
    ['1.5', undefined],
    ['-42', '-42'],
    ['-4.20e1', '-42'],
    ['1e400', `1${'0'.repeat(400)}`],
    ['1e401', undefined],
    ['42x', undefined],
    ['x42', undefined],
    ['', undefined],
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
    ['Thu, 05 Dec 2030 10:59:60 GMT', '2030-12-05T11:00:00.000Z'],
    ['Sun, 01 Jan 2034 00:00:00 GMT', '2034-01-01T00:00:00.000Z'],
    ['Sat, 31 Dec 2033 00:00:00 GMT', '2033-12-31T00:00:00.000Z'],
    // A field's value, with the white space around it that is no part of it.
    [' Thu, 05 Dec 2030 00:00:00 GMT\t', sunset],
  ])('accepts %s', (value, iso) => {
    expect(parseHttpDate(value)?.toISOString()).toBe(iso);
  });

  it.each([
    '2030-12-05T00:00:00Z',
    'Fri, 05 Dec 2030 00:00:00 GMT',
    'Thu, 5 Dec 2030 00:00:00 GMT',
    'Thu, 05 Dec 2030 00:00:00 UTC',
    'Thu, 31 Feb 2030 00:00:00 GMT',
    // 31 February 2030 would be 3 March, a Sunday: the weekday alone does not refuse it.
    'Sun, 31 Feb 2030 00:00:00 GMT',
    'Thu, 05 Dec 2030 10:60:00 GMT',
    'Thu, 05 Dec 2030 10:00:61 GMT',
    'Thu, 05 Dec 2030 24:00:00 GMT',
    'Sun Mar  3 00:00:00 2030 GMT',
    'Thursday, 05-Dec-2030 00:00:00 GMT',
    '1764892800',
  ])('refuses %s', (value) => {
    expect(parseHttpDate(value)).toBeUndefined();
  });
});

describe('parseHttpDate with a two-digit year (RFC 850)', () => {
  afterEach(() => vi.useRealTimers());

  it('reads a year up to 50 years ahead in this century, and one further ahead in the last', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T12:00:00Z'), toFake: ['Date'] });
    expect(parseHttpDate('Saturday, 05-Dec-76 00:00:00 GMT')?.toISOString()).toBe(
      '2076-12-05T00:00:00.000Z',
    );
    expect(parseHttpDate('Monday, 05-Dec-77 00:00:00 GMT')?.toISOString()).toBe(
      '1977-12-05T00:00:00.000Z',
    );
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
    ['Fri, 6 Dec 2030 12:00:00 GMT', false],
    ['Thu, 5 Dec 2030 00:00:00 GMT', true],
    ['Fri, 06 Dec 2030 12:00:00 -0000', false],
    ['Fri Dec 06 2030 12:00:00 GMT+0000 (Coordinated Universal Time)', false],
    ['Thu Dec 05 2030 00:00:00 GMT+0000 (Coordinated Universal Time)', true],
    [' 2030-12-05 ', true],
    [' Thu, 05 Dec 2030 10:00:00 GMT ', true],
    // The day begins first at UTC+14:00 and ends last at UTC-12:00.
    ['2030-12-04T10:00:00Z', true],
    ['2030-12-04T09:59:59Z', false],
    ['2030-12-06T11:59:59Z', true],
    ['2030-12-06T12:00:00Z', false],
    ['2030-12-04T05:00:00-05:00', true],
    ['2030-12-04T04:59:59-0500', false],
    ['2030-12-06T17:29:59+05:30', true],
    ['2030-12-06T17:30:00+05:30', false],
  ])('reads %s as naming 5 December 2030: %s', (value, names) => {
    const date = readableDate(value);
    expect(date).toBeDefined();
    expect(fallsOnDay(date as NonNullable<typeof date>, '2030-12-05')).toBe(names);
  });
});

describe('readableDate', () => {
  const iso = (date: ReturnType<typeof readableDate>) =>
    date && { ...date, earliest: date.earliest.toISOString(), latest: date.latest.toISOString() };

  it.each([
    // A date alone: any instant of that day, in any zone.
    [
      '2030-12-05',
      {
        earliest: '2030-12-04T10:00:00.000Z',
        latest: '2030-12-06T11:59:59.999Z',
        day: '2030-12-05',
      },
    ],
    // A date and time without a zone: that time in any zone.
    [
      '2030-12-05T10:00',
      { earliest: '2030-12-04T20:00:00.000Z', latest: '2030-12-05T22:00:00.000Z' },
    ],
    [
      '2030-12-05 10:00:30.25z',
      { earliest: '2030-12-05T10:00:30.000Z', latest: '2030-12-05T10:00:30.000Z' },
    ],
    [
      '2030-12-05T10:00:00-09:30',
      { earliest: '2030-12-05T19:30:00.000Z', latest: '2030-12-05T19:30:00.000Z' },
    ],
    [
      'Thu, 05 Dec 2030 10:00:00 GMT',
      { earliest: '2030-12-05T10:00:00.000Z', latest: '2030-12-05T10:00:00.000Z' },
    ],
    // RFC 5322's date-time: Java's RFC_1123_DATE_TIME, Python's formatdate(), a zone of its own.
    [
      'Fri, 6 Dec 2030 00:00:00 GMT',
      { earliest: '2030-12-06T00:00:00.000Z', latest: '2030-12-06T00:00:00.000Z' },
    ],
    [
      'Fri, 06 Dec 2030 00:00:00 -0000',
      { earliest: '2030-12-06T00:00:00.000Z', latest: '2030-12-06T00:00:00.000Z' },
    ],
    [
      '5 Dec 2030 09:30 +0930',
      { earliest: '2030-12-05T00:00:00.000Z', latest: '2030-12-05T00:00:00.000Z' },
    ],
    // JavaScript's Date#toString().
    [
      'Fri Dec 06 2030 01:00:00 GMT+0100 (Central European Standard Time)',
      { earliest: '2030-12-06T00:00:00.000Z', latest: '2030-12-06T00:00:00.000Z' },
    ],
  ])('reads %s as %j', (value, expected) => {
    expect(iso(readableDate(value))).toEqual(expected);
  });

  it.each([
    '2030-02-31',
    '2030-13-01',
    '2030-12-05T10:75:00Z',
    '2030-12-05T10:60:00Z',
    '2030-12-05T10:00:61Z',
    // Date.UTC reads years 0-99 as 1900-1999.
    '0030-12-05',
    '2030-12-05T24:00',
    '2030-12-05T10',
    '05/12/2030',
    'x2030-12-05',
    '2030-12-05x',
    'tomorrow',
    // A weekday that is not the date's says two days: neither is read.
    'Thu, 6 Dec 2030 00:00:00 GMT',
    'Thu Dec 06 2030 00:00:00 GMT+0000',
    '6 Dec 2030 00:00:00 CET',
    '32 Dec 2030 00:00:00 GMT',
  ])('refuses %s', (value) => {
    expect(readableDate(value)).toBeUndefined();
  });
});

describe('parseStructuredDate', () => {
  it.each([
    ['@1767225600', '2026-01-01T00:00:00.000Z'],
    ['@0', '1970-01-01T00:00:00.000Z'],
    ['@1767225600;foo=bar', '2026-01-01T00:00:00.000Z'],
    ['\t@1767225600 ', '2026-01-01T00:00:00.000Z'],
  ])('accepts %s', (value, iso) => {
    expect(parseStructuredDate(value)?.toISOString()).toBe(iso);
  });

  it.each([
    'true',
    '1767225600',
    '@',
    '@1.5',
    'x@1767225600',
    '@1767225600x',
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
    [null, 'next', []],
    [undefined, 'next', []],
    ['</a>; rel="next"; rel="prev"', 'next', ['/a']],
    ['</a>; REL=Next, </b>;rel = "next";title=x, </c>', 'next', ['/a', '/b']],
    ['</a>; rel="\\"next"', 'next', []],
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
    ['x5', 1000],
    ['5x', 1000],
  ])('waits for Retry-After %j as %i ms (capped at 5 s)', (value, ms) => {
    expect(retryDelay(value, 5000)).toBe(ms);
  });

  it('reads an HTTP-date', () => {
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    expect(retryDelay(inTwoSeconds, 5000)).toBeGreaterThan(500);
    expect(retryDelay(inTwoSeconds, 5000)).toBeLessThanOrEqual(2000);
  });

  it('waits no time for a date past, and as long as the cap for one far ahead', () => {
    expect(retryDelay('Thu, 01 Jan 1970 00:00:00 GMT', 5000)).toBe(0);
    expect(retryDelay(new Date(Date.now() + 3_600_000).toUTCString(), 5000)).toBe(5000);
  });

  it('reads seconds padded with white space, and caps them exactly', () => {
    expect(retryDelay(' 3 ', 5000)).toBe(3000);
    expect(retryDelay('5', 5000)).toBe(5000);
    expect(retryDelay('5', 4999)).toBe(4999);
    expect(retryDelay('-2', 5000)).toBe(0);
  });
});
