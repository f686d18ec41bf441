import type { StoredPet } from '../store/pet-store.js';

// Where a pet keeps its JSON text: a symbol-keyed, non-enumerable property of the pet itself, so
// JSON, spreads and equality checks never see it, and the text lives and dies with the pet. Not
// a WeakMap: there every created pet is a young key in an ephemeron table, which the garbage
// collector revisits, and `POST /v1/pets` costs about a tenth more CPU (tooling/bench).
const JSON_TEXT = Symbol('animal-store.petJson');

type TextCarrier = StoredPet & { [JSON_TEXT]?: string };

/**
 * The JSON text of one pet, made once. A pet never changes after it is created, so the text made
 * for its first answer serves every later one. A pet that cannot carry it (frozen) is serialised
 * every time.
 */
export function petJson(pet: StoredPet): string {
  const carrier = pet as TextCarrier;
  let text = carrier[JSON_TEXT];
  if (text === undefined) {
    text = JSON.stringify(pet);
    if (Object.isExtensible(pet)) Object.defineProperty(pet, JSON_TEXT, { value: text });
  }
  return text;
}

/** The JSON text of a list of pets, its pets' texts joined: the bytes `JSON.stringify` gives. */
export function petListJson(pets: readonly StoredPet[]): string {
  if (pets.length === 0) return '[]';
  let text = `[${petJson(pets[0] as StoredPet)}`;
  for (let i = 1; i < pets.length; i++) text += `,${petJson(pets[i] as StoredPet)}`;
  return `${text}]`;
}
