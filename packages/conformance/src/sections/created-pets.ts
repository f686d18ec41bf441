// A created pet is the pet sent, under an id the service assigns and gives no other pet (spec §2,
// §4.2, §4.3): judged on the 201 body, on getPet and in lists. Its first checks explain others
// (a write refused, ids given twice, a pet lost), so they run before the checks that need pets.
import { LIMIT_MAX, PET_STATUSES } from '@animal-store/contract';
import { type Creation, newPetJson } from '../fixtures.js';
import type { HttpResponse } from '../http/client.js';
import { PetModel, petProblem, routeOf } from '../oracles.js';
import { bodyWith } from './create-pet.js';
import { answers, verdict } from './every-answer.js';
import { fetchTarget } from './get-pet.js';
import { listAfterData } from './list-pets.js';
import { createdSamples, expectReadBack, readBack } from './read-back.js';
import {
  declarer,
  described,
  difference,
  expectError,
  expectPet,
  expectPetList,
  expectStatus,
  fail,
  idOf,
  inStage,
  pass,
  type SpecSection,
  sentFields,
  skip,
} from './support.js';

const check = declarer('§2');

/** Fails unless a sample creation answered 201 with the pet as sent plus an id. */
function expectCreated(creation: Creation | undefined, what: string): void {
  if (creation === undefined) skip(`no ${what} was sent`);
  const { response, sent } = creation;
  expectStatus(response, 201, what);
  const pet = expectPet(response, what);
  const problem = difference(pet, sentFields(sent));
  if (problem !== undefined) fail(`${described(response, what)}: ${problem}`, response);
}

/** A 2xx answer to createPet. */
function isCreated(res: HttpResponse): boolean {
  return routeOf(res).op === 'createPet' && res.status >= 200 && res.status <= 299;
}

/** The ids of the Pets an answer shows (a Pet body, or list entries). */
function idsShown(res: HttpResponse): string[] {
  if (res.status < 200 || res.status > 299) return [];
  const items = Array.isArray(res.body) ? res.body : [res.body];
  return items.flatMap((item) => {
    const id = petProblem(item) === undefined ? idOf(item) : undefined;
    return id === undefined ? [] : [id];
  });
}

/**
 * The creates answered 2xx (without an `Idempotency-Key`) with a pet some answer showed before the
 * create was sent: a create that returned a pet it already had, not a new one.
 */
export function replayedCreates(
  all: readonly HttpResponse[],
): { res: HttpResponse; why: string }[] {
  // The first answer that showed each id, and when it arrived.
  const firstShown = new Map<string, { at: number; res: HttpResponse }>();
  for (const res of all) {
    const at = res.receivedAt ?? 0;
    for (const id of idsShown(res)) {
      const known = firstShown.get(id);
      if (known === undefined || at < known.at) firstShown.set(id, { at, res });
    }
  }
  const offenders: { res: HttpResponse; why: string }[] = [];
  for (const res of all.filter(isCreated)) {
    const keyed = Object.keys(res.request.headers ?? {}).some(
      (name) => name.toLowerCase() === 'idempotency-key',
    );
    const id = idOf(res.body);
    if (keyed || id === undefined || petProblem(res.body) !== undefined) continue;
    const sentAt = res.sentAt ?? 0;
    const earlier = firstShown.get(id);
    if (earlier !== undefined && earlier.at < sentAt) {
      offenders.push({
        res,
        why: `pet ${id}, which ${described(earlier.res)} showed before this create was sent: a create adds a new pet`,
      });
    }
  }
  return offenders;
}

