// Request bodies that break one field of NewPet, derived from the contract's SpecNewPet (the
// spec's fields: types, int64 format, the status enum), never from the API's own NewPet: its
// limits and the fields it adds are one server's choices, not the spec's.
// Values are drawn with fast-check from the run's seed, so `--seed` replays a run's cases.
import { SpecNewPet } from '@animal-store/contract';
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../oracles.js';
import type { Level } from '../types.js';

/** A JSON property schema as the contract writes it. */
export interface FieldSchema {
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly string[];
}

/** One NewPet field the spec defines: its schema and whether a body must carry it. */
export interface SpecField {
  readonly name: string;
  readonly schema: FieldSchema;
  readonly required: boolean;
}

/** `a-b-c` for `aBC`: check ids are kebab case. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `a_b_c` for `aBC`: member names as binders that map them to snake case write them. */
export function snakeCase(name: string): string {
  return kebab(name).replaceAll('-', '_');
}

/** NewPet's fields as the spec defines them. */
export const NEW_PET_FIELDS: readonly SpecField[] = Object.entries(
  SpecNewPet.properties as Record<string, FieldSchema>,
).map(([name, schema]) => ({
  name,
  schema,
  required: (SpecNewPet.required as readonly string[]).includes(name),
}));

/** The required fields whose snake-case spelling is another name (`categoryId`, `category_id`). */
export const SNAKE_CASED_FIELDS: readonly SpecField[] = NEW_PET_FIELDS.filter(
  (field) => field.required && snakeCase(field.name) !== field.name,
);

/**
 * Which check sends a case: `invalid` (must) what the spec forbids and any JSON parser sees;
 * `null` (should) null in an optional field, which some servers read as absent; `literal`
 * (should) a number only its JSON text shows to be no int64 integer, which a parser that holds
 * numbers as doubles (RFC 8259 §6, JavaScript's `JSON.parse`) reads as a valid one (a must,
 * `createPet.category-id-beyond-int64-exact`, holds a server that shows it reads that text).
 */
export type CaseKind = 'invalid' | 'null' | 'literal';

/** One invalid value for a field, as JSON text. */
export interface FieldCase {
  /** What is wrong, for messages: `a boolean`, `"Sold" (another letter case)`. */
  readonly what: string;
  /** The value as it goes into the JSON body. */
  readonly literal: string;
  readonly kind: CaseKind;
}

/** `must` for what the spec forbids and every parser sees; `should` for the rest. */
export function caseLevel(kind: CaseKind): Level {
  return kind === 'invalid' ? 'must' : 'should';
}

/** 10^19: beyond int64 by more than a double's rounding (doubles near 2^63 are 2^11 apart). */
const FAR_FROM_INT64 = 10n ** 19n;

/** Draws one value of an arbitrary, reproducibly from `seed`. */
function draw<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0] as T;
}

/**
 * Every JSON type as text, each with the values sent on every run (both booleans, an empty and a
 * full container) and an arbitrary that draws one more from the seed.
 */
const JSON_TYPES: Record<string, { fixed: readonly string[]; extra: fc.Arbitrary<string> }> = {
  null: { fixed: ['null'], extra: fc.constant('null') },
  boolean: { fixed: ['true', 'false'], extra: fc.boolean().map(String) },
  number: { fixed: ['7'], extra: fc.integer({ min: -1000, max: 1000 }).map(String) },
  string: {
    fixed: ['"abc"'],
    extra: fc.stringMatching(/^[a-z]{1,8}$/).map((s) => JSON.stringify(s)),
  },
  array: {
    fixed: ['[]'],
    extra: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 2 }).map((a) => JSON.stringify(a)),
  },
  object: { fixed: ['{}'], extra: fc.constantFrom('{}', '{"value":1}') },
};

/** The JSON type names a field's schema type allows (an integer is a number). */
function ownTypes(schema: FieldSchema): readonly string[] {
  if (schema.type === 'integer') return ['number'];
  return schema.type === undefined ? [] : [schema.type];
}

/** `values` and one more drawn from `seed` when it differs from them. */
function withExtra(values: readonly string[], extra: fc.Arbitrary<string>, seed: number): string[] {
  const drawn = draw(extra, seed);
  return values.includes(drawn) ? [...values] : [...values, drawn];
}

