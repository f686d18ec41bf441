import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ID_MAX,
  NAME_MAX_LENGTH,
  NewPet,
  Pet,
  SpecNewPet,
  SpecPet,
  serviceFields,
  validateErrorBody,
  validateNewPet,
  validatePet,
  validatePetList,
  validateSpecErrorBody,
  validateSpecPet,
  validateSpecPetList,
} from '../src/index.js';

describe('NewPet', () => {
  it.each([
    ['name and categoryId', { name: 'Rex', categoryId: 1 }],
    ['every status', { name: 'Rex', categoryId: 7, status: 'sold' }],
    ['pending', { name: 'Tom', categoryId: 2, status: 'pending' }],
    ['the largest exact id', { name: 'Big', categoryId: ID_MAX }],
    ['a 200-character name', { name: 'x'.repeat(NAME_MAX_LENGTH), categoryId: 1 }],
    ['inner whitespace and unicode', { name: 'Señor  Wüffles 🐶', categoryId: 1 }],
    ['a name of astral characters only', { name: '🐶\u{10FFFF}', categoryId: 1 }],
  ])('accepts %s', (_, body) => {
    expect(validateNewPet(body)).toEqual({ ok: true, value: body });
  });

  it.each([
    ['a missing name', { categoryId: 1 }, '/name'],
    ['a missing categoryId', { name: 'Rex' }, '/categoryId'],
    ['categoryId as a string', { name: 'Rex', categoryId: '1' }, '/categoryId'],
    ['categoryId as a float', { name: 'Rex', categoryId: 1.5 }, '/categoryId'],
    ['categoryId 0', { name: 'Rex', categoryId: 0 }, '/categoryId'],
    ['a negative categoryId', { name: 'Rex', categoryId: -4 }, '/categoryId'],
    ['categoryId beyond 2^53-1', { name: 'Rex', categoryId: ID_MAX + 2 }, '/categoryId'],
    ['an unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }, '/status'],
    ['an unknown extra field', { name: 'Rex', categoryId: 1, colour: 'red' }, '/colour'],
    ['a client-chosen id', { id: 5, name: 'Rex', categoryId: 1 }, '/id'],
    ['an empty name', { name: '', categoryId: 1 }, '/name'],
    ['a blank name', { name: '   ', categoryId: 1 }, '/name'],
    ['a name with leading whitespace', { name: ' Rex', categoryId: 1 }, '/name'],
    ['a name with a lone high surrogate', { name: 'Rex\uD800x', categoryId: 1 }, '/name'],
    ['a name with a lone low surrogate', { name: '\uDC00', categoryId: 1 }, '/name'],
    ['a name ending in half a pair', { name: 'Rex \uD83D', categoryId: 1 }, '/name'],
    ['a 201-character name', { name: 'x'.repeat(NAME_MAX_LENGTH + 1), categoryId: 1 }, '/name'],
    ['a name that is not a string', { name: 12, categoryId: 1 }, '/name'],
    ['an array body', [{ name: 'Rex', categoryId: 1 }], ''],
    ['a null body', null, ''],
  ])('rejects %s and names %s', (_, body, path) => {
    const result = validateNewPet(body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details.map((d) => d.path)).toContain(path);
  });

  it('names a field once when it breaks its schema and holds an unpaired surrogate', () => {
    const result = validateNewPet({ name: `${'x'.repeat(NAME_MAX_LENGTH)}\uD800`, categoryId: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details.map((d) => d.path)).toEqual(['/name']);
  });

  it('reports every offending field at once', () => {
    const result = validateNewPet({ categoryId: 'x', status: 'lost', extra: true });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.details.map((d) => d.path).sort()).toEqual(
        ['/categoryId', '/extra', '/name', '/status'].sort(),
      );
    }
  });
});

