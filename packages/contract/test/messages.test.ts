import Type, { type TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  compileValidator,
  describeDetails,
  ERROR_MESSAGES,
  errorMessages,
  ListPetsQuery,
  NewPet,
  PetIdParams,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
} from '../src/index.js';

/** Every subschema of `schema` (itself included) that has `keyword`. */
function withKeyword(schema: unknown, keyword: string, at = '#'): [string, object][] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: [string, object][] = keyword in schema ? [[at, schema]] : [];
  for (const [key, value] of Object.entries(schema)) {
    if (key !== ERROR_MESSAGES) found.push(...withKeyword(value, keyword, `${at}/${key}`));
  }
  return found;
}

describe("a schema's own validation messages", () => {
  const Code = Type.Object({
    code: Type.String({ pattern: '^[A-Z]+$', ...errorMessages({ pattern: 'must be capitals' }) }),
    note: Type.String({ minLength: 2 }),
  });
  const validate = compileValidator(Code);

  it('reports a failed keyword with the message its schema gives', () => {
    expect(validate({ code: 'abc', note: 'fine' })).toEqual({
      ok: false,
      details: [{ path: '/code', message: 'must be capitals' }],
    });
  });

  it('reports a keyword the schema gives no message for generically', () => {
    const result = validate({ code: 'ABC', note: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.details).toHaveLength(1);
      expect(result.details[0]?.path).toBe('/note');
      expect(result.details[0]?.message).toMatch(/2/);
    }
  });

  it('reports the message of the root schema for the value as a whole', () => {
    const validateRoot = compileValidator(
      Type.Object({ a: Type.String() }, errorMessages({ type: 'must be an object' })),
    );
    expect(validateRoot(5)).toEqual({
      ok: false,
      details: [{ path: '', message: 'must be an object' }],
    });
  });

  it('finds the message of a field whose name holds / and ~', () => {
    const validateOdd = compileValidator(
      Type.Object({ 'a/b~c': Type.String(errorMessages({ type: 'must be text' })) }),
    );
    expect(validateOdd({ 'a/b~c': 1 })).toEqual({
      ok: false,
      details: [{ path: '/a~1b~0c', message: 'must be text' }],
    });
  });

  it('reports a value a false subschema forbids as not allowed', () => {
    const forbidding = { type: 'object', properties: { a: false } } as unknown as TSchema;
    expect(compileValidator(forbidding)({ a: 1 })).toEqual({
      ok: false,
      details: [{ path: '/a', message: 'is not allowed' }],
    });
  });

  it.each([
    ['NewPet', NewPet],
    ['ListPetsQuery', ListPetsQuery],
    ['PetIdParams', PetIdParams],
  ])('gives every pattern of %s a message: a raw pattern would not help a client', (_, schema) => {
    for (const [at, node] of withKeyword(schema, 'pattern')) {
      const messages = (node as Record<string, unknown>)[ERROR_MESSAGES] as
        | Record<string, unknown>
        | undefined;
      expect(typeof messages?.pattern, at).toBe('string');
    }
  });
});

describe('NewPet messages', () => {
  it.each([
    [' Rex', 'must not be blank, or start or end with whitespace'],
    ['Rex\uD800', 'must not hold an unpaired surrogate (UTF-8 cannot carry one)'],
  ])('says what is wrong with the name %j', (name, message) => {
    expect(validateNewPet({ name, categoryId: 1 })).toEqual({
      ok: false,
      details: [{ path: '/name', message }],
    });
  });

  it('reports an unpaired surrogate after the fields that fail the schema', () => {
    expect(validateNewPet({ name: '\uDC00', categoryId: 0 })).toEqual({
      ok: false,
      details: [
        { path: '/categoryId', message: expect.stringMatching(/1/) },
        { path: '/name', message: 'must not hold an unpaired surrogate (UTF-8 cannot carry one)' },
      ],
    });
  });

  it.each([
    ['a missing name', { categoryId: 1 }],
    ['a float categoryId', { name: 'Rex', categoryId: 1.5 }],
    ['an unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }],
    ['an unknown field', { name: 'Rex', categoryId: 1, colour: 'red' }],
    ['a 201-character name', { name: 'x'.repeat(201), categoryId: 1 }],
    ['an array', []],
    ['null', null],
  ])('names the field and says something for %s', (_, body) => {
    const result = validateNewPet(body);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.details.length).toBeGreaterThan(0);
      for (const detail of result.details) expect(detail.message.trim()).not.toBe('');
    }
  });
});

describe('query and path messages', () => {
  it.each([
    ['limit=5&limit=6', 'limit', 'must be given at most once'],
    ['limit=1e1', 'limit', 'must be an integer'],
    ['after=0x10', 'after', 'must be an integer'],
  ])('answers %s naming %s: %s', (query, path, message) => {
    expect(parseListPetsQuery(new URLSearchParams(query))).toEqual({
      ok: false,
      details: [{ path, message }],
    });
  });

  it('names a query parameter without a leading slash', () => {
    const result = parseListPetsQuery(new URLSearchParams('limit=0'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details[0]?.path).toBe('limit');
  });

  it.each([
    ['abc', 'must be an integer'],
    ['1.5', 'must be an integer'],
  ])('answers petId %j: %s', (raw, message) => {
    expect(parsePetId(raw)).toEqual({ ok: false, details: [{ path: 'petId', message }] });
  });

  it('answers petId 0 with the schema’s bound, not a type complaint', () => {
    const result = parsePetId('0');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.details).toHaveLength(1);
      expect(result.details[0]?.path).toBe('petId');
      expect(result.details[0]?.message).toMatch(/1/);
      expect(result.details[0]?.message).not.toBe('must be an integer');
    }
  });

  it('describes details as one sentence, fields by dotted path, the body as "body"', () => {
    expect(
      describeDetails([
        { path: '/name', message: 'is required' },
        { path: '/a/b', message: 'is odd' },
        { path: '', message: 'must be an object' },
      ]),
    ).toBe('name is required; a.b is odd; body must be an object');
  });
});
