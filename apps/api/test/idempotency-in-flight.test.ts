import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import type { PetDraft, PetJson } from '../src/store/pet-store.js';
import { errorBody, json, read, startTestApi } from './helpers/api.js';
import { readPage } from './helpers/store.js';

/** A memory store whose creates wait until the test lets them through. */
class GatedStore extends MemoryPetStore {
  #open!: () => void;
  gate = new Promise<void>((resolve) => {
    this.#open = resolve;
  });
  release(): void {
    this.#open();
  }
  override async create(draft: PetDraft): Promise<PetJson> {
    await this.gate;
    return super.create(draft);
  }
}

describe('POST /v1/pets with an Idempotency-Key still in flight', () => {
  it('answers a concurrent duplicate 409 conflict with Retry-After, then the replay', async () => {
    const store = new GatedStore();
    const api = await startTestApi({ store });
    const send = () =>
      fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: { ...json, 'Idempotency-Key': 'slow-one' },
        body: '{"name":"Slow","categoryId":1}',
      });
    const first = send();
    // The first request is parked in the store; wait until it holds the key (the test's timeout
    // catches a key never held).
    let duplicate = await send();
    while (duplicate.status !== 409) {
      await duplicate.arrayBuffer();
      await new Promise((r) => setTimeout(r, 20));
      duplicate = await send();
    }
    expect(duplicate.status).toBe(409);
    expect(duplicate.headers.get('retry-after')).toBe('1');
    const error = await errorBody(duplicate);
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('Idempotency-Key');

    store.release();
    const created = await first;
    expect(created.status).toBe(201);
    const pet = await read(created);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await read(replay)).toEqual(pet);
    expect((await readPage(store, { limit: 10 })).pets).toEqual([pet]);
  });
});
