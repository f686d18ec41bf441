import { IDEMPOTENCY_KEY_TTL_MS } from '@animal-store/contract';
import { uniqueDbName } from '@animal-store/test-db';
import { type Collection, Long } from 'mongodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { IdempotencyDocument } from '../../src/store/mongo-idempotency.js';
import type { PetDocument } from '../../src/store/mongo-pet-document.js';
import { MongoPetStore } from '../../src/store/mongo-pet-store.js';
import { type IdempotentCreate, idempotencyRecordId } from '../../src/store/pet-store.js';
import { openMongoTestStore, petOfJson, readPage, readPet } from '../helpers/store.js';

const opened: MongoPetStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open() {
  const store = await openMongoTestStore();
  opened.push(store);
  return {
    store,
    pets: store.db.collection<PetDocument>('pets'),
    records: store.db.collection<IdempotencyDocument>('idempotency_keys'),
  };
}

const request: IdempotentCreate = {
  scope: 'client',
  key: 'k-1',
  fingerprint: 'f-1',
  draft: { name: 'Crash test', categoryId: 3, status: 'pending' },
};
const recordId = idempotencyRecordId(request.scope, request.key);

/** What a process that died while holding the key leaves behind. */
async function abandonedRecord(records: Collection<IdempotencyDocument>, leaseUntil: Date) {
  const now = new Date();
  await records.insertOne({
    _id: recordId,
    instance: 'instance-1',
    fingerprint: request.fingerprint,
    state: 'in-flight',
    petId: Long.fromNumber(500),
    owner: 'the-dead-process',
    leaseUntil,
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
  });
}
const past = () => new Date(Date.now() - 1_000);

/** A pet of another create under the id the abandoned record reserved (where `$inc` is not atomic). */
async function anotherPetOnTheReservedId(pets: Collection<PetDocument>) {
  await pets.insertOne({
    _id: Long.fromNumber(500),
    name: 'someone else',
    categoryId: Long.fromNumber(1),
    status: 'sold',
  });
}

