import { LIST_PETS_PARAMS, type ListPetsQuery, Pet } from '@animal-store/contract';
import type { PetDraft } from '../../src/store/pet-store.js';

/**
 * Pets and list queries drawn from the contract's schemas, so the store suite and the black-box
 * list tests cover a field or a list parameter as soon as the contract has it: a store or a
 * route that forgets one fails a test written before it existed.
 */

/** The list parameters that page rather than filter. */
export const PAGING_PARAMS: readonly (keyof ListPetsQuery)[] = ['limit', 'after'];

/** The Pet properties a create sets: all but the assigned `id`. */
export const DRAFT_FIELDS = Object.keys(Pet.properties).filter(
  (name) => name !== 'id',
) as (keyof PetDraft)[];

/**
 * The values a Pet property takes in the tests: its schema's `examples`, or its `enum`. The
 * contract gives at least two, so a filter has something to leave out.
 */
export function examplesOf(field: keyof PetDraft): readonly unknown[] {
  const schema = Pet.properties[field] as { examples?: unknown[]; enum?: unknown[] };
  const values = schema.examples ?? schema.enum;
  if (values === undefined || values.length < 2) {
    throw new Error(
      `Pet.${field} needs at least two \`examples\` in packages/contract/src/schemas/pet.ts: the store suite and the black-box list tests draw pets from them`,
    );
  }
  return values;
}

/**
 * The list parameters that filter, each with the Pet property it filters on (a filter is named
 * after the property it matches exactly). A parameter of another kind fails here, telling whoever
 * adds it to teach these tests what it does.
 */
export const FILTERS: readonly { param: keyof ListPetsQuery; field: keyof PetDraft }[] =
  LIST_PETS_PARAMS.filter((param) => !PAGING_PARAMS.includes(param)).map((param) => {
    if (!(DRAFT_FIELDS as string[]).includes(param)) {
      throw new Error(
        `list parameter "${param}" neither pages nor names a Pet property: teach apps/api/test/store/pet-examples.ts what it selects`,
      );
    }
    return { param, field: param as keyof PetDraft };
  });

/** A draft whose property `field` takes example number `pick(field)` (wrapping). */
export function exampleDraft(pick: (field: keyof PetDraft) => number = () => 0): PetDraft {
  const draft: Record<string, unknown> = {};
  for (const field of DRAFT_FIELDS) {
    const values = examplesOf(field);
    draft[field] = values[pick(field) % values.length];
  }
  return draft as PetDraft;
}

/**
 * Drafts holding every combination of the filtered properties' examples, each combination three
 * times, with the other properties varying: every filter, alone or combined, selects pets spread
 * among others, and takes more than one page of two.
 */
export function filterMatrix(): PetDraft[] {
  const sizes = FILTERS.map(({ field }) => examplesOf(field).length);
  const combinations = sizes.reduce((product, size) => product * size, 1);
  const drafts: PetDraft[] = [];
  for (let i = 0; i < 3 * combinations; i++) {
    drafts.push(
      exampleDraft((field) => {
        const at = FILTERS.findIndex((filter) => filter.field === field);
        if (at < 0) return i;
        const stride = sizes.slice(0, at).reduce((product, size) => product * size, 1);
        return Math.floor(i / stride);
      }),
    );
  }
  return drafts;
}

/** Every query of one filter set to one of its examples, and one with every filter set. */
export function filterQueries(): { name: string; query: Partial<ListPetsQuery> }[] {
  const queries: { name: string; query: Partial<ListPetsQuery> }[] = [];
  for (const { param, field } of FILTERS) {
    for (const value of examplesOf(field)) {
      queries.push({ name: `${param}=${String(value)}`, query: { [param]: value } });
    }
  }
  const every: Record<string, unknown> = {};
  for (const { param, field } of FILTERS) every[param] = examplesOf(field).at(-1);
  queries.push({ name: 'every filter', query: every as Partial<ListPetsQuery> });
  return queries;
}

/** Whether `pet` is one `query`'s filters select. */
export function matches(pet: PetDraft, query: Partial<ListPetsQuery>): boolean {
  return FILTERS.every(
    ({ param, field }) => query[param] === undefined || pet[field] === query[param],
  );
}
