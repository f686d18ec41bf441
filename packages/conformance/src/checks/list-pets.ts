import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PET_STATUSES,
  type PetStatus,
  type SpecPet,
} from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import { linkTargets } from '../http/link.js';
import { laterPages } from '../http/pages.js';
import { routeOf } from '../oracles.js';
import type { Check } from '../types.js';
import { missingPetsCause } from './read-back.js';
import {
  check,
  described,
  errorBodyProblem,
  expectError,
  expectPetList,
  fail,
  idOf,
  pass,
  skip,
} from './support.js';

/** Values of `limit` outside 1..100 that the kit sends. */
const OUT_OF_RANGE_LIMITS = [
  String(LIMIT_MIN - 1),
  String(LIMIT_MAX + 1),
  '-1',
  'abc',
  '1.5',
  '',
  `${LIMIT_MIN - 1}&status=sold`,
];

/** Limits above the maximum: one past it, and one far beyond. */
const ABOVE_MAX_LIMITS = [String(LIMIT_MAX + 1), String(LIMIT_MAX * 10)];

/** Lists once the data exists: every listPets check sees the same pets. */
async function listAfterData(ctx: CheckContext, query: string): Promise<HttpResponse> {
  await ctx.fixtures.ensureBulk();
  return ctx.list(query);
}

function statusQuery(status: PetStatus): string {
  return `?status=${status}&limit=${LIMIT_MAX}`;
}

function countPets(n: number): string {
  return `${n} pet${n === 1 ? '' : 's'}`;
}

/** `message`, and when the kit's pets are fewer than it meant to create, why (a root cause). */
async function withCause(ctx: CheckContext, message: string): Promise<string> {
  const cause = await missingPetsCause(ctx);
  return cause === undefined ? message : `${message} (${cause})`;
}

/** True when some list answer of the run pointed at a next page (`Link rel="next"`). */
export function offersNextPages(ctx: CheckContext): boolean {
  return ctx.responses.some(
    (r) => routeOf(r).op === 'listPets' && linkTargets(r.headers.get('link'), 'next').length > 0,
  );
}

/**
 * True when `res`, a list of `n` pets, holds every match the store has: the store held none
 * before the run and the list is as long as every pet the run created, or the server points at
 * next pages and this list has none.
 */
export function wholeStore(ctx: CheckContext, n: number, res: HttpResponse): boolean {
  const created = ctx.fixtures.createdIds.size;
  if (ctx.fixtures.emptyAtStart === true && created > 0 && n >= created) return true;
  return offersNextPages(ctx) && linkTargets(res.headers.get('link'), 'next').length === 0;
}

/** Checks one `limit` value: at most `limit` items, and exactly `limit` when more exist. */
function limitCheck(limit: number, query: string, id: string, title: string): Check {
  return check({
    id,
    title,
    section: '§4.1, §8',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const res = await listAfterData(ctx, query);
      const n = expectPetList(res).length;
      const known = ctx.fixtures.knownAtLeast;
      if (n > limit) fail(`${described(res)} returned ${countPets(n)}, more than ${limit}`);
      if (n < limit && known > n) {
        fail(
          await withCause(
            ctx,
            `${described(res)} returned ${countPets(n)} although at least ${known} exist`,
          ),
        );
      }
      // Every pet there is, while every write of the run stands (else the cause is named below).
      if (n < limit && (await missingPetsCause(ctx)) === undefined && wholeStore(ctx, n, res)) {
        return pass(
          `${described(res)} returned ${countPets(n)}, every pet there is (${ctx.fixtures.emptyAtStart ? 'the store held none before the run' : 'no next page'})`,
        );
      }
      if (n < limit) {
        const why =
          (await missingPetsCause(ctx)) ??
          `only ${known} known to exist${ctx.readOnly ? ' (read-only: the kit created none)' : ''}`;
        skip(`${described(res)} returned ${countPets(n)}; ${why}, so ${limit} cannot be judged`);
      }
      return pass(`${described(res)} returned ${countPets(n)} of at least ${known}`);
    },
  });
}