/** A created pet is the pet sent, with a unique id the service assigns (spec §2, §4.2, §4.3). */
export const createdPetsSection: SpecSection = {
  rows: [
    {
      section: '§2, §4.2, §4.3',
      statement: 'A created pet is the pet sent, with the id assigned on creation',
      oracle:
        'the 201 body, every later getPet and every list entry of that id agree on every spec field; a name accepted is returned exactly as sent; a status shown is the one sent, or one default for every pet sent without',
      inputs: 'every pet the run creates, whichever check created it',
      checks: [
        'errors.created-pets-agree',
        'createPet.created',
        'createPet.without-status',
        'createPet.readable-by-id',
        'getPet.returns-pet',
      ],
    },
    {
      section: '§2, §4.2',
      statement: 'status, when sent, is one of the PetStatus values',
      oracle: 'each value is accepted with 201 and shown as sent (or not shown)',
      inputs: 'available, pending, sold, and no status',
      checks: ['createPet.created', 'createPet.without-status'],
    },
    {
      section: '§2',
      statement: 'The id is unique and assigned by the service',
      oracle: 'no two created pets share an id; an id sent in the body never overwrites a pet',
      inputs: 'the run’s pets; a body carrying an existing pet’s id',
      checks: ['createPet.distinct-ids', 'listPets.unique-ids', 'createPet.id-assigned-by-service'],
    },
    {
      section: '§4.2',
      statement: 'createPet adds a pet',
      oracle:
        'every createPet answered 2xx without an Idempotency-Key shows a pet no answer showed before it was sent; the same NewPet sent twice is two pets (or the repeat refused with a 4xx Error)',
      inputs:
        'every create of the run, whichever check sent it (re-sends in other JSON spellings and media types included); a fresh NewPet sent twice',
      checks: ['createPet.each-create-new'],
    },
  ],
  checks: [
    ...inStage('first', [
      check({
        id: 'createPet.created',
        title: 'answers 201 with the pet as sent plus an id, for every status',
        section: '§4.2, §2',
        async run(ctx) {
          const { byStatus } = await ctx.fixtures.samples();
          for (const status of PET_STATUSES)
            expectCreated(byStatus.get(status), `a "${status}" pet`);
          return pass(`201 with the pet as sent for ${PET_STATUSES.join(', ')}`);
        },
      }),
      check({
        id: 'createPet.without-status',
        title: 'accepts a pet without status (status is optional)',
        section: '§4.2, §2',
        async run(ctx) {
          const { withoutStatus } = await ctx.fixtures.samples();
          expectCreated(withoutStatus, 'a pet without status');
          const status = (withoutStatus?.response.body as { status?: string }).status;
          return pass(
            `201; the server gave status ${status === undefined ? 'none' : `"${status}"`}`,
          );
        },
      }),
      check({
        id: 'createPet.distinct-ids',
        title: 'gives every created pet its own id',
        async run(ctx) {
          await createdSamples(ctx);
          await ctx.fixtures.ensureBulk();
          const { duplicateId, createdIds } = ctx.fixtures;
          if (duplicateId !== undefined) fail(`id ${duplicateId} was assigned to two created pets`);
          return pass(`${createdIds.size} created pets, ${createdIds.size} distinct ids`);
        },
      }),
      check({
        id: 'createPet.readable-by-id',
        title: 'every pet the run created can be fetched by its id, unchanged',
        section: '§4.2, §4.3',
        async run(ctx) {
          await createdSamples(ctx);
          const pets = await readBack(ctx);
          for (const pet of pets) expectReadBack(pet);
          return pass(`${pets.length} created pets read back unchanged`);
        },
      }),
    ]),
    check({
      id: 'createPet.id-assigned-by-service',
      title:
        'never takes an id sent in the body: the service assigns ids, and no pet is overwritten',
      section: '§2, §4.2',
      async run(ctx) {
        const [taken] = await createdSamples(ctx);
        if (taken === undefined) skip('no pet could be created (see createPet.created)');
        const how = `with "id": ${taken.id}, the id of pet ${taken.sent.name}`;
        const res = await ctx.send({
          method: 'POST',
          path: '/pets',
          rawBody: bodyWith(ctx, 'id', taken.id),
        });
        // Refusing the field is as good as ignoring it: `id` is no field of NewPet.
        if (res.status >= 400 && res.status <= 499) {
          expectError(res, res.status, how);
        } else {
          expectStatus(res, 201, how);
          const created = expectPet(res, how);
          if (idOf(created) === taken.id) {
            fail(`${described(res, how)} answered 201 with id ${taken.id}: that pet's id`, res);
          }
        }
        const read = await ctx.send({ method: 'GET', path: `/pets/${taken.id}` });
        expectStatus(read, 200, `for pet ${taken.id}, after a create sent its id`);
        const problem = difference(expectPet(read), sentFields(taken.sent));
        if (problem !== undefined) {
          fail(`${described(read)}: pet ${taken.id} was overwritten: ${problem}`, read);
        }
        return pass(`${described(res, how)} answered ${res.status}; pet ${taken.id} is unchanged`);
      },
    }),
    ...inStage('last', [
      check({
        id: 'createPet.each-create-new',
        title:
          'every create answered 2xx adds a new pet: the same NewPet sent twice is two pets with distinct ids, and no create (in any spelling or media type) answers a pet shown before it was sent (only an Idempotency-Key may replay)',
        section: '§4.2',
        async run(ctx) {
          const sent = ctx.fixtures.nextPet('sold');
          const twice: HttpResponse[] = [];
          for (const how of ['once', 'again']) {
            const res = await ctx.send({
              method: 'POST',
              path: '/pets',
              rawBody: newPetJson(sent),
            });
            if (how === 'again' && res.status >= 400 && res.status <= 499) {
              // A server may refuse a repeat (unique names): what it may not do is replay it.
              expectError(res, res.status, 'for the same NewPet sent again');
              break;
            }
            expectStatus(res, 201, `for a NewPet sent ${how}`);
            const problem = difference(expectPet(res), sentFields(sent));
            if (problem !== undefined) fail(`${described(res)} (sent ${how}): ${problem}`, res);
            twice.push(res);
          }
          const [first, second] = twice.map((r) => idOf(r.body));
          if (second !== undefined && first === second) {
            fail(`the same NewPet sent twice answered 201 with pet ${first} both times`, twice[1]);
          }
          const offenders = replayedCreates(ctx.responses);
          const creates = ctx.responses.filter(isCreated).length;
          return verdict(offenders, `${creates} creates, each a new pet`);
        },
      }),
    ]),
    check({
      id: 'getPet.returns-pet',
      title: 'answers 200 with the requested pet',
      section: '§4.3',
      async run(ctx) {
        const fetched = await fetchTarget(ctx);
        if (fetched === undefined)
          skip('no pet to fetch: none created (read-only) and none listed');
        const { res, target: wanted } = fetched;
        expectStatus(res, 200);
        const pet = expectPet(res);
        const problem =
          idOf(pet) === wanted.id ? difference(pet, wanted.fields) : `it is pet ${idOf(pet)}`;
        if (problem !== undefined) fail(`${described(res)}: ${problem}`, res);
        return pass(`${described(res)} answered 200 with that pet`);
      },
    }),
    check({
      id: 'listPets.unique-ids',
      title: 'never lists the same id twice',
      section: '§2, §4.1',
      async run(ctx) {
        const res = await listAfterData(ctx, `?limit=${LIMIT_MAX}`);
        const seen = new Set<string | undefined>();
        for (const pet of expectPetList(res)) {
          const id = idOf(pet);
          if (seen.has(id)) fail(`${described(res)} lists id ${id} twice`, res);
          seen.add(id);
        }
        return pass(`${seen.size} distinct ids`);
      },
    }),
    check({
      id: 'errors.created-pets-agree',
      title:
        'every pet the run created agrees everywhere it is shown: the 201 body, getPet and each list entry give the name sent, exactly, the categoryId sent and one status, the one it is listed under (when a list can reach it) and no other',
      section: '§2, §4.1, §4.2, §4.3',
      async run(ctx) {
        const model = new PetModel();
        const offenders = (await answers(ctx)).flatMap((res) => {
          const why = model.judge(res);
          return why === undefined ? [] : [{ res, why }];
        });
        return verdict(offenders, `${model.pets.size} created pets followed`);
      },
    }),
  ],
};
