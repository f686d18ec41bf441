import { Long } from 'mongodb';
import { type PetDraft, type PetJson, petJson, petOf, type StoredPet } from './pet-store.js';

/**
 * A pet document: a pet's fields (the contract's), keyed by its numeric id; integers stored as
 * int64.
 */
export type PetDocument = Omit<PetDraft, 'categoryId'> & {
  _id: number | Long;
  categoryId: number | Long;
  /**
   * The `instance` of the idempotency record it was created under, if any (unique, sparse
   * index): ties the pet to one use of one `Idempotency-Key`. Never served.
   */
  idempotencyRecord?: string;
  /**
   * The pet's JSON text as the API sends it (`petJson`), written with the pet: pets never
   * change, so reads send it as it is. Absent on pets stored before it was kept: those are
   * serialised from their fields (`petJsonOf`).
   */
  json?: string;
};

export const toNumber = (value: number | Long): number =>
  typeof value === 'number' ? value : value.toNumber();

export function toPet(doc: PetDocument): StoredPet {
  return petOf(toNumber(doc._id), { ...doc, categoryId: toNumber(doc.categoryId) });
}

export function toPetDocument(id: number, draft: PetDraft): PetDocument {
  const pet = petOf(id, draft);
  const { id: _, ...fields } = pet;
  return {
    _id: Long.fromNumber(id),
    ...fields,
    categoryId: Long.fromNumber(draft.categoryId),
    json: petJson(pet),
  };
}

/** The JSON text of a stored pet: the one kept in its document, or made from its fields. */
export function petJsonOf(doc: PetDocument): string {
  return doc.json ?? petJson(toPet(doc));
}

/** A stored pet's id and JSON text. */
export function petJsonRecord(doc: PetDocument): PetJson {
  return { id: toNumber(doc._id), json: petJsonOf(doc) };
}
