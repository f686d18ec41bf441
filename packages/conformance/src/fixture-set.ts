import { readFileSync } from 'node:fs';
import { LIMIT_MAX, PET_STATUSES, type PetStatus } from '@animal-store/contract';
import { newPetJson, type SentPet } from './fixtures.js';
import { integerText, parseJson } from './http/json.js';
import { UsageError } from './run.js';

/**
 * How many pets `animal-store-conformance fixtures` prints: more than `LIMIT_MAX`, so that a
 * server holding them must fill a page of `limit=100`, and a third of them per status.
 */
export const FIXTURE_SET_SIZE = LIMIT_MAX + 20;

/** Letters only, as every name rule a server may have still takes them. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `n` as three letters (`aaa`, `aab`, …). */
function letters(n: number): string {
  return [676, 26, 1].map((d) => LETTERS[Math.floor(n / d) % 26]).join('');
}

/**
 * The pet set an operator loads into a server for `--read-only --fixtures`: `FIXTURE_SET_SIZE`
 * pets named `fixture` + three letters, statuses in turn, every one in `categoryId`.
 */
export function fixtureSet(categoryId = '1'): SentPet[] {
  return Array.from({ length: FIXTURE_SET_SIZE }, (_, i) => ({
    name: `fixture${letters(i)}`,
    categoryId,
    status: PET_STATUSES[i % PET_STATUSES.length] as PetStatus,
  }));
}

/** A pet set as a JSON array of NewPet, one per line (ready for `POST /pets` one by one). */
export function fixtureSetJson(pets: readonly SentPet[]): string {
  return `[\n${pets.map((p) => `  ${newPetJson(p)}`).join(',\n')}\n]\n`;
}

/** Reads a pet set (a JSON array of NewPet with distinct names); throws `UsageError` when it is none. */
export function readFixtureSet(file: string): SentPet[] {
  let value: unknown;
  try {
    value = parseJson(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--fixtures ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new UsageError(`--fixtures ${file}: expected a JSON array of pets (NewPet)`);
  }
  const names = new Set<string>();
  return value.map((item: unknown, i) => {
    const { name, status } = (item ?? {}) as { name?: unknown; status?: unknown };
    const categoryId = integerText(item, 'categoryId');
    if (typeof name !== 'string' || categoryId === undefined) {
      throw new UsageError(
        `--fixtures ${file}: pet ${i} needs a string name and an integer categoryId`,
      );
    }
    if (status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(status)) {
      throw new UsageError(`--fixtures ${file}: pet ${i} has status ${JSON.stringify(status)}`);
    }
    if (names.has(name)) throw new UsageError(`--fixtures ${file}: two pets are named ${name}`);
    names.add(name);
    return status === undefined
      ? { name, categoryId }
      : { name, categoryId, status: status as PetStatus };
  });
}
