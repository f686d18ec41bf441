import { afterEach, describe, expect, it, vi } from 'vitest';

// The kit holds servers to the spec's fields only: a field this API adds to its own Pet and
// NewPet (in the contract) is one server's choice, and must never become a `must` check.

/** Every `must` check by id and title, from a fresh import of the kit's check list. */
async function mustChecks(): Promise<string[]> {
  const { CHECKS } = await import('../src/sections/index.js');
  return CHECKS.filter((c) => c.level === 'must').map((c) => `${c.id}: ${c.title}`);
}

afterEach(() => {
  vi.doUnmock('@animal-store/contract');
  vi.resetModules();
});

describe('the kit’s must checks', () => {
  it('stay the same when the API’s Pet and NewPet gain a service field', async () => {
    const before = await mustChecks();
    vi.resetModules();
    vi.doMock('@animal-store/contract', async (importOriginal) => {
      const contract = await importOriginal<typeof import('@animal-store/contract')>();
      const tags = { type: 'array', items: { type: 'string' }, '~optional': true };
      const withTags = <T extends { properties: object }>(schema: T): T => ({
        ...schema,
        properties: { ...schema.properties, tags },
      });
      const NewPet = withTags(contract.NewPet);
      const Pet = withTags(contract.Pet);
      const PetList = { ...contract.PetList, items: Pet };
      return {
        ...contract,
        serviceFields: { tags },
        NewPet,
        Pet,
        PetList,
        validateNewPet: contract.compileValidator(NewPet),
        validatePet: contract.compileValidator(Pet),
        validatePetList: contract.compileValidator(PetList),
      };
    });
    const contract = await import('@animal-store/contract');
    expect(Object.keys(contract.NewPet.properties)).toContain('tags');

    const after = await mustChecks();
    expect(before.length).toBeGreaterThan(0);
    expect(after).toEqual(before);
  });
});
