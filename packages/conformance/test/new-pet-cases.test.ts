import { PET_STATUSES } from '@animal-store/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CaseKind,
  capitalised,
  caseLevel,
  type FieldCase,
  fieldCases,
  fieldSeed,
  kebab,
  LIFECYCLE_WORDS,
  NEW_PET_FIELDS,
  notObjectBodies,
  type SpecField,
} from '../src/cases/new-pet.js';

// The NewPet bodies the kit sends to createPet, judged here by the spec's own reading of each
// field, independently of how the kit draws them: a case the spec would accept is a false alarm
// waiting to happen, and a case in the wrong kind is a `must` where the spec is silent.

const TWO_63 = 2n ** 63n;

/** The exact integer a JSON number's text denotes, or undefined when it has a fraction. */
function exactInteger(text: string): bigint | undefined {
  const m = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = m;
  const digits = BigInt(whole + fraction);
  const scale = Number(exponent) - fraction.length;
  const magnitude =
    scale >= 0
      ? digits * 10n ** BigInt(scale)
      : digits % 10n ** BigInt(-scale) === 0n
        ? digits / 10n ** BigInt(-scale)
        : undefined;
  if (magnitude === undefined) return undefined;
  return sign === '-' ? -magnitude : magnitude;
}

/** Whether the spec accepts `literal` as the value of `field` (its type, int64, its enum). */
function specAccepts(field: SpecField, literal: string): boolean {
  const value: unknown = JSON.parse(literal);
  const { type, enum: values } = field.schema;
  if (type === 'integer') {
    const exact = exactInteger(literal);
    return exact !== undefined && exact >= -TWO_63 && exact < TWO_63;
  }
  if (values !== undefined) return typeof value === 'string' && values.includes(value);
  if (type === 'string') return typeof value === 'string';
  throw new Error(`no reading of ${field.name}'s schema`);
}

/** Whether a reader that holds numbers as doubles takes `literal` for an int64 integer. */
function doubleReaderAccepts(literal: string): boolean {
  const value: unknown = JSON.parse(literal);
  const bound = Number(TWO_63);
  return typeof value === 'number' && Number.isInteger(value) && value >= -bound && value <= bound;
}

const field = (name: string): SpecField => {
  const found = NEW_PET_FIELDS.find((f) => f.name === name);
  if (!found) throw new Error(`NewPet has no ${name}`);
  return found;
};

const literals = (cases: readonly FieldCase[], kind?: CaseKind) =>
  cases.filter((c) => kind === undefined || c.kind === kind).map((c) => c.literal);

const seeds = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

describe('the NewPet fields the kit knows', () => {
  it('are the spec’s, each required but status', () => {
    expect(NEW_PET_FIELDS.map((f) => [f.name, f.required])).toEqual([
      ['name', true],
      ['categoryId', true],
      ['status', false],
    ]);
    expect(field('categoryId').schema).toMatchObject({ type: 'integer', format: 'int64' });
    expect(field('status').schema.enum).toEqual([...PET_STATUSES]);
  });

  it('give each field a seed of its own, an int32 even near the seed’s bounds', () => {
    for (const seed of [0, 17, 2 ** 31 - 1, -(2 ** 31)]) {
      const fieldSeeds = NEW_PET_FIELDS.map((f) => fieldSeed(seed, f));
      expect(new Set(fieldSeeds).size).toBe(NEW_PET_FIELDS.length);
      for (const s of fieldSeeds) expect(s).toBe(s | 0);
    }
    expect(fieldSeed(5, field('name'))).toBe(5);
    expect(fieldSeed(5, field('categoryId'))).toBe(1005);
    expect(fieldSeed(2 ** 31 - 1, field('categoryId'))).toBe(-(2 ** 31) + 999);
  });
});

