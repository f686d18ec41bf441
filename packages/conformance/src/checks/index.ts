import type { Check } from '../types.js';
import { authChecks, shapeAuthChecks } from './auth.js';
import { boundaryChecks } from './boundaries.js';
import { createPetChecks } from './create-pet.js';
import { errorsChecks } from './errors.js';
import { getPetChecks } from './get-pet.js';
import { jsonSpellingChecks } from './json-spellings.js';
import { listPetsChecks } from './list-pets.js';

/**
 * The createPet checks whose failure explains others: a write refused, ids given twice, a pet
 * lost. They run, and so are reported, before the checks that need the pets (lists, limits).
 */
const ROOT_CAUSES: ReadonlySet<string> = new Set([
  'createPet.created',
  'createPet.without-status',
  'createPet.distinct-ids',
  'createPet.readable-by-id',
]);

/**
 * Every check, in the order a run performs and reports them: authentication, then the root
 * causes, then what follows from them (the auth probes of every request shape next to last, the `errors` group last: it judges
 * all answers).
 */
export const CHECKS: readonly Check[] = [
  ...authChecks,
  ...createPetChecks.filter((c) => ROOT_CAUSES.has(c.id)),
  ...listPetsChecks,
  ...createPetChecks.filter((c) => !ROOT_CAUSES.has(c.id)),
  ...getPetChecks,
  ...boundaryChecks,
  ...jsonSpellingChecks,
  ...shapeAuthChecks,
  ...errorsChecks,
];
