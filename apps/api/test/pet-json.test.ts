import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { petJson, petListJson } from '../src/http/pet-json.js';
import type { StoredPet } from '../src/store/pet-store.js';

const pet = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  categoryId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  status: fc.constantFrom('available', 'pending', 'sold'),
}) as fc.Arbitrary<StoredPet>;

describe('pet JSON text made once', () => {
  it('gives a list the bytes JSON.stringify gives it, before and after caching', () => {
    fc.assert(
      fc.property(fc.array(pet, { maxLength: 30 }), (pets) => {
        const expected = JSON.stringify(pets);
        expect(petListJson(pets)).toBe(expected);
        expect(petListJson(pets)).toBe(expected);
        for (const one of pets) expect(petJson(one)).toBe(JSON.stringify(one));
      }),
    );
  });

  it('serialises a pet once, however often it is answered', () => {
    const one: StoredPet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
    const first = petJson(one);
    // The stored pet never changes; were it mutated, the text made first would still answer.
    (one as { name: string }).name = 'Changed';
    expect(petJson(one)).toBe(first);
    expect(petListJson([one, one])).toBe(`[${first},${first}]`);
  });

  it('keeps the text where nothing that copies, compares or serialises the pet sees it', () => {
    const one: StoredPet = { id: 2, name: 'Tom', categoryId: 3, status: 'sold' };
    petJson(one);
    expect(Object.keys(one)).toEqual(['id', 'name', 'categoryId', 'status']);
    expect({ ...one }).toStrictEqual({ id: 2, name: 'Tom', categoryId: 3, status: 'sold' });
    expect(one).toStrictEqual({ id: 2, name: 'Tom', categoryId: 3, status: 'sold' });
    expect(JSON.stringify(one)).toBe(petJson(one));
  });

  it('serialises a frozen pet too, every time', () => {
    const one = Object.freeze({ id: 3, name: 'Kit', categoryId: 1, status: 'pending' } as const);
    expect(petJson(one)).toBe(JSON.stringify(one));
    expect(petJson(one)).toBe(JSON.stringify(one));
  });
});
