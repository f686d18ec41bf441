import { Long } from 'mongodb';
import { type PetDraft, petOf, type StoredPet } from './pet-store.js';

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
};

export const toNumber = (value: number | Long): number =>
  typeof value === 'number' ? value : value.toNumber();

export function toPet(doc: PetDocument): StoredPet {
  return petOf(toNumber(doc._id), { ...doc, categoryId: toNumber(doc.categoryId) });
}

export function toPetDocument(id: number, draft: PetDraft): PetDocument {
  const { id: _, ...fields } = petOf(id, draft);
  return { _id: Long.fromNumber(id), ...fields, categoryId: Long.fromNumber(draft.categoryId) };
}
