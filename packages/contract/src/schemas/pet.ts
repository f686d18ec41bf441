import Type, { type Static } from 'typebox';
import { ID_MAX, NAME_MAX_LENGTH } from '../limits.js';

/** Availability status of an animal (spec §2). */
export const PetStatus = Type.Enum(['available', 'pending', 'sold'], {
  // Stated explicitly so OpenAPI tools (Swagger UI, generators) see a string enum.
  type: 'string',
  description: 'Availability status',
});
export type PetStatus = Static<typeof PetStatus>;

/** Every PetStatus value, in the spec's order. */
export const PET_STATUSES = [
  'available',
  'pending',
  'sold',
] as const satisfies readonly PetStatus[];

/** Status given to a pet created without one (a gap the design card fills). */
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

/** A positive integer identifier that survives a JSON round-trip exactly. */
export const Int64Id = Type.Integer({ format: 'int64', minimum: 1, maximum: ID_MAX });

/** The fields a Pet shares with NewPet, as the spec states them (no gap-filling limits). */
const sharedFields = {
  name: Type.String({ description: "The animal's name" }),
  categoryId: Type.Integer({
    format: 'int64',
    description: 'Identifier of the category the animal belongs to',
  }),
  status: Type.Optional(PetStatus),
};

/** Request body of `createPet` (spec §2), with the design card's limits; unknown fields are refused. */
export const NewPet = Type.Object(
  {
    ...sharedFields,
    name: Type.String({
      description:
        "The animal's name: 1 to 200 characters, not starting or ending with whitespace, Unicode text (no unpaired surrogate: UTF-8 cannot carry one)",
      minLength: 1,
      maxLength: NAME_MAX_LENGTH,
      pattern: NAME_PATTERN,
    }),
    categoryId: Type.Integer({ ...sharedFields.categoryId, minimum: 1, maximum: ID_MAX }),
  },
  { additionalProperties: false },
);
export type NewPet = Static<typeof NewPet>;

/**
 * An animal record (spec §2): NewPet's fields plus the service-assigned `id`.
 * Kept to what the spec guarantees so it validates any conforming server's pets.
 */
export const Pet = Type.Object({
  id: Type.Integer({ format: 'int64', description: 'Unique identifier, assigned on creation' }),
  ...sharedFields,
});
export type Pet = Static<typeof Pet>;

/** Response body of `listPets`: a JSON array of Pet. */
export const PetList = Type.Array(Pet);
export type PetList = Static<typeof PetList>;
