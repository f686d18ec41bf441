// The pets the run created, read back by id once and shared: `createPet.readable-by-id` judges the
// answers, and a check that lacks pets names the cause (a refused, duplicated or lost write)
// instead of the symptom.
import type { CheckContext } from '../context.js';
import { CREATE_CONCURRENCY, type SentPet } from '../fixtures.js';
import type { HttpResponse } from '../http/client.js';
import {
  described,
  difference,
  expectPet,
  expectStatus,
  fail,
  idOf,
  sentFields,
  skip,
} from './support.js';

/** One pet the run created, what the kit sent for it, and `getPet`'s answer. */
export interface ReadBack {
  readonly id: string;
  readonly sent: SentPet;
  readonly res: HttpResponse;
}

/**
 * Reads back every pet the run created (`CREATE_CONCURRENCY` at a time), once the bulk pets exist;
 * shared.
 */
export function readBack(ctx: CheckContext): Promise<readonly ReadBack[]> {
  return ctx.memo('read back the created pets', async () => {
    await ctx.fixtures.ensureBulk();
    const pets = [...ctx.fixtures.sentById];
    const out: ReadBack[] = [];
    for (let i = 0; i < pets.length; i += CREATE_CONCURRENCY) {
      const batch = pets.slice(i, i + CREATE_CONCURRENCY);
      const answers = await Promise.all(
        batch.map(([id]) => ctx.send({ method: 'GET', path: `/pets/${id}` })),
      );
      for (const [j, res] of answers.entries()) {
        const [id, sent] = batch[j] as [string, SentPet];
        out.push({ id, sent, res });
      }
    }
    return out;
  });
}

/** How a `200` to `getPet` differs from the pet as sent (another pet, other fields), or undefined. */
export function readBackDifference({ id, sent, res }: ReadBack): string | undefined {
  const pet = expectPet(res);
  return idOf(pet) === id ? difference(pet, sentFields(sent)) : `it is pet ${idOf(pet)}`;
}

/** Fails unless `getPet` answered 200 with the pet as sent. */
export function expectReadBack(readBack: ReadBack): void {
  const { res } = readBack;
  expectStatus(res, 200, 'for a pet this run created');
  const problem = readBackDifference(readBack);
  if (problem !== undefined) fail(`${described(res)}: ${problem}`, res);
}

/**
 * Why fewer of the kit's pets exist than it meant to create, naming the check that shows the
 * cause (`105 created, 17 readable: see createPet.readable-by-id`), or undefined.
 */
export async function missingPetsCause(ctx: CheckContext): Promise<string | undefined> {
  const { fixtures } = ctx;
  const { sent, accepted } = fixtures.tally;
  if (fixtures.readOnly || sent === 0) return undefined;
  if (accepted < sent) {
    return `${sent} sent to createPet, ${accepted} created: see createPet.created`;
  }
  if (fixtures.duplicateId !== undefined) {
    return `${accepted} created, ${fixtures.createdIds.size} distinct ids: see createPet.distinct-ids`;
  }
  if (fixtures.sentById.size < accepted) {
    return `${accepted} created, ${fixtures.sentById.size} answered with a valid Pet: see createPet.created`;
  }
  const readable = (await readBack(ctx)).filter((r) => r.res.status === 200).length;
  if (readable < accepted) {
    return `${accepted} created, ${readable} readable: see createPet.readable-by-id`;
  }
  return undefined;
}

/** The sample pets that were created, or a skip when none could be. */
export async function createdSamples(ctx: CheckContext) {
  const samples = await ctx.fixtures.samples();
  if (samples.pets.length === 0) skip('no pet could be created (see createPet.created)');
  return samples.pets;
}