function statusFilterChecks(status: PetStatus): Check[] {
  return [
    check({
      id: `listPets.status-filter.${status}`,
      title: `status=${status} returns only pets with status "${status}"`,
      section: '§4.1',
      level: 'must',
      group: 'listPets',
      writes: false,
      async run(ctx) {
        const res = await listAfterData(ctx, statusQuery(status));
        const pets = expectPetList(res);
        for (const pet of pets) {
          const id = idOf(pet);
          if (pet.status !== undefined && pet.status !== status) {
            fail(`${described(res)} returned pet ${id} with status "${pet.status}"`);
          }
          const sent = id === undefined ? undefined : ctx.fixtures.sentById.get(id);
          if (sent?.status !== undefined && sent.status !== status) {
            fail(`${described(res)} returned pet ${id}, created by this run as "${sent.status}"`);
          }
        }
        const bare = pets.filter((pet) => pet.status === undefined).length;
        return pass(
          `${countPets(pets.length)}, none with another status${bare > 0 ? ` (${bare} without status)` : ''}`,
        );
      },
    }),
    check({
      id: `listPets.status-filter.${status}.includes-created`,
      title: `status=${status} includes the pets this run created with status "${status}"`,
      section: '§4.1, §4.2',
      level: 'must',
      group: 'listPets',
      writes: true,
      async run(ctx) {
        const res = await listAfterData(ctx, statusQuery(status));
        const created = [...ctx.fixtures.sentById]
          .filter(([, sent]) => sent.status === status)
          .map(([id]) => id);
        if (created.length === 0) skip(`no pet with status "${status}" could be created`);
        const pets = expectPetList(res);
        const listed = new Set(pets.map(idOf));
        const missing = created.filter((id) => !listed.has(id));
        if (missing.length === 0) {
          return pass(`all ${created.length} pets created as "${status}" are listed`);
        }
        if (pets.length >= LIMIT_MAX) {
          // Beyond a full page: the server's own next pages, when it offers them.
          const left = new Set(missing);
          let pages = 1;
          for await (const page of laterPages(ctx, res)) {
            pages += 1;
            for (const pet of page.items) left.delete(idOf(pet) ?? '');
            if (left.size === 0) {
              return pass(
                `all ${created.length} pets created as "${status}" are listed, over ${pages} pages (Link rel="next")`,
              );
            }
          }
          const [first] = left;
          skip(
            pages === 1
              ? `${described(res)} is a full page with no next-page Link; pet ${first} may lie beyond it (the spec has no paging)`
              : `pet ${first} is on none of ${pages} pages followed from ${described(res)} by Link rel="next"`,
          );
        }
        fail(
          await withCause(
            ctx,
            `${described(res)} returned ${countPets(pets.length)} but not pet ${missing[0]}, created as "${status}"${
              missing.length > 1 ? ` (${missing.length} missing)` : ''
            }`,
          ),
        );
      },
    }),
  ];
}

/**
 * How many pets are known to have `status`: the ones this run created so, or what the list of
 * that status at `limit=100` shows, whichever is more.
 */
export async function knownWithStatus(ctx: CheckContext, status: PetStatus): Promise<number> {
  const created = [...ctx.fixtures.sentById.values()].filter((p) => p.status === status);
  const all = expectPetList(await ctx.list(statusQuery(status)));
  return Math.max(created.length, all.filter((p) => p.status === status).length);
}

/** `status` combined with small limits: the filter and the limit both hold at once. */
const STATUS_LIMITS = [1, 2, LIMIT_MAX] as const;

export { countPets, listAfterData, withCause };

