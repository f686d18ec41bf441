// Checks against a pet set the operator loaded (`--fixtures FILE`, printed by
// `animal-store-conformance fixtures`): listing, limits, filters and getPet judged on known data
// without creating anything, for read-only runs against production servers.
import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  PET_STATUSES,
  type PetStatus,
  type SpecPet,
  validateSpecPet,
} from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { SentPet } from '../fixtures.js';
import type { HttpResponse } from '../http/client.js';
import { laterPages } from '../http/pages.js';
import { type KnownPets, statusLimitCheck } from './list-pets.js';
import {
  declarer,
  described,
  difference,
  everyCase,
  expectPet,
  expectPetList,
  expectStatus,
  fail,
  idOf,
  pass,
  type SpecSection,
  sentFields,
  skip,
} from './support.js';

const check = declarer('§4.1');

/** One status's list at `limit=100` and the set's pets found in it, by name. */
interface StatusList {
  readonly status: PetStatus;
  readonly res: HttpResponse;
  readonly pets: readonly SpecPet[];
  /** A full page: more may match, so a set's pet missing from it proves nothing. */
  readonly full: boolean;
  /** The set's pets of this status, each with the listed pet of its name (if any). */
  readonly expected: readonly { readonly sent: SentPet; readonly listed?: SpecPet }[];
}

/** A set's pet as listed: same name and categoryId, and its status unless the server omits it. */
function matches(listed: SpecPet, sent: SentPet): boolean {
  return difference(listed, sentFields(sent)) === undefined;
}

/** A listed pet whose status is another than `status` (a server may omit status). */
function otherStatus(pets: readonly SpecPet[], status: PetStatus): SpecPet | undefined {
  return pets.find((p) => p.status !== undefined && p.status !== status);
}

/** Lists each status once and finds the set's pets in the lists (shared by the checks). */
function statusLists(ctx: CheckContext): Promise<StatusList[]> {
  return ctx.memo('fixture set: status lists', async () => {
    const lists: StatusList[] = [];
    for (const status of PET_STATUSES) {
      const res = await ctx.list(`?status=${status}&limit=${LIMIT_MAX}`);
      const pets = expectPetList(res);
      const wanted = ctx.fixtureSet.filter((sent) => sent.status === status);
      const find = (within: readonly SpecPet[]) => (sent: SentPet) =>
        within.find((p) => matches(p, sent));
      // Past a full first page (other pets before the set's), the server's own next pages.
      const reach = [...pets];
      if (pets.length >= LIMIT_MAX) {
        for await (const page of laterPages(ctx, res)) {
          for (const item of page.items) {
            const checked = validateSpecPet(item);
            if (checked.ok) reach.push(checked.value);
          }
          if (wanted.every((sent) => find(reach)(sent) !== undefined)) break;
        }
      }
      const expected = wanted.map((sent) => ({ sent, listed: find(reach)(sent) }));
      lists.push({ status, res, pets, full: pets.length >= LIMIT_MAX, expected });
    }
    return lists;
  });
}

/** The set's pets the lists show, by id; skips the check when the set is not on the server. */
async function foundPets(ctx: CheckContext): Promise<Map<string, SentPet>> {
  if (ctx.fixtureSet.length === 0) skip('no pet set given (--fixtures FILE)');
  const found = new Map<string, SentPet>();
  for (const list of await statusLists(ctx)) {
    for (const { sent, listed } of list.expected) {
      const id = listed === undefined ? undefined : idOf(listed);
      if (id !== undefined) found.set(id, sent);
    }
  }
  if (found.size === 0) {
    skip(
      `none of the ${ctx.fixtureSet.length} pets of the set is listed: load them first (animal-store-conformance fixtures prints a set)`,
    );
  }
  return found;
}

/** `limit` values judged against the set: the least, a small one, the default and the most. */
const LIMITS = [1, 7, undefined, LIMIT_MAX] as const;
/** The largest `limit` the filter-and-limit check sends. */
const STATUS_LIMIT = 10;

/** The set's pets the lists show. */
const SET_PETS: KnownPets = {
  gather: async (ctx) => {
    await foundPets(ctx);
  },
  count: async (ctx, status) => {
    const list = (await statusLists(ctx)).find((l) => l.status === status);
    return list?.expected.filter((e) => e.listed !== undefined).length ?? 0;
  },
  have: (known, status) => `${known} pets of the set have status "${status}"`,
};

