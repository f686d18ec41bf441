import { AnimalStoreClient, AnimalStoreError, type NewPet } from '@animal-store/client';
import { GET_PET_DEPRECATED_AT, GET_PET_SUNSET_AT } from '@animal-store/contract';
import { uniqueDbName } from '@animal-store/test-db';
import { describe, expect, inject, it } from 'vitest';
import { from, type SharedApi, startApiProcess } from './helpers/api-process.js';
import { expectNothingWrong, judgedApi } from './helpers/judged-api.js';

const stores: Record<string, () => Promise<SharedApi>> = {
  // The API every file of this package shares (test/global-setup.ts).
  memory: async () => inject('api'),
  // Another store: an API of its own, on its own database.
  mongo: () => startApiProcess({ MONGODB_URI: inject('mongoUri'), MONGODB_DB: uniqueDbName() }),
};

describe.each(
  Object.entries(stores),
)('@animal-store/client against the API on %s', (name, start) => {
  const started = judgedApi(start(), `the official client on ${name}`);
  // A failed start fails every test below, each with the API's output.
  started.catch(() => {});
  const connect = async (apiKey?: string) => {
    const api = await started;
    return new AnimalStoreClient({ baseUrl: api.base, apiKey: apiKey ?? api.apiKey });
  };

  it('creates with a key it makes, and a retry with that key is the replayed first answer', async () => {
    const client = await connect();
    const rex: NewPet = { name: 'Rex', categoryId: 7 };
    const first = await client.pets.create(rex, { idempotencyKey: true });
    expect(first).toMatchObject({ replayed: false, pet: { ...rex, status: 'available' } });
    expect(first.idempotencyKey).toEqual(expect.any(String));
    const again = await client.pets.create(rex, { idempotencyKey: first.idempotencyKey });
    expect(again).toMatchObject({ replayed: true, pet: first.pet });
    expect(again.requestId).not.toBe(first.requestId);
  });

  it('lists one status page by page, following the next-page link to the end', async () => {
    const client = await connect();
    const created: number[] = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) {
      created.push((await client.pets.create({ name, categoryId: 1, status: 'sold' })).pet.id);
    }
    await client.pets.create({ name: 'F', categoryId: 1, status: 'pending' });
    const query = { status: 'sold', limit: 2, ...from(created[0] as number) } as const;
    const first = await client.pets.listPage(query);
    expect(first.next).toEqual({ status: 'sold', limit: 2, after: created[1] });
    const listed: number[] = [];
    for await (const pet of client.pets.list(query)) {
      expect(pet.status).toBe('sold');
      listed.push(pet.id);
    }
    expect(listed).toEqual(created);
  });

  it('gets one animal through the deprecated operation, its deprecation read as dates', async () => {
    const client = await connect();
    const { pet } = await client.pets.create({ name: 'Old', categoryId: 2 });
    const fetched = await client.pets.get(pet.id);
    expect(fetched).toMatchObject({
      pet,
      deprecatedAt: GET_PET_DEPRECATED_AT,
      sunsetAt: GET_PET_SUNSET_AT,
      successor: `${new URL(client.baseUrl).origin}/v1/pets`,
    });
  });

  it('throws 400, 401 and 404 as AnimalStoreError with code, status, details and request id', async () => {
    const client = await connect();
    const invalid = await client.pets
      .create({ name: 'Rex', categoryId: 'one' } as unknown as NewPet)
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(AnimalStoreError);
    expect(invalid).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: [expect.objectContaining({ path: '/categoryId' })],
      requestId: expect.any(String),
    });
    const stranger = await connect('not-a-key-of-this-api');
    await expect(stranger.pets.listPage()).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
      requestId: expect.any(String),
    });
    await expect(client.pets.get(2 ** 40)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('sends requests in which the conformance kit finds nothing wrong', async () => {
    await expectNothingWrong((await started).report(), [
      'createPet.invalid-category-id',
      'errors.created-pets-agree',
      'errors.error-schema',
      'getPet.deprecation-headers',
      'listPets.status-filter.sold',
    ]);
  });
});