/** `listPets` (spec §4.1, §8). */
export const listPetsChecks: readonly Check[] = [
  check({
    id: 'listPets.returns-pet-array',
    title: 'answers 200 with a JSON array of valid Pets',
    section: '§4.1, §2',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const res = await listAfterData(ctx, '');
      const pets = expectPetList(res);
      return pass(`${described(res)} answered 200 with ${countPets(pets.length)}`);
    },
  }),
  check({
    id: 'listPets.unique-ids',
    title: 'never lists the same id twice',
    section: '§2, §4.1',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const res = await listAfterData(ctx, `?limit=${LIMIT_MAX}`);
      const seen = new Set<string | undefined>();
      for (const pet of expectPetList(res)) {
        const id = idOf(pet);
        if (seen.has(id)) fail(`${described(res)} lists id ${id} twice`);
        seen.add(id);
      }
      return pass(`${seen.size} distinct ids`);
    },
  }),
  limitCheck(
    LIMIT_DEFAULT,
    '',
    'listPets.default-limit',
    `without limit returns at most ${LIMIT_DEFAULT} pets, and exactly ${LIMIT_DEFAULT} when more exist`,
  ),
  limitCheck(
    LIMIT_MIN,
    `?limit=${LIMIT_MIN}`,
    'listPets.limit-1',
    `limit=${LIMIT_MIN} returns exactly one pet`,
  ),
  limitCheck(
    LIMIT_MAX,
    `?limit=${LIMIT_MAX}`,
    'listPets.limit-100',
    `limit=${LIMIT_MAX} returns exactly ${LIMIT_MAX} pets when more exist`,
  ),
  ...PET_STATUSES.flatMap(statusFilterChecks),
  check({
    id: 'listPets.one-status-per-pet',
    title:
      'lists each pet this run created under one status filter at most (a pet has one status), a pet created without status too',
    section: '§2, §3, §4.1',
    level: 'must',
    group: 'listPets',
    writes: true,
    async run(ctx) {
      await ctx.fixtures.ensureBulk();
      const { createdIds } = ctx.fixtures;
      if (createdIds.size === 0) skip('no pet could be created (see createPet.created)');
      // Only the run's own pets: another client may change others' status between two lists.
      const seenUnder = new Map<string, PetStatus>();
      for (const status of PET_STATUSES) {
        const res = await ctx.list(statusQuery(status));
        for (const pet of expectPetList(res)) {
          const id = idOf(pet);
          if (id === undefined || !createdIds.has(id)) continue;
          const earlier = seenUnder.get(id);
          if (earlier !== undefined) {
            const sent = ctx.fixtures.sentById.get(id);
            const as =
              sent?.status === undefined ? 'created without status' : `created as "${sent.status}"`;
            fail(`pet ${id} (${as}) is listed under status=${earlier} and status=${status}`, res);
          }
          seenUnder.set(id, status);
        }
      }
      return pass(`${seenUnder.size} of the run's pets listed, each under one status`);
    },
  }),
  check({
    id: 'listPets.status-with-limit',
    title: `each status filter with limit=${STATUS_LIMITS.join(' and limit=')}: only that status, at most limit pets, exactly limit when more exist`,
    section: '§4.1, §8',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      await ctx.fixtures.ensureBulk();
      const seen: string[] = [];
      for (const status of PET_STATUSES) {
        const known = await knownWithStatus(ctx, status);
        for (const limit of STATUS_LIMITS) {
          const res = await ctx.list(`?status=${status}&limit=${limit}`);
          const pets = expectPetList(res);
          if (pets.length > limit) {
            fail(`${described(res)} returned ${countPets(pets.length)}, more than ${limit}`, res);
          }
          const other = pets.find((p) => p.status !== undefined && p.status !== status);
          if (other !== undefined) {
            fail(
              `${described(res)} returned pet ${idOf(other)} with status "${other.status}"`,
              res,
            );
          }
          if (pets.length < limit && known > pets.length) {
            fail(
              await withCause(
                ctx,
                `${described(res)} returned ${countPets(pets.length)} although at least ${known} have status "${status}"`,
              ),
              res,
            );
          }
          seen.push(`${status}&limit=${limit}: ${pets.length}`);
        }
      }
      return pass(seen.join(', '));
    },
  }),
  check({
    id: 'listPets.limit-out-of-range',
    title: `answers a limit outside ${LIMIT_MIN}..${LIMIT_MAX} without a server error: an Error or a Pet array`,
    section: '§4.1, §8',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const seen: string[] = [];
      for (const value of OUT_OF_RANGE_LIMITS) {
        const res = await listAfterData(ctx, `?limit=${value}`);
        if (res.status >= 400 && res.status <= 499) {
          const problem = errorBodyProblem(res);
          if (problem !== undefined) fail(`${described(res)} answered ${res.status}: ${problem}`);
        } else if (res.status === 200) {
          expectPetList(res);
        } else {
          fail(`${described(res)} answered ${res.status}`);
        }
        seen.push(`limit=${value}: ${res.status}`);
      }
      return pass(seen.join(', '));
    },
  }),
  check({
    id: 'listPets.limit-out-of-range-rejected',
    title: `rejects a limit outside ${LIMIT_MIN}..${LIMIT_MAX} with 400 and an Error (the spec leaves it open)`,
    section: '§8',
    rule: 'the reference: a bound the caller broke is named, not silently changed',
    level: 'should',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      for (const value of OUT_OF_RANGE_LIMITS) {
        const res = await listAfterData(ctx, `?limit=${value}`);
        if (res.status === 200 && Array.isArray(res.body)) {
          fail(
            `${described(res)} answered 200 with ${countPets(res.body.length)}; 400 is recommended`,
          );
        }
        expectError(res, 400);
      }
      return pass(`400 with an Error for limit=${OUT_OF_RANGE_LIMITS.join(', ')}`);
    },
  }),
  check({
    id: 'listPets.limit-above-max-capped',
    title: `never returns more than ${LIMIT_MAX} pets, whatever limit asks for`,
    section: '§4.1, §8',
    rule: `the spec's maximum of ${LIMIT_MAX}: a server that accepts a larger limit still caps the page`,
    level: 'should',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const seen: string[] = [];
      for (const limit of ABOVE_MAX_LIMITS) {
        const res = await listAfterData(ctx, `?limit=${limit}`);
        if (res.status === 200 && Array.isArray(res.body) && res.body.length > LIMIT_MAX) {
          fail(`${described(res)} returned ${countPets(res.body.length)}`, res);
        }
        seen.push(`limit=${limit}: ${res.status}`);
      }
      return pass(seen.join(', '));
    },
  }),
  check({
    id: 'listPets.unknown-status-rejected',
    title: 'rejects an unknown status filter with 400 and an Error (the spec leaves it open)',
    section: '§4.1',
    rule: 'the reference: an unknown filter value is an error, not an empty match',
    level: 'should',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const res = await listAfterData(ctx, '?status=lost');
      if (res.status === 200 && Array.isArray(res.body)) {
        fail(
          `${described(res)} answered 200 with ${countPets(res.body.length)}; 400 is recommended`,
        );
      }
      expectError(res, 400);
      return pass(`${described(res)} answered 400 with an Error`);
    },
  }),
  check({
    id: 'listPets.next-link',
    title: 'points at the next page with Link rel="next" when more pets exist (RFC 8288)',
    section: '§4.1',
    rule: 'RFC 8288 §3.3 (rel="next")',
    level: 'should',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const res = await listAfterData(ctx, `?limit=${LIMIT_MIN}`);
      const first = expectPetList(res);
      if (ctx.fixtures.knownAtLeast <= first.length) skip('no more pets than one page');
      const [target] = linkTargets(res.headers.get('link'), 'next');
      if (target === undefined)
        fail(`${described(res)} has no Link rel="next" although more pets exist`);
      const next = new URL(target, res.url);
      // The key goes only where the kit was told to send it.
      if (next.origin !== new URL(res.url).origin) fail(`the next link points at ${next.origin}`);
      const page = await ctx.send({ method: 'GET', path: next.href });
      const second = expectPetList(page, '(the next link)');
      const repeated = second.find((pet: SpecPet) => first.some((p) => idOf(p) === idOf(pet)));
      if (repeated !== undefined) fail(`the next page repeats pet ${idOf(repeated)}`);
      return pass(`Link rel="next" leads to ${countPets(second.length)} more`);
    },
  }),
];