describe('MongoPetStore createOnce on disk', () => {
  it('keeps a record with the reserved pet id and 24 h expiry; the pet points back at it', async () => {
    const { store, pets, records } = await open();
    const result = await store.createOnce(request);
    if (result.outcome !== 'created') throw new Error(result.outcome);
    const record = await records.findOne({ _id: recordId }, { promoteLongs: false });
    expect(record).toMatchObject({ state: 'in-flight', fingerprint: 'f-1' });
    expect(record?.petId.toNumber()).toBe(result.pet.id);
    expect((record?.expiresAt.getTime() ?? 0) - (record?.createdAt.getTime() ?? 0)).toBe(
      IDEMPOTENCY_KEY_TTL_MS,
    );
    const pet = await pets.findOne({ _id: Long.fromNumber(result.pet.id) });
    expect(pet?.idempotencyRecord).toBe(record?.instance);
    expect(await store.getJson(result.pet.id)).toBe(result.pet.json);
  });

  it('has a unique index tying pets to records, and a TTL index where the server has them', async () => {
    const { store, pets, records } = await open();
    await store.createOnce(request);
    const petIndex = (await pets.indexes()).find((i) => i.name === 'idempotency_record');
    expect(petIndex).toMatchObject({ key: { idempotencyRecord: 1 }, unique: true });
    const ttl = (await records.indexes()).find((i) => i.name === 'expires');
    const info = await store.db.admin().command({ buildInfo: 1 });
    // FerretDB 1.x has no TTL indexes: the store sweeps expired records itself there.
    if (info.ferretdbVersion === undefined) expect(ttl?.expireAfterSeconds).toBe(0);
    else expect(ttl).toBeUndefined();
  });

  it('replays the create of a request that died after inserting the pet, adding none', async () => {
    const { store, pets, records } = await open();
    await abandonedRecord(records, past());
    await pets.insertOne({
      _id: Long.fromNumber(500),
      name: request.draft.name,
      categoryId: Long.fromNumber(3),
      status: 'pending',
      idempotencyRecord: 'instance-1',
    });
    const result = await store.createOnce(request);
    expect(result).toEqual({ outcome: 'replayed', pet: { id: 500, json: expect.any(String) } });
    if (result.outcome === 'replayed') {
      expect(petOfJson(result.pet)).toEqual({ id: 500, ...request.draft });
    }
    expect(await pets.countDocuments()).toBe(1);
    expect((await store.createOnce(request)).outcome).toBe('replayed');
  });

  it('finishes under the reserved id the create of a request that died before the insert', async () => {
    const { store, pets, records } = await open();
    await abandonedRecord(records, past());
    const result = await store.createOnce(request);
    expect(result).toEqual({ outcome: 'created', pet: { id: 500, json: expect.any(String) } });
    if (result.outcome === 'created') {
      expect(petOfJson(result.pet)).toEqual({ id: 500, ...request.draft });
    }
    expect(await pets.countDocuments()).toBe(1);
  });

  it('answers in-flight while the holder of the key still has its lease', async () => {
    const { store, pets, records } = await open();
    await abandonedRecord(records, new Date(Date.now() + 60_000));
    expect(await store.createOnce(request)).toEqual({ outcome: 'in-flight' });
    expect(await store.createOnce({ ...request, fingerprint: 'f-2' })).toEqual({
      outcome: 'key-reused',
    });
    expect(await pets.countDocuments()).toBe(0);
  });

  it('moves to a fresh id when the reserved one went to another pet, leaving that pet be', async () => {
    const { store, pets, records } = await open();
    await abandonedRecord(records, past());
    await anotherPetOnTheReservedId(pets);
    const result = await store.createOnce(request);
    if (result.outcome !== 'created') throw new Error(result.outcome);
    expect(result.pet.id).not.toBe(500);
    expect((await readPet(store, 500))?.name).toBe('someone else');
    expect((await records.findOne({ _id: recordId }))?.petId).toEqual(result.pet.id);
    expect(await pets.countDocuments()).toBe(2);
  });
  it("leaves other keys' records as they were while it replaces, takes over or moves its own", async () => {
    const { store, pets, records } = await open();
    const now = Date.now();
    const bystander: IdempotencyDocument = {
      _id: idempotencyRecordId('client', 'someone-else'),
      instance: 'instance-9',
      fingerprint: 'f-9',
      state: 'in-flight',
      petId: Long.fromNumber(900),
      owner: 'a-live-process',
      leaseUntil: new Date(now + 60_000),
      createdAt: new Date(now),
      expiresAt: new Date(now + IDEMPOTENCY_KEY_TTL_MS),
    };
    await records.insertOne(bystander);
    const unchanged = async () =>
      expect(await records.findOne({ _id: bystander._id }, { promoteLongs: false })).toEqual(
        bystander,
      );
    // Where the server keeps no TTL index, a create sweeps expired records at most once a
    // minute: this one does, so that the next finds the expired record of its key itself.
    await store.createOnce({ ...request, key: 'k-0' });
    // An expired record of the key: deleted, and the key used afresh.
    await records.insertOne({
      _id: recordId,
      instance: 'instance-0',
      fingerprint: 'f-0',
      state: 'in-flight',
      petId: Long.fromNumber(400),
      owner: 'a-process-long-gone',
      leaseUntil: new Date(now - 2_000),
      createdAt: new Date(now - IDEMPOTENCY_KEY_TTL_MS - 2_000),
      expiresAt: new Date(now - 1_000),
    });
    expect((await store.createOnce(request)).outcome).toBe('created');
    await unchanged();
    // A record whose holder died, its reserved id taken by another pet: taken over, then moved.
    await records.deleteOne({ _id: recordId });
    await abandonedRecord(records, past());
    await anotherPetOnTheReservedId(pets);
    const moved = await store.createOnce(request);
    if (moved.outcome !== 'created') throw new Error(moved.outcome);
    expect(moved.pet.id).not.toBe(500);
    await unchanged();
  });
});

describe('createOnce across API processes', () => {
  it('creates one pet for a key sent to two processes at once, and both replay it', async () => {
    const uri = inject('mongoUri');
    const dbName = uniqueDbName();
    const a = await MongoPetStore.connect(uri, dbName);
    const b = await MongoPetStore.connect(uri, dbName);
    opened.push(a, b);
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).createOnce(request)),
      );
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
      expect((await readPage(a, { limit: 100 })).pets).toHaveLength(1);
      expect((await a.createOnce(request)).outcome).toBe('replayed');
      expect((await b.createOnce(request)).outcome).toBe('replayed');
    } finally {
      await a.db.dropDatabase();
    }
  });
});
