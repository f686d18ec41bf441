import type { StoredPet } from '../store/pet-store.js';

// Where a pet (or a list of pets) keeps its JSON text: a symbol-keyed, non-enumerable property of
// the value itself, so JSON, spreads and equality checks never see it, and the text lives and dies
// with its owner. Not a WeakMap: there every created pet is a young key in an ephemeron table,
// which the garbage collector revisits, and `POST /v1/pets` costs about a tenth more CPU
// (tooling/bench).
const JSON_TEXT = Symbol('animal-store.petJson');

type TextCarrier = object & { [JSON_TEXT]?: string };

/** The text `owner` carries, made by `make` the first time; made every time for a frozen owner. */
function keptText<T extends object>(owner: T, make: (owner: T) => string): string {
  const carrier = owner as TextCarrier;
  let text = carrier[JSON_TEXT];
  if (text === undefined) {
    text = make(owner);
    if (Object.isExtensible(owner)) Object.defineProperty(owner, JSON_TEXT, { value: text });
  }
  return text;
}

/**
 * The JSON text of one pet, made once. A pet never changes after it is created, so the text made
 * for its first answer serves every later one.
 */
export function petJson(pet: StoredPet): string {
  return keptText(pet, JSON.stringify);
}

function joined(pets: readonly StoredPet[]): string {
  if (pets.length === 0) return '[]';
  let text = `[${petJson(pets[0] as StoredPet)}`;
  for (let i = 1; i < pets.length; i++) text += `,${petJson(pets[i] as StoredPet)}`;
  return `${text}]`;
}

/**
 * The JSON text of a list of pets, its pets' texts joined: the bytes `JSON.stringify` gives. The
 * list keeps it too: the in-memory store answers a full page with the same array every time
 * (`MemoryPetStore`), so a page's text is joined once.
 */
export function petListJson(pets: readonly StoredPet[]): string {
  return keptText(pets, joined);
}