/** A value of the field's own type, as JSON text: what a one-element array holds. */
function ownValue(schema: FieldSchema): string {
  if (schema.enum?.[0] !== undefined) return JSON.stringify(schema.enum[0]);
  return schema.type === 'integer' ? '1' : '"abc"';
}

/**
 * Values of another JSON type that some readers take for the field's own, sent on every run
 * beside the type's fixed ones: an array holding one valid value (Fastify's default validation,
 * Ajv's `coerceTypes: 'array'`, unwraps it), an enumeration's indexes (Jackson's and
 * System.Text.Json's enum readers take `1` for the second value) and, for an integer, the empty
 * string (Jackson reads it as 0 or null).
 */
function readAsOwn(field: SpecField, type: string): string[] {
  if (type === 'array') return [`[${ownValue(field.schema)}]`];
  if (type === 'number' && field.schema.enum !== undefined) {
    return field.schema.enum.map((_, index) => String(index));
  }
  if (type === 'string' && field.schema.type === 'integer') return ['""'];
  return [];
}

function wrongTypes(field: SpecField, seed: number): FieldCase[] {
  return Object.entries(JSON_TYPES)
    .filter(([type]) => !ownTypes(field.schema).includes(type))
    .flatMap(([type, { fixed, extra }], i) =>
      withExtra([...fixed, ...readAsOwn(field, type)], extra, seed + i).map((literal) => ({
        what:
          type === 'null' ? 'null' : `a${/^[aeiou]/.test(type) ? 'n' : ''} ${type} (${literal})`,
        literal,
        // An optional field sent as null may mean "absent" to some servers: the spec is silent.
        kind: type === 'null' && !field.required ? ('null' as const) : ('invalid' as const),
      })),
    );
}

/**
 * Numbers that are no int64 integer, and integers written as strings, each boundary class sent
 * on every run with one more value drawn from the seed. What a double shows (a fraction it
 * keeps, a value beyond int64 by more than a double's rounding: 2^64, 10^19) is `invalid`; what
 * only the JSON text shows (a fraction that rounds to an integer, 2^63 and values within 500 of
 * it, which a double reads as ±2^63) is `literal`. `1.0` and `1e2` are integers (JSON Schema):
 * never sent as invalid; `1e400`, beyond a double's range, is invalid as far beyond int64.
 */
function notInt64(seed: number): FieldCase[] {
  const whole = draw(fc.integer({ min: 1, max: 9999 }), seed);
  const fraction = draw(fc.stringMatching(/^[0-9]{0,3}[1-9]$/), seed + 1);
  // Doubles beyond 2^63 are 2048 apart: within 500 of it, a double reads ±2^63.
  const justAbove = INT64_MAX + 1n + draw(fc.bigInt({ min: 1n, max: 500n }), seed + 2);
  const far = draw(fc.bigInt({ min: FAR_FROM_INT64, max: 10n * FAR_FROM_INT64 }), seed + 4);
  const invalid = (what: string, literal: string): FieldCase => ({
    what,
    literal,
    kind: 'invalid',
  });
  const literal = (what: string, text: string): FieldCase => ({
    what,
    literal: text,
    kind: 'literal',
  });
  return [
    invalid('a fraction (1.5)', '1.5'),
    invalid('a negative fraction (-0.5)', '-0.5'),
    invalid(`a fraction (${whole}.${fraction})`, `${whole}.${fraction}`),
    invalid(`2^64 (${2n ** 64n})`, `${2n ** 64n}`),
    invalid(`-2^64 (${-(2n ** 64n)})`, `${-(2n ** 64n)}`),
    invalid(`10^19 (${FAR_FROM_INT64})`, `${FAR_FROM_INT64}`),
    invalid(`-10^19 (${-FAR_FROM_INT64})`, `${-FAR_FROM_INT64}`),
    invalid(`a number far beyond the int64 range (${far})`, `${far}`),
    // Beyond a double's range: Infinity to JavaScript, inf to Python, which int() refuses.
    invalid("a number beyond a double's range (1e400)", '1e400'),
    invalid("a negative number beyond a double's range (-1e400)", '-1e400'),
    invalid(`an integer in a string ("${whole}")`, `"${whole}"`),
    literal(
      `a fraction a double rounds to an integer (${whole}.0000000000000001)`,
      `${whole}.0000000000000001`,
    ),
    literal(`2^63, one past the int64 maximum (${INT64_MAX + 1n})`, `${INT64_MAX + 1n}`),
    literal(`-2^63 - 1, one below the int64 minimum (${INT64_MIN - 1n})`, `${INT64_MIN - 1n}`),
    literal(`a number just above the int64 range (${justAbove}, 2^63 as a double)`, `${justAbove}`),
  ];
}