describe('every field’s cases', () => {
  it('are JSON the spec refuses for that field, whatever the seed', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        for (const f of NEW_PET_FIELDS) {
          for (const c of fieldCases(f, seed)) {
            expect(specAccepts(f, c.literal), `${f.name}: ${c.literal}`).toBe(false);
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it('name their value in what they say of it', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        for (const f of NEW_PET_FIELDS) {
          for (const c of fieldCases(f, seed)) expect(c.what, f.name).toContain(c.literal);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('are the same for the same seed, and some differ for another', () => {
    for (const f of NEW_PET_FIELDS) {
      expect(fieldCases(f, 42)).toEqual(fieldCases(f, 42));
      const drawn = new Set<string>();
      for (let seed = 0; seed < 20; seed++) {
        for (const literal of literals(fieldCases(f, seed))) drawn.add(literal);
      }
      expect(drawn.size, f.name).toBeGreaterThan(literals(fieldCases(f, 0)).length);
    }
  });

  it('send null as invalid in a required field and as `null` (should) in an optional one', () => {
    for (const f of NEW_PET_FIELDS) {
      const nulls = fieldCases(f, 3).filter((c) => c.literal === 'null');
      expect(nulls).toEqual([
        { what: 'null', literal: 'null', kind: f.required ? 'invalid' : 'null' },
      ]);
      expect(fieldCases(f, 3).filter((c) => c.kind === 'null').length).toBe(f.required ? 0 : 1);
    }
  });

  it('name each other JSON type with its article and value', () => {
    const whats = Object.fromEntries(fieldCases(field('name'), 9).map((c) => [c.literal, c.what]));
    expect(whats).toMatchObject({
      true: 'a boolean (true)',
      false: 'a boolean (false)',
      7: 'a number (7)',
      '[]': 'an array ([])',
      '{}': 'an object ({})',
      '["abc"]': 'an array (["abc"])',
    });
    // A string is the field's own type: no case sends one.
    expect(Object.hasOwn(whats, '"abc"')).toBe(false);
  });

  it('hold every wrong JSON type’s fixed values, and values readers take for the field’s own', () => {
    for (let seed = 0; seed < 10; seed++) {
      expect(literals(fieldCases(field('name'), seed))).toEqual(
        expect.arrayContaining(['null', 'true', 'false', '7', '[]', '["abc"]', '{}']),
      );
      expect(literals(fieldCases(field('categoryId'), seed))).toEqual(
        expect.arrayContaining(['null', 'true', 'false', '"abc"', '""', '[]', '[1]', '{}']),
      );
      expect(literals(fieldCases(field('status'), seed))).toEqual(
        expect.arrayContaining(['true', '7', '0', '1', '2', '[]', '["available"]', '{}']),
      );
    }
  });

  it('draw one more value of a wrong type from the seed, unless it is a fixed one', () => {
    const arrays = (seed: number) =>
      literals(fieldCases(field('name'), seed)).filter((l) => l.startsWith('['));
    const sizes = new Set<number>();
    const drawn = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const sent = arrays(seed);
      expect(new Set(sent).size).toBe(sent.length);
      sizes.add(sent.length);
      for (const literal of sent) drawn.add(literal);
    }
    // `[]` and `["abc"]` on every run; a drawn array equal to `[]` is not sent twice.
    expect([...sizes].sort()).toEqual([2, 3]);
    expect(drawn.size).toBeGreaterThan(4);
    const booleans = literals(fieldCases(field('name'), 11)).filter(
      (l) => l === 'true' || l === 'false',
    );
    expect(booleans.sort()).toEqual(['false', 'true']);
  });
});

describe('an integer field’s cases', () => {
  const categoryId = field('categoryId');

  it('are `literal` exactly when a double reads them as an int64 integer', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        for (const c of fieldCases(categoryId, seed)) {
          expect(c.kind, c.literal).toBe(doubleReaderAccepts(c.literal) ? 'literal' : 'invalid');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('send every boundary of int64 and of a double on every run', () => {
    const sent = literals(fieldCases(categoryId, 1));
    expect(sent).toEqual(
      expect.arrayContaining([
        '1.5',
        '-0.5',
        String(TWO_63),
        String(-TWO_63 - 1n),
        String(2n ** 64n),
        String(-(2n ** 64n)),
        String(10n ** 19n),
        String(-(10n ** 19n)),
        '1e400',
        '-1e400',
      ]),
    );
    expect(sent.some((l) => /^\d+\.0000000000000001$/.test(l))).toBe(true);
    expect(sent.some((l) => /^"\d+"$/.test(l))).toBe(true);
  });

  it('draw a value just above int64 within a double’s rounding, and one far beyond it', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const numbers = literals(fieldCases(categoryId, seed))
          .filter((l) => /^-?\d+$/.test(l))
          .map(BigInt);
        const justAbove = numbers.filter((n) => n > TWO_63 && n <= TWO_63 + 500n);
        const far = numbers.filter((n) => n >= 10n ** 19n && n <= 10n ** 20n);
        expect(justAbove.length).toBe(1);
        expect(far.length).toBeGreaterThanOrEqual(2);
      }),
      { numRuns: 50 },
    );
  });
});

describe('an enumeration’s cases', () => {
  const status = field('status');
  const strings = (seed: number) =>
    fieldCases(status, seed)
      .map((c) => ({ ...c, value: JSON.parse(c.literal) as unknown }))
      .filter((c): c is FieldCase & { value: string } => typeof c.value === 'string');

  it('are every value recased and padded, the empty string, the indexes and lifecycle words', () => {
    const sent = strings(4).map((c) => c.value);
    for (const value of PET_STATUSES) {
      expect(sent).toEqual(
        expect.arrayContaining([value.toUpperCase(), capitalised(value), ` ${value}`, `${value} `]),
      );
    }
    expect(sent).toEqual(expect.arrayContaining(['', '0', '1', '2', ...LIFECYCLE_WORDS]));
  });

  it('are each sent once, all invalid, none of them a value of the enumeration', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const cases = strings(seed);
        const values = cases.map((c) => c.value);
        expect(new Set(values).size).toBe(values.length);
        for (const c of cases) {
          expect(PET_STATUSES as readonly string[]).not.toContain(c.value);
          expect(c.kind).toBe('invalid');
          expect(c.what.startsWith(`${JSON.stringify(c.value)} (`)).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('say why each string is wrong', () => {
    const whats = Object.fromEntries(strings(4).map((c) => [c.value, c.what]));
    expect(whats).toMatchObject({
      SOLD: '"SOLD" (another letter case)',
      Sold: '"Sold" (another letter case)',
      ' sold': '" sold" (padded with a space)',
      'sold ': '"sold " (padded with a space)',
      '': '"" (empty)',
      1: '"1" (an index of the enumeration)',
      adopted: '"adopted" (not a value of the enumeration)',
    });
    const reasons = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      for (const c of strings(seed)) reasons.add(c.what.slice(JSON.stringify(c.value).length));
    }
    expect([...reasons].sort()).toEqual([
      ' (an index of the enumeration)',
      ' (another letter case)',
      ' (empty)',
      ' (not a value of the enumeration)',
      ' (padded with a space)',
    ]);
  });

  it('draw a recased value and a word from the seed', () => {
    const drawn = new Set<string>();
    for (let seed = 0; seed < 20; seed++) for (const c of strings(seed)) drawn.add(c.value);
    const fixed = strings(0).length;
    expect(drawn.size).toBeGreaterThan(fixed + 10);
    const recased = [...drawn].filter(
      (v) =>
        PET_STATUSES.some((s) => s === v.toLowerCase()) &&
        ![...PET_STATUSES].flatMap((s) => [s.toUpperCase(), capitalised(s)]).includes(v),
    );
    expect(recased.length).toBeGreaterThan(0);
  });
});

describe('bodies whose top level is no object', () => {
  const pet = '{"name":"Rex","categoryId":1}';

  it('are every other JSON type, the array and the string holding a NewPet', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const bodies = notObjectBodies(pet, seed);
        for (const { body } of bodies) {
          const value: unknown = JSON.parse(body);
          expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(false);
        }
        expect(bodies).toEqual(
          expect.arrayContaining([
            { what: 'an array holding a NewPet', body: `[${pet}]` },
            { what: 'a string holding a NewPet', body: JSON.stringify(pet) },
            { what: 'null', body: 'null' },
            { what: 'the boolean true', body: 'true' },
            { what: 'the boolean false', body: 'false' },
            { what: 'the number 7', body: '7' },
          ]),
        );
        expect(bodies.filter((b) => b.body.startsWith('[')).length).toBe(1);
      }),
      { numRuns: 30 },
    );
  });

  it('draw one more number from the seed', () => {
    const numbers = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      for (const { body } of notObjectBodies(pet, seed))
        if (/^-?\d+$/.test(body)) numbers.add(body);
    }
    expect(numbers.size).toBeGreaterThan(2);
  });
});

describe('the helpers of case names and levels', () => {
  it('turn a camel-case name into kebab case', () => {
    expect(kebab('categoryId')).toBe('category-id');
    expect(kebab('aBC')).toBe('a-b-c');
    expect(kebab('name')).toBe('name');
  });

  it('capitalise the first letter only', () => {
    expect(capitalised('sold')).toBe('Sold');
    expect(capitalised('categoryId')).toBe('CategoryId');
    expect(capitalised('')).toBe('');
  });

  it('make invalid cases must and the rest should', () => {
    expect(caseLevel('invalid')).toBe('must');
    expect(caseLevel('null')).toBe('should');
    expect(caseLevel('literal')).toBe('should');
  });
});
