import { GET_PET_DEPRECATION_HEADERS } from '@animal-store/contract';
import { expect } from 'vitest';

/**
 * What every generated client's scenario reports (scenarios/): a create and its retry with the
 * same key, three pending pets listed two a page, the deprecated get with its headers, and the
 * typed Error bodies of a 400, a 401 and a 404.
 */
export const expectedScenario = () => ({
  created: {
    status: 201,
    pet: { id: expect.any(Number), name: 'Rex', categoryId: 3, status: 'pending' },
  },
  retried: { sameId: true, replayed: 'true' },
  pages: [['Rex', 'Max'], ['Ida']],
  fetched: {
    name: 'Rex',
    deprecation: GET_PET_DEPRECATION_HEADERS.Deprecation,
    sunset: GET_PET_DEPRECATION_HEADERS.Sunset,
  },
  invalid: { status: 400, code: 'validation_failed', fields: ['/name'] },
  unauthorized: { status: 401, code: 'unauthorized', fields: [] },
  missing: { status: 404, code: 'not_found', fields: [] },
});

/**
 * Rules of the conformance kit's traffic judge that every scenario's traffic exercises: its pets,
 * its pages of pending pets, the deprecated get and its Error bodies.
 */
export const JUDGED_IN_SCENARIO = [
  'errors.created-pets-agree',
  'errors.error-schema',
  'errors.no-server-errors',
  'errors.pet-fields',
  'errors.status-matches',
  'getPet.deprecation-headers',
  'getPet.successor-link',
  'listPets.at-most-limit',
  'listPets.status-filter.pending',
] as const;
