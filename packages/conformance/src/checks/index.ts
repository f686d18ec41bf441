import type { Check } from '../types.js';
import { authChecks } from './auth.js';
import { createPetChecks } from './create-pet.js';
import { errorsChecks } from './errors.js';
import { getPetChecks } from './get-pet.js';
import { listPetsChecks } from './list-pets.js';

/** Every check, in the order a run performs them (the `errors` group last: it judges all answers). */
export const CHECKS: readonly Check[] = [
  ...authChecks,
  ...listPetsChecks,
  ...createPetChecks,
  ...getPetChecks,
  ...errorsChecks,
];
