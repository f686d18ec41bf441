import Type, { type Static } from 'typebox';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../limits.js';
import { invalidExamples } from './invalid-examples.js';
import { Int64Id, PetStatus } from './pet.js';

/** Query parameters of `listPets` as the spec states them (§4.1). */
const specQueryParams = {
  limit: Type.Optional(
    Type.Integer({
      minimum: LIMIT_MIN,
      maximum: LIMIT_MAX,
      default: LIMIT_DEFAULT,
      description: 'Maximum number of animals returned',
      ...invalidExamples([LIMIT_MIN - 1, LIMIT_MAX + 1, 2.5, -1]),
    }),
  ),
  status: Type.Optional(PetStatus),
};

/**
 * Query parameters of `listPets` as this service takes them: the spec's, then the ones it adds
 * (the `after` cursor, docs/decisions.md). The parser, the next-page link and the OpenAPI
 * document all follow this list. Each parameter has values it must refuse (`invalidExamples`);
 * its `examples`, `enum`, bounds and default are what it must accept (test/fields.test.ts).
 */
export const ListPetsQuery = Type.Object(
  {
    ...specQueryParams,
    after: Type.Optional(
      Type.Integer({
        ...Int64Id,
        description: 'Return only animals whose id is greater than this',
      }),
    ),
  },
  // Unknown query parameters are ignored, as most HTTP APIs do (cache busters, tracing).
);
export type ListPetsQuery = Static<typeof ListPetsQuery>;

/** Path parameters of `getPet` (spec §4.3). */
export const PetIdParams = Type.Object({
  petId: Type.Integer({ ...Int64Id, description: 'The identifier of the animal' }),
});
export type PetIdParams = Static<typeof PetIdParams>;
