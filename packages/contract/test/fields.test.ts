// Every field of the contract carries values it must accept and values it must refuse, and is
// held to both here: a field that loses a check (a format, a bound, a pattern) fails this test,
// as does a new field or list parameter that comes without values to refuse.
import { describe, expect, it } from 'vitest';
import {
  INVALID_EXAMPLES,
  ListPetsQuery,
  NewPet,
  Pet,
  PetIdParams,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
  validatePet,
} from '../src/index.js';

interface FieldSchema {
  readonly examples?: readonly unknown[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly [INVALID_EXAMPLES]?: readonly unknown[];
}

/**
 * What a field must accept: its `examples`, or its `enum`. A list or path parameter may stand on
 * its bounds and default instead: an `examples` there would be filled in on the reference page.
 */
function accepted(schema: FieldSchema, bounds: boolean): readonly unknown[] {
  const given = schema.examples ?? schema.enum;
  if (given !== undefined || !bounds) return given ?? [];
  return [schema.default, schema.minimum, schema.maximum].filter((value) => value !== undefined);
}

/** A value of each of `fields` that the field accepts: its first. */
const firstOf = (fields: Record<string, object>) =>
  Object.fromEntries(
    Object.entries(fields).map(([name, schema]) => [
      name,
      accepted(schema as FieldSchema, false)[0],
    ]),
  );

const subjects: {
  readonly what: string;
  readonly where: string;
  readonly fields: Record<string, object>;
  readonly bounds: boolean;
  readonly accepts: (field: string, value: unknown) => boolean;
}[] = [
  {
    what: 'NewPet',
    where: 'packages/contract/src/schemas/pet.ts',
    fields: NewPet.properties,
    bounds: false,
    accepts: (field, value) => validateNewPet({ ...firstOf(NewPet.properties), [field]: value }).ok,
  },
  {
    what: 'Pet',
    where: 'packages/contract/src/schemas/pet.ts',
    fields: Pet.properties,
    bounds: false,
    accepts: (field, value) => validatePet({ ...firstOf(Pet.properties), [field]: value }).ok,
  },
  {
    what: 'the listPets query',
    where: 'ListPetsQuery in packages/contract/src/schemas/params.ts',
    fields: ListPetsQuery.properties,
    bounds: true,
    accepts: (field, value) => parseListPetsQuery(new URLSearchParams([[field, String(value)]])).ok,
  },
  {
    what: 'the getPet path',
    where: 'PetIdParams in packages/contract/src/schemas/params.ts',
    fields: PetIdParams.properties,
    bounds: true,
    accepts: (_, value) => parsePetId(String(value)).ok,
  },
];

describe.each(subjects)('every field of $what', ({ where, fields, bounds, accepts }) => {
  it.each(
    Object.keys(fields),
  )('%s accepts each of its examples and refuses each invalid value', (field) => {
    const schema = fields[field] as FieldSchema;
    const good = accepted(schema, bounds);
    const bad = schema[INVALID_EXAMPLES] ?? [];
    expect(good, `${field} needs examples (or an enum) in ${where}`).not.toHaveLength(0);
    expect(bad, `${field} needs invalidExamples([…]) in ${where}`).not.toHaveLength(0);
    for (const value of good)
      expect(accepts(field, value), `${field}: ${JSON.stringify(value)}`).toBe(true);
    for (const value of bad)
      expect(accepts(field, value), `${field}: ${JSON.stringify(value)}`).toBe(false);
  });
});