/**
 * Words a real service might add to a status enumeration (a pet's lifecycle beyond the spec's
 * three): each is sent, since a server that added one would accept only that one.
 */
export const LIFECYCLE_WORDS = [
  'adopted',
  'reserved',
  'archived',
  'deleted',
  'unavailable',
  'hold',
  'lost',
] as const;

/** `value` with its first letter in upper case: `Sold`, `CategoryId`. */
export function capitalised(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/**
 * Strings that are not one of the enum's values, sent on every run: each value in upper case
 * and capitalised, each padded, the empty string, each index as digits, lifecycle words; the
 * seed adds a random letter case of one value and a random word.
 */
function enumNearMisses(values: readonly string[], seed: number): FieldCase[] {
  const value = draw(fc.constantFrom(...values), seed);
  const recased = draw(
    fc
      .array(fc.boolean(), { minLength: value.length, maxLength: value.length })
      .map((upper) => [...value].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''))
      .filter((s) => s !== value),
    seed + 1,
  );
  const word = draw(
    fc.stringMatching(/^[a-z]{3,10}$/).filter((w) => !values.includes(w)),
    seed + 2,
  );
  const cases: [string, string][] = [
    ...values.flatMap((v): [string, string][] => [
      [v.toUpperCase(), 'another letter case'],
      [capitalised(v), 'another letter case'],
      [` ${v}`, 'padded with a space'],
      [`${v} `, 'padded with a space'],
    ]),
    ['', 'empty'],
    // An index in a string, which Jackson's enum reader takes for the value at that index.
    ...values.map((_, index): [string, string] => [String(index), 'an index of the enumeration']),
    ...LIFECYCLE_WORDS.filter((w) => !values.includes(w)).map((w): [string, string] => [
      w,
      'not a value of the enumeration',
    ]),
    [recased, 'another letter case'],
    [word, 'not a value of the enumeration'],
  ];
  const unique = cases.filter(([text], i) => cases.findIndex(([t]) => t === text) === i);
  return unique.map(([text, why]) => ({
    what: `${JSON.stringify(text)} (${why})`,
    literal: JSON.stringify(text),
    kind: 'invalid',
  }));
}

/** Every invalid value of one field the run sends, drawn from `seed`. */
export function fieldCases(field: SpecField, seed: number): FieldCase[] {
  const cases = wrongTypes(field, seed);
  if (field.schema.type === 'integer') cases.push(...notInt64(seed + 100));
  if (field.schema.enum !== undefined) cases.push(...enumNearMisses(field.schema.enum, seed + 200));
  return cases;
}

/** Seeds differ per field, so two fields never draw the same values. */
export function fieldSeed(seed: number, field: SpecField): number {
  return (seed + 1000 * NEW_PET_FIELDS.indexOf(field)) | 0;
}

/** A request body that is valid JSON but whose top level is no object, and how to describe it. */
export interface TopLevelCase {
  readonly what: string;
  readonly body: string;
}

/**
 * Bodies whose top level is every JSON type but NewPet's own (an object), drawn from `seed`. The
 * array and the string hold `pet`, a well-formed NewPet, so a server that unwraps them is caught.
 */
export function notObjectBodies(pet: string, seed: number): TopLevelCase[] {
  const own = (SpecNewPet as { type?: string }).type ?? 'object';
  return Object.entries(JSON_TYPES)
    .filter(([type]) => type !== own)
    .flatMap(([type, { fixed, extra }], i) => {
      if (type === 'array') return [{ what: 'an array holding a NewPet', body: `[${pet}]` }];
      if (type === 'string') {
        return [{ what: 'a string holding a NewPet', body: JSON.stringify(pet) }];
      }
      return withExtra(fixed, extra, seed + i).map((body) => ({
        what: type === 'null' ? 'null' : `the ${type} ${body}`,
        body,
      }));
    });
}
