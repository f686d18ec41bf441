import Type, { type Static } from 'typebox';
import { ID_MAX, NAME_MAX_LENGTH } from '../limits.js';
import { invalidExamples } from './invalid-examples.js';
import { errorMessages } from './messages.js';

/** Availability status of an animal (spec §2). */
export const PetStatus = Type.Enum(['available', 'pending', 'sold'], {
  // Stated explicitly so OpenAPI tools (Swagger UI, generators) see a string enum.
  type: 'string',
  description: 'Availability status',
  ...invalidExamples(['adopted', 'Available', '']),
});
export type PetStatus = Static<typeof PetStatus>;

/** Every PetStatus value, in the spec's order. */
export const PET_STATUSES = [
  'available',
  'pending',
  'sold',
] as const satisfies readonly PetStatus[];

/** Status given to a pet created without one (a gap docs/decisions.md fills). */
export const DEFAULT_PET_STATUS: PetStatus = 'available';

/**
 * What ECMAScript's `\s` matches, spelled out: the first and last character of a name are none
 * of these. Only `\uXXXX` escapes and ranges, so Python's, Rust's and Java's engines compile the
 * pattern to the same set; `[\s\S]` is any character in every engine.
 */
const WHITESPACE =
  '\\u0009-\\u000D\\u0020\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';
/** The `name` pattern: no whitespace at either end. Unpaired surrogates are checked in code. */
export const NAME_PATTERN = `^[^${WHITESPACE}](?:[\\s\\S]*[^${WHITESPACE}])?$`;

/** Integers no identifier may be: zero, negative, fractional, beyond 2^53-1. */
const INVALID_IDS = [0, -4, 1.5, ID_MAX + 2];

/** A positive integer identifier that survives a JSON round-trip exactly. */
export const Int64Id = Type.Integer({
  format: 'int64',
  minimum: 1,
  maximum: ID_MAX,
  ...invalidExamples(INVALID_IDS),
});

/** A new pet's fields exactly as the spec states them (§2): types and formats, no limits. */
const specFields = {
  name: Type.String({ description: "The animal's name" }),
  categoryId: Type.Integer({
    format: 'int64',
    description: 'Identifier of the category the animal belongs to',
  }),
  status: Type.Optional(PetStatus),
};

/**
 * NewPet exactly as the spec states it: what every conforming server accepts. The conformance
 * kit draws its request cases from these fields alone.
 */
export const SpecNewPet = Type.Object(specFields);
export type SpecNewPet = Static<typeof SpecNewPet>;

/**
 * Pet exactly as the spec states it: NewPet's fields plus the assigned `id`, other fields
 * allowed. What a client may rely on from any conforming server; the kit validates with it.
 */
export const SpecPet = Type.Object({
  id: Type.Integer({ format: 'int64', description: 'Unique identifier, assigned on creation' }),
  ...specFields,
});
export type SpecPet = Static<typeof SpecPet>;

/** A `listPets` body from any conforming server: a JSON array of SpecPet. */
export const SpecPetList = Type.Array(SpecPet);
export type SpecPetList = Static<typeof SpecPetList>;

/**
 * The fields this service adds to a pet beyond the spec's: accepted by `createPet`, stored and
 * returned. Each is optional, since a client written against the spec never sends it, and has
 * at least two `examples` and an `invalidExamples` list of values it must refuse. A new field is added here; the stores, the API's validation and the
 * OpenAPI document follow, and the API's store suite checks that both stores keep it.
 */
export const serviceFields = {};

/**
 * Request body of `createPet` as this service accepts it: the spec's fields with the limits
 * docs/decisions.md sets, and the service's own fields; unknown fields are refused. Each field
 * has at least two `examples` (or an `enum`): the API's store and list tests draw pets from them;
 * and values it must refuse (`invalidExamples`): test/fields.test.ts holds it to both.
 */
export const NewPet = Type.Object(
  {
    name: Type.String({
      description:
        "The animal's name: 1 to 200 characters, not starting or ending with whitespace, Unicode text (no unpaired surrogate: UTF-8 cannot carry one)",
      minLength: 1,
      maxLength: NAME_MAX_LENGTH,
      pattern: NAME_PATTERN,
      examples: ['Rex', 'Señor  Wüffles 🐶'],
      ...invalidExamples(['', ' Rex', 'Rex\n', 'x'.repeat(NAME_MAX_LENGTH + 1), 7]),
      // The raw pattern would not help a client.
      ...errorMessages({ pattern: 'must not be blank, or start or end with whitespace' }),
    }),
    categoryId: Type.Integer({
      ...specFields.categoryId,
      minimum: 1,
      maximum: ID_MAX,
      examples: [1, 7, ID_MAX],
      ...invalidExamples([...INVALID_IDS, '7']),
    }),
    status: specFields.status,
    ...serviceFields,
  },
  { additionalProperties: false },
);
export type NewPet = Static<typeof NewPet>;

/**
 * A pet as this service returns it: NewPet's fields, the assigned `id`, and `status` always
 * present (`DEFAULT_PET_STATUS` when the create gave none).
 */
export const Pet = Type.Object({
  id: Type.Integer({
    ...SpecPet.properties.id,
    minimum: 1,
    maximum: ID_MAX,
    examples: [1, ID_MAX],
    ...invalidExamples(INVALID_IDS),
  }),
  ...NewPet.properties,
  status: PetStatus,
});
export type Pet = Static<typeof Pet>;

/** Response body of `listPets` as this service returns it: a JSON array of Pet. */
export const PetList = Type.Array(Pet);
export type PetList = Static<typeof PetList>;