/** Checks run with `--fixtures`: they read the operator's pet set and never write. */
export const petSetSection: SpecSection = {
  rows: [
    {
      section: '§4.1, §4.3',
      statement: 'On a known pet set: filters, limits and getPet (with --fixtures)',
      oracle:
        'the set’s pets listed under their status, exactly limit pets, each fetched as listed',
      inputs: 'the operator’s pet set',
      checks: [
        'listPets.fixtures.status-filter',
        'listPets.fixtures.limits',
        'listPets.fixtures.status-with-limit',
        'getPet.fixtures.by-id',
      ],
    },
  ],
  checks: [
    check({
      id: 'listPets.fixtures.status-filter',
      title:
        'each status filter lists only that status and, on a page shorter than limit=100, every pet of the set with it',
      async run(ctx) {
        await foundPets(ctx);
        const seen: string[] = [];
        for (const list of await statusLists(ctx)) {
          const other = otherStatus(list.pets, list.status);
          if (other !== undefined) {
            fail(
              `${described(list.res)} returned pet ${idOf(other)} with status "${other.status}"`,
              list.res,
            );
          }
          // A full page may leave out any match (the spec has no order): judge short pages only.
          if (!list.full) {
            const missing = list.expected.find((e) => e.listed === undefined);
            if (missing !== undefined) {
              fail(
                `${described(list.res)} returned ${list.pets.length} pets, fewer than limit, yet not the set's pet named ${JSON.stringify(missing.sent.name)} (status ${list.status})`,
                list.res,
              );
            }
          }
          const found = list.expected.filter((e) => e.listed !== undefined).length;
          seen.push(
            `${list.status}: ${found} of ${list.expected.length}${list.full ? ' (full page)' : ''}`,
          );
        }
        return pass(`the set's pets listed under their status: ${seen.join(', ')}`);
      },
    }),
    check({
      id: 'listPets.fixtures.limits',
      title: `limit=1, 7, none (${LIMIT_DEFAULT}) and ${LIMIT_MAX} give exactly that many pets while the set's pets outnumber them`,
      section: '§4.1, §8',
      async run(ctx) {
        const known = (await foundPets(ctx)).size;
        const judged: string[] = [];
        await everyCase(ctx, LIMITS, async (limit) => {
          const want = limit ?? LIMIT_DEFAULT;
          if (want > known) return;
          const res = await ctx.list(limit === undefined ? '' : `?limit=${limit}`);
          const n = expectPetList(res).length;
          if (n !== want) {
            fail(
              `${described(res)} returned ${n} pets, expected ${want}: at least ${known} pets of the set are listed`,
              res,
            );
          }
          judged.push(`${limit ?? 'none'}: ${n}`);
        });
        // limit=1 is always judged: `foundPets` has skipped a set with no pet listed.
        return pass(`limit ${judged.join(', ')}`);
      },
    }),
    statusLimitCheck({
      id: 'listPets.fixtures.status-with-limit',
      title: `each status filter with a limit below the set's pets of that status gives exactly limit pets of it`,
      known: SET_PETS,
      limits: (known) => (known === 0 ? [] : [Math.min(known, STATUS_LIMIT)]),
      judgesFilter: true,
      needsEvidence: true,
    }),
    check({
      id: 'getPet.fixtures.by-id',
      title: "answers 200 with the set's pet for ids the lists gave, per status",
      section: '§4.3',
      async run(ctx) {
        const found = await foundPets(ctx);
        // A few per status: enough to see a server that answers another pet, or none.
        const perStatus = new Map<string | undefined, number>();
        let fetched = 0;
        for (const [id, sent] of found) {
          const count = perStatus.get(sent.status) ?? 0;
          if (count >= 3) continue;
          perStatus.set(sent.status, count + 1);
          const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
          expectStatus(res, 200);
          const pet = expectPet(res);
          const problem =
            idOf(pet) === id ? difference(pet, sentFields(sent)) : `it is pet ${idOf(pet)}`;
          if (problem !== undefined) fail(`${described(res)}: ${problem}`, res);
          fetched += 1;
        }
        return pass(`${fetched} pets of the set fetched by id, each as listed`);
      },
    }),
  ],
};