describe('SpecPet', () => {
  it('accepts a pet with and without status, and fields the spec does not name', () => {
    expect(validateSpecPet({ id: 1, name: 'Rex', categoryId: 3, status: 'available' }).ok).toBe(
      true,
    );
    expect(validateSpecPet({ id: 2, name: '', categoryId: -3, colour: 'red' }).ok).toBe(true);
  });

  it.each([
    ['a missing id', { name: 'Rex', categoryId: 3 }],
    ['a string id', { id: '1', name: 'Rex', categoryId: 3 }],
    ['an unknown status', { id: 1, name: 'Rex', categoryId: 3, status: 'gone' }],
    ['a missing name', { id: 1, categoryId: 3 }],
  ])('rejects %s', (_, body) => {
    expect(validateSpecPet(body).ok).toBe(false);
  });

  it('validates a list item by item', () => {
    expect(validateSpecPetList([{ id: 1, name: 'a', categoryId: 1 }]).ok).toBe(true);
    const bad = validateSpecPetList([{ id: 1, name: 'a', categoryId: 1 }, { id: 'x' }]);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.details.some((d) => d.path.startsWith('/1'))).toBe(true);
  });
});

describe('Pet', () => {
  it('accepts a pet as this service returns it', () => {
    expect(validatePet({ id: 1, name: 'Rex', categoryId: 3, status: 'available' }).ok).toBe(true);
    expect(validatePetList([{ id: 1, name: 'a', categoryId: 1, status: 'sold' }]).ok).toBe(true);
  });

  it.each([
    ['a missing status', { id: 2, name: 'Rex', categoryId: 3 }],
    ['id 0', { id: 0, name: 'Rex', categoryId: 3, status: 'sold' }],
    ['a blank name', { id: 1, name: ' ', categoryId: 3, status: 'sold' }],
  ])('rejects %s, which a spec Pet may have', (_, body) => {
    expect(validatePet(body).ok).toBe(false);
  });

  it('takes every field the service adds as optional: a spec client never sends one', () => {
    const required = new Set(NewPet.required as readonly string[]);
    for (const name of Object.keys(serviceFields)) expect(required.has(name)).toBe(false);
    expect(SpecNewPet.required).toEqual(NewPet.required);
  });

  it('holds every NewPet field and the spec Pet’s', () => {
    const names = Object.keys(Pet.properties);
    expect(names).toEqual(expect.arrayContaining(Object.keys(NewPet.properties)));
    expect(names).toEqual(expect.arrayContaining(Object.keys(SpecPet.properties)));
  });
});

describe('Error', () => {
  it('accepts the three required fields, with optional details', () => {
    expect(validateErrorBody({ code: 'not_found', message: 'no pet 3', status: 404 }).ok).toBe(
      true,
    );
    const withDetails = {
      code: 'validation_failed',
      message: 'name is required',
      status: 400,
      details: [{ path: '/name', message: 'is required' }],
    };
    expect(validateErrorBody(withDetails).ok).toBe(true);
  });

  it.each([
    ['a missing code', { message: 'm', status: 400 }],
    ['a missing message', { code: 'c', status: 400 }],
    ['a missing status', { code: 'c', message: 'm' }],
    ['a string status', { code: 'c', message: 'm', status: '400' }],
  ])('rejects %s', (_, body) => {
    expect(validateErrorBody(body).ok).toBe(false);
  });

  it('lists each code once', () => {
    expect(ERROR_CODES).toContain('validation_failed');
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
});

describe('SpecErrorBody', () => {
  it('accepts another server’s own `details` shape and extra fields', () => {
    const body = { code: 'E42', message: 'bad', status: 400, details: 'limit too big', trace: 'x' };
    expect(validateSpecErrorBody(body).ok).toBe(true);
    expect(validateErrorBody(body).ok).toBe(false);
  });

  it('still requires code, message and an integer status', () => {
    expect(validateSpecErrorBody({ code: 'c', message: 'm', status: '400' }).ok).toBe(false);
    expect(validateSpecErrorBody({ message: 'm', status: 400 }).ok).toBe(false);
  });
});
