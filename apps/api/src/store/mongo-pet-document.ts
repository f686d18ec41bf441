import type { PetStatus } from '@animal-store/contract';
import { Long } from 'mongodb';
import type { PetDraft, StoredPet } from './pet-store.js';

/** A pet document: keyed by its numeric id; integers stored as int64. */
export interface PetDocument {
  _id: number | Long;
  name: string;
  categoryId: number | Long;
  status: PetStatus;
  /**
   * The `instance` of the idempotency record it was created under, if any (unique, sparse
   * index): ties the pet to one use of one `Idempotency-Key`. Never served.
   */
  idempotencyRecord?: string;
}

export const toNumber = (value: number | Long): number =>
  typeof value === 'number' ? value : value.toNumber();

export function toPet(doc: PetDocument): StoredPet {
  return {
    id: toNumber(doc._id),
    name: doc.name,
    categoryId: toNumber(doc.categoryId),
    status: doc.status,
  };
}

export function toPetDocument(id: number, draft: PetDraft): PetDocument {
  return {
    _id: Long.fromNumber(id),
    name: draft.name,
    categoryId: Long.fromNumber(draft.categoryId),
    status: draft.status,
  };
}
