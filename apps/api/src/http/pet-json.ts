import type { StoredPet } from '../store/pet-store.js';

/**
 * Each pet's JSON text, made once. A pet never changes after it is created, so the text made
 * for its first answer serves every later one; a list is its pets' texts joined. Weakly held:
 * a pet the store lets go of (or a MongoDB document read once) takes its text with it.
 */
const texts = new WeakMap<StoredPet, string>();

/** The JSON text of one pet. */
export function petJson(pet: StoredPet): string {
  let text = texts.get(pet);
  if (text === undefined) {
    text = JSON.stringify(pet);
    texts.set(pet, text);
  }
  return text;
}

/** The JSON text of a list of pets: the same bytes `JSON.stringify(pets)` gives. */
export function petListJson(pets: readonly StoredPet[]): string {
  if (pets.length === 0) return '[]';
  let text = `[${petJson(pets[0] as StoredPet)}`;
  for (let i = 1; i < pets.length; i++) text += `,${petJson(pets[i] as StoredPet)}`;
  return `${text}]`;
}
