import { PET_STATUSES } from '@animal-store/contract';

/** A pet as the peers keep it: its fields in the order the API writes them. */
export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

/**
 * The peers' in-memory store (`fastify.ts`, `koa.ts`): pets in id order, and per status, so a
 * page is a binary search and a slice.
 */
export class PeerStore {
  nextId = 1;
  readonly all: Pet[] = [];
  readonly byId = new Map<number, Pet>();
  readonly byStatus = new Map<string, Pet[]>(PET_STATUSES.map((s) => [s, []]));

  create(draft: Omit<Pet, 'id'>): Pet {
    const pet = {
      id: this.nextId++,
      name: draft.name,
      categoryId: draft.categoryId,
      status: draft.status,
    };
    this.all.push(pet);
    this.byId.set(pet.id, pet);
    this.byStatus.get(pet.status)?.push(pet);
    return pet;
  }

  list(limit: number, status?: string, after?: number): { pets: Pet[]; hasMore: boolean } {
    const source = status === undefined ? this.all : (this.byStatus.get(status) ?? []);
    let [low, high] = [0, source.length];
    while (after !== undefined && low < high) {
      const mid = (low + high) >>> 1;
      if ((source[mid] as Pet).id <= after) low = mid + 1;
      else high = mid;
    }
    return { pets: source.slice(low, low + limit), hasMore: low + limit < source.length };
  }
}
