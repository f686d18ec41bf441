// listPets (spec §4.1, §8): the status filter, limit and its bounds, and the headers a client
// adds to a read. The checks of exactly `limit` pets of a status take their known pets from the
// run or from the operator's pet set (src/sections/pet-set.ts).
import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PET_STATUSES,
  type PetStatus,
  type SpecPet,
} from '@animal-store/contract';
import { headerNames, ordinaryHeaders } from '../cases/headers.js';
import { integerSpellings, integerSpellingsInWords } from '../cases/integer-spellings.js';
import type { CheckContext } from '../context.js';
import { FILL_NAME_LENGTHS, STORE_TARGET } from '../fixtures.js';
import type { HttpResponse } from '../http/client.js';
import { linkTargets } from '../http/link.js';
import { laterPages, nextPageUrl, unfollowedNextPage } from '../http/pages.js';
import { routeOf, strictJsonProblem } from '../oracles.js';
import { plural } from '../plural.js';
import type { Verdict } from '../types.js';
import { createdSamples, missingPetsCause } from './read-back.js';
import {
  type DeclaredCheck,
  declarer,
  described,
  errorBodyProblem,
  everyCase,
  expectError,
  expectPet,
  expectPetList,
  expectStatus,
  fail,
  idOf,
  inStage,
  notApplicable,
  pass,
  type SpecSection,
  skip,
} from './support.js';

const check = declarer('§4.1');

/** A limit within 1..100 that the kit also spells as no integer. */
const SPELLED_LIMIT = 10;

/**
 * Values of `limit` the spec shows no answer for that the kit sends: outside 1..100, and no
 * integer at all, among them `SPELLED_LIMIT` as lenient readers take it (`10abc`, `0xa`, `1_0`,
 * `١٠`, ...).
 */
const OUT_OF_RANGE_LIMITS = [
  String(LIMIT_MIN - 1),
  String(LIMIT_MAX + 1),
  '-1',
  'abc',
  '1.5',
  '',
  // A digit that is no decimal digit: Python's str.isdigit() takes it, int() does not.
  '%C2%B2',
  `${LIMIT_MIN - 1}&status=sold`,
  ...integerSpellings(String(SPELLED_LIMIT)),
];

/**
 * Queries that give a parameter twice, which the spec does not show (each is one value): two
 * limits in both orders (a reader takes the first or the last), and two statuses.
 */
const REPEATED_LIMITS = ['limit=3&limit=5', 'limit=5&limit=3'];
const REPEATED_PARAMETERS = [...REPEATED_LIMITS, 'status=available&status=sold'];

/** Limits above the maximum: one past it, and one far beyond. */
const ABOVE_MAX_LIMITS = [String(LIMIT_MAX + 1), String(LIMIT_MAX * 10)];

/**
 * ASCII `text` with every character percent-encoded (RFC 3986 §2.1), its hexadecimal digits in
 * upper or lower case: the same text to every reader of a query, which decodes before it reads.
 */
function percentEncoded(text: string, hexCase: 'upper' | 'lower'): string {
  return [...text]
    .map((char) => {
      const hex = `%${(char.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`;
      return hexCase === 'upper' ? hex.toUpperCase() : hex;
    })
    .join('');
}

/** The limit that the percent-encoded queries ask for, and the status they filter by. */
const ENCODED_LIMIT = 10;
const ENCODED_STATUS: PetStatus = 'sold';

/** `limit=10` with its value, then its name, percent-encoded. */
const ENCODED_LIMIT_QUERIES = [
  `limit=${percentEncoded(String(ENCODED_LIMIT), 'upper')}`,
  `${percentEncoded('limit', 'upper')}=${ENCODED_LIMIT}`,
];

/** `status=sold` with its value percent-encoded in lower-case hexadecimal. */
const ENCODED_STATUS_QUERY = `status=${percentEncoded(ENCODED_STATUS, 'lower')}&limit=${LIMIT_MAX}`;

/** Status filter values outside the enumeration: empty, other letter case, padded, unknown. */
const STATUS_FILTER_BOUNDARIES = [
  '',
  'AVAILABLE',
  'Sold',
  '%20pending',
  'pending%20',
  'lost',
] as const;

/**
 * The pets of `res` when it is 200 with a Pet array, undefined when it is a 4xx Error; fails on
 * anything else: the answers a list query the spec does not show may get.
 */
function errorOrPetList(res: HttpResponse): unknown[] | undefined {
  if (res.status === 200) return expectPetList(res);
  if (res.status < 400 || res.status > 499) fail(`${described(res)} answered ${res.status}`, res);
  const problem = errorBodyProblem(res);
  if (problem !== undefined) fail(`${described(res)} answered ${res.status}: ${problem}`, res);
  return undefined;
}

/** Fails when `pets`, the list `res` answered with, shows a pet of another status than `status`. */
function expectOnlyStatus(res: HttpResponse, pets: readonly SpecPet[], status: PetStatus): void {
  const other = pets.find((p) => p.status !== undefined && p.status !== status);
  if (other !== undefined) {
    fail(`${described(res)} returned pet ${idOf(other)} with status "${other.status}"`, res);
  }
}

/** Fails unless `res` is 400 with an Error, naming the pets a 200 list gave instead. */
function expectRefusedWith400(res: HttpResponse): void {
  if (res.status === 200 && Array.isArray(res.body)) {
    fail(
      `${described(res)} answered 200 with ${countPets(res.body.length)}; 400 is recommended`,
      res,
    );
  }
  expectError(res, 400);
}

/**
 * A pet is listed when some list holds it, and not listed when a list that is no full page lacks
 * it. When every list is a full page, the server's own next pages are followed (`laterPages`): a
 * string says why it cannot be told, as the spec has no paging.
 */
async function listedIn(
  ctx: CheckContext,
  id: string,
  queries: readonly string[],
): Promise<boolean | string> {
  let complete = false;
  for (const query of queries) {
    const res = await ctx.list(query);
    const pets = expectPetList(res);
    if (pets.some((pet) => idOf(pet) === id)) return true;
    if (pets.length < LIMIT_MAX) complete = true;
  }
  if (complete) return false;
  // Every first page was full: the server's own next pages, when it offers them.
  let pages = 0;
  let outside: string | undefined;
  for (const query of queries) {
    const first = await ctx.list(query);
    outside ??= unfollowedNextPage(first, ctx.baseUrl);
    for await (const page of laterPages(ctx, first)) {
      pages += 1;
      if (page.items.some((pet) => idOf(pet) === id)) return true;
    }
  }
  if (pages > 0) {
    return `pet ${id} is on none of the full first pages nor on the ${plural(pages, 'later page')} their Link rel="next" led to`;
  }
  return outside === undefined
    ? `the lists that would show pet ${id} are full pages with no next-page Link`
    : `the lists that would show pet ${id} are full pages whose next-page Links lie outside the base URL (${outside}), where the kit sends no key`;
}

/** Lists once the data exists: every listPets check sees the same pets. */
export async function listAfterData(ctx: CheckContext, query: string): Promise<HttpResponse> {
  await ctx.fixtures.ensureBulk();
  return ctx.list(query);
}

function statusQuery(status: PetStatus): string {
  return `?status=${status}&limit=${LIMIT_MAX}`;
}

export function countPets(n: number): string {
  return plural(n, 'pet');
}

/** `message`, and when the kit's pets are fewer than it meant to create, why (a root cause). */
async function withCause(ctx: CheckContext, message: string): Promise<string> {
  const cause = await missingPetsCause(ctx);
  return cause === undefined ? message : `${message} (${cause})`;
}

/** True when some list answer of the run pointed at a next page (`Link rel="next"`). */
function offersNextPages(ctx: CheckContext): boolean {
  return ctx.responses.some(
    (r) => routeOf(r).op === 'listPets' && linkTargets(r.headers.get('link'), 'next').length > 0,
  );
}

/**
 * True when `res`, a list of `n` pets, holds every match the store has: the store held none
 * before the run and the list is as long as every pet the run created, or the server points at
 * next pages and this list has none.
 */
function wholeStore(ctx: CheckContext, n: number, res: HttpResponse): boolean {
  const created = ctx.fixtures.createdIds.size;
  if (ctx.fixtures.emptyAtStart === true && created > 0 && n >= created) return true;
  return offersNextPages(ctx) && linkTargets(res.headers.get('link'), 'next').length === 0;
}

/**
 * Judges one answer to `limit`: fails with more than `limit` pets, or fewer while more are known
 * to exist. Returns how many it held when that is `limit`, or why the limit cannot be judged: a
 * store the kit could not bring to `STORE_TARGET` pets, more than any limit, is the only one where
 * fewer than `limit` pets is no failure.
 */
async function judgeLimit(
  ctx: CheckContext,
  limit: number,
  res: HttpResponse,
): Promise<{ n: number } | { cannot: string }> {
  const n = expectPetList(res).length;
  const known = ctx.fixtures.knownAtLeast;
  if (n > limit) fail(`${described(res)} returned ${countPets(n)}, more than ${limit}`, res);
  if (n < limit && known > n) {
    fail(
      await withCause(
        ctx,
        `${described(res)} returned ${countPets(n)} although at least ${known} exist`,
      ),
      res,
    );
  }
  if (n === limit) return { n };
  const why =
    (await missingPetsCause(ctx)) ??
    ctx.fixtures.shortOfTarget ??
    `only ${known} known to exist${ctx.readOnly ? ' (read-only: the kit created none)' : ''}`;
  return {
    cannot: `${described(res)} returned ${countPets(n)}; ${why}, so ${limit} cannot be judged`,
  };
}

/** Checks one `limit` value: at most `limit` items, and exactly `limit` when more exist. */
function limitCheck(limit: number, query: string, id: string, title: string): DeclaredCheck {
  return check({
    id,
    title,
    section: '§4.1, §8',
    async run(ctx) {
      const res = await listAfterData(ctx, query);
      const judged = await judgeLimit(ctx, limit, res);
      if ('cannot' in judged) skip(judged.cannot);
      return pass(
        `${described(res)} returned ${countPets(judged.n)} of at least ${ctx.fixtures.knownAtLeast}`,
      );
    },
  });
}

/** Every limit from 1 to 100, each judged like `limitCheck`'s. */
const everyLimitCheck = check({
  id: 'listPets.every-limit',
  title: `each limit from ${LIMIT_MIN} to ${LIMIT_MAX} returns at most that many pets, and exactly that many when more exist`,
  section: '§4.1, §8',
  async run(ctx) {
    await ctx.fixtures.ensureBulk();
    const cannot: string[] = [];
    const limits = Array.from({ length: LIMIT_MAX - LIMIT_MIN + 1 }, (_, i) => LIMIT_MIN + i);
    await everyCase(ctx, limits, async (limit) => {
      const judged = await judgeLimit(ctx, limit, await ctx.list(`?limit=${limit}`));
      if ('cannot' in judged) cannot.push(judged.cannot);
    });
    const [first] = cannot;
    if (first !== undefined) {
      skip(`${cannot.length} limits could not be judged, the first: ${first}`);
    }
    return pass(
      `limits ${LIMIT_MIN} to ${LIMIT_MAX} each gave exactly that many pets (at least ${ctx.fixtures.knownAtLeast} exist)`,
    );
  },
});

/** The size a list answer of the run must exceed, so that long answers are read whole. */
export const LARGE_ANSWER_BYTES = 16 * 1024;

/**
 * A list answer above `LARGE_ANSWER_BYTES`, read whole: strict JSON to its last byte, every item
 * a Pet, every pet of the run in it as sent. The pets that fill the store carry the longest names
 * the server takes, so such an answer exists on every run where the server takes long names.
 */
const largeAnswerCheck = check({
  id: 'listPets.large-answer',
  title: `answers a list above ${LARGE_ANSWER_BYTES / 1024} KiB whole: strict JSON to the last byte, every pet as created`,
  section: '§1, §4.1',
  async run(ctx) {
    await ctx.fixtures.ensureBulk();
    await ctx.list(`?limit=${LIMIT_MAX}`);
    for (const status of PET_STATUSES) await ctx.list(statusQuery(status));
    const large = ctx.responses.filter(
      (r) =>
        routeOf(r).op === 'listPets' &&
        r.status === 200 &&
        (r.bytes?.length ?? 0) > LARGE_ANSWER_BYTES,
    );
    const [first] = large;
    if (first === undefined) {
      const { filled, longNamesRefused } = ctx.fixtures;
      const why =
        filled > 0
          ? 'the lists show other pets than the long-named ones the kit filled the store with'
          : longNamesRefused
            ? `the server took none of the long names (${FILL_NAME_LENGTHS.join(' or ')} letters) the kit fills a store with, and the spec sets no limit on names`
            : `the store held ${STORE_TARGET} pets or more already (or --max-pets left none to create), so the kit filled it with none of its long-named pets`;
      notApplicable(`no list answer of the run reached ${LARGE_ANSWER_BYTES} bytes: ${why}`);
    }
    for (const res of large) {
      const problem = strictJsonProblem(res.bytes as Uint8Array);
      if (problem !== undefined)
        fail(`${described(res)} (${res.bytes?.length} bytes): ${problem}`, res);
      for (const pet of expectPetList(res)) {
        const id = idOf(pet);
        const sent = id === undefined ? undefined : ctx.fixtures.sentById.get(id);
        if (sent !== undefined && pet.name !== sent.name) {
          fail(
            `${described(res)} (${res.bytes?.length} bytes) has pet ${id} named ${JSON.stringify(pet.name)}, sent ${JSON.stringify(sent.name)}`,
            res,
          );
        }
      }
    }
    const largest = Math.max(...large.map((r) => r.bytes?.length ?? 0));
    return pass(
      `${large.length} list answers above ${LARGE_ANSWER_BYTES} bytes (the largest ${largest}) read whole, every pet of the run as created`,
    );
  },
});

function statusFilterChecks(status: PetStatus): DeclaredCheck[] {
  return [
    check({
      id: `listPets.status-filter.${status}`,
      title: `status=${status} returns only pets with status "${status}"`,
      async run(ctx) {
        const res = await listAfterData(ctx, statusQuery(status));
        const pets = expectPetList(res);
        for (const pet of pets) {
          const id = idOf(pet);
          if (pet.status !== undefined && pet.status !== status) {
            fail(`${described(res)} returned pet ${id} with status "${pet.status}"`, res);
          }
          const sent = id === undefined ? undefined : ctx.fixtures.sentById.get(id);
          if (sent?.status !== undefined && sent.status !== status) {
            fail(
              `${described(res)} returned pet ${id}, created by this run as "${sent.status}"`,
              res,
            );
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
          const outside = unfollowedNextPage(res, ctx.baseUrl);
          skip(
            pages > 1
              ? `pet ${first} is on none of ${pages} pages followed from ${described(res)} by Link rel="next"`
              : outside === undefined
                ? `${described(res)} is a full page with no next-page Link; pet ${first} may lie beyond it (the spec has no paging)`
                : `${described(res)} is a full page whose next-page Link, ${outside}, lies outside the base URL, where the kit sends no key; pet ${first} may lie beyond it`,
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
async function knownWithStatus(ctx: CheckContext, status: PetStatus): Promise<number> {
  const created = [...ctx.fixtures.sentById.values()].filter((p) => p.status === status);
  const all = expectPetList(await ctx.list(statusQuery(status)));
  return Math.max(created.length, all.filter((p) => p.status === status).length);
}

/** Where a check learns how many pets have a status: the run's pets, or the operator's set. */
export interface KnownPets {
  /** Makes the pets known (creates the run's, finds the set's); may skip the check. */
  gather(ctx: CheckContext): Promise<void>;
  /** How many pets are known to have `status`. */
  count(ctx: CheckContext, status: PetStatus): Promise<number>;
  /** How a message says that `known` pets have `status`. */
  have(known: number, status: PetStatus): string;
}

/** The pets the run created, and what the lists show besides. */
const RUN_PETS: KnownPets = {
  gather: (ctx) => ctx.fixtures.ensureBulk(),
  count: knownWithStatus,
  have: (known, status) => `at least ${known} have status "${status}"`,
};

/** A check that each status filter gives exactly `limit` pets of it when more are known. */
export interface StatusLimitCheck {
  readonly id: string;
  readonly title: string;
  readonly known: KnownPets;
  /** The limits sent with each status (undefined: none, so the default), from how many it has. */
  limits(known: number): readonly (number | undefined)[];
  /** A listed pet of another status fails it (else the status filter's checks judge that). */
  readonly judgesFilter: boolean;
  /** It skips when no page could show the limit at work (too few pets of every status). */
  readonly needsEvidence: boolean;
}

/**
 * Each status filter with each limit: never more than the limit, and exactly the limit when more
 * pets are known to have the status. One check, whichever source the known pets come from.
 */
export function statusLimitCheck(def: StatusLimitCheck): DeclaredCheck {
  return check({
    id: def.id,
    title: def.title,
    section: '§4.1, §8',
    async run(ctx) {
      await def.known.gather(ctx);
      const seen: string[] = [];
      let judged = 0;
      const cases: { status: PetStatus; known: number; limit: number | undefined }[] = [];
      for (const status of PET_STATUSES) {
        const known = await def.known.count(ctx, status);
        for (const limit of def.limits(known)) cases.push({ status, known, limit });
      }
      await everyCase(ctx, cases, async ({ status, known, limit }) => {
        const query = `status=${status}${limit === undefined ? '' : `&limit=${limit}`}`;
        const want = limit ?? LIMIT_DEFAULT;
        const res = await ctx.list(`?${query}`);
        const pets = expectPetList(res);
        const n = pets.length;
        if (n > want) fail(`${described(res)} returned ${countPets(n)}, more than ${want}`, res);
        if (def.judgesFilter) expectOnlyStatus(res, pets, status);
        if (n < want && known > n) {
          fail(
            await withCause(
              ctx,
              `${described(res)} returned ${countPets(n)} although ${def.known.have(known, status)}`,
            ),
            res,
          );
        }
        // Exactly the limit, or fewer while more are known: either shows the limit at work.
        // On a store that held nothing before the run, a short list is every pet of the status.
        if (known >= want || n === want || (n === known && wholeStore(ctx, n, res))) judged += 1;
        seen.push(`${query.slice('status='.length)}: ${n}`);
      });
      if (def.needsEvidence && judged === 0) {
        skip('no status has pets enough to show the limit at work');
      }
      return pass(seen.join(', '));
    },
  });
}

/** `status` combined with small limits: the filter and the limit both hold at once. */
const STATUS_LIMITS = [1, 2, LIMIT_MAX] as const;

/**
 * Lists with `names`, none of them `limit`, each set to the smallest limit: each answer is a list
 * as without limit (`LIMIT_DEFAULT` pets, fewer only when they are every match) or a 4xx Error.
 */
async function limitNotGiven(ctx: CheckContext, names: readonly string[]): Promise<Verdict> {
  const seen: string[] = [];
  await everyCase(ctx, names, async (name) => {
    const res = await listAfterData(ctx, `?${encodeURIComponent(name)}=${LIMIT_MIN}`);
    if (res.status >= 400 && res.status <= 499) {
      expectError(res, res.status);
      seen.push(`${name}: ${res.status}`);
      return;
    }
    expectStatus(res, 200);
    const judged = await judgeLimit(ctx, LIMIT_DEFAULT, res);
    if ('cannot' in judged) skip(judged.cannot);
    seen.push(`${name}: ${countPets(judged.n)}`);
  });
  return pass(seen.join(', '));
}

/** `listPets`: the status filter, limit, and how reads are sent (spec §4.1, §8). */
export const listPetsSection: SpecSection = {
  rows: [
    {
      section: '§2, §3, §4.1',
      statement: 'A pet has one status: the status filter lists it under that one and no other',
      oracle:
        'a pet the run created is listed under the status it shows (when the list can reach it) and under no other',
      inputs: 'status=available, pending, sold with limit=100, and without limit',
      checks: [
        'listPets.status-filter.*',
        'listPets.status-filter.*.includes-created',
        'listPets.one-status-per-pet',
        'createPet.listed',
      ],
    },
    {
      section: '§4.1, §8',
      statement:
        'limit: 1 to 100, default 20, the most pets returned; the default applies filtered',
      oracle:
        'exactly limit pets when more exist, never more; fewer only when they are every match (a store empty before the run, or no next page)',
      inputs:
        'every limit from 1 to 100, and none; LIMIT=1 and Limit=1 (no limit: parameter names are case-sensitive), limit[]=1 and limit[0]=1 (no limit either); each status with limit=1, 2, 100 and with no limit; on a store the kit tops up to 101 pets when it holds fewer, and on one that held more before the run',
      checks: [
        'listPets.default-limit',
        'listPets.recased-limit',
        'listPets.bracketed-limit',
        'listPets.limit-1',
        'listPets.limit-100',
        'listPets.every-limit',
        'listPets.status-with-limit',
        'listPets.status-default-limit',
      ],
    },
    {
      section: '§4.1, §8',
      statement:
        'limit and status are query parameters: URL text, in which a percent-encoded character is that character (RFC 3986 §2.1)',
      oracle: `read as limit=${ENCODED_LIMIT} (exactly ${ENCODED_LIMIT} pets when more exist) and status=${ENCODED_STATUS} (no pet of another status; each of the run’s pets that status=${ENCODED_STATUS} lists)`,
      inputs: `${ENCODED_LIMIT_QUERIES.join(', ')} (the value, then the name, encoded); ${ENCODED_STATUS_QUERY} (lower-case hexadecimal)`,
      checks: ['listPets.percent-encoded-query'],
    },
    {
      section: '§1, §4.1',
      statement: 'A list is a JSON array of Pet, however long',
      oracle:
        'a list answer above 16 KiB is strict JSON to its last byte, each of the run’s pets in it as created',
      inputs:
        'the pets that fill the store carry the longest names the server takes (200 or 64 letters beyond ASCII), listed with limit=100 and each status',
      checks: ['listPets.large-answer'],
    },
    {
      section: '§4.1, §8',
      statement: 'The answer to limit outside 1..100, or to one that is no integer, is not shown',
      oracle:
        'an Error with a 4xx, or a Pet array; never a 5xx (advisory: 400, and at most 100 pets above 100)',
      inputs: `limit=0, 101, -1, 1000, a word, a fraction, empty, a superscript digit (²); with and without status; ${SPELLED_LIMIT} as ${integerSpellingsInWords(String(SPELLED_LIMIT))}`,
      checks: [
        'listPets.limit-out-of-range',
        'listPets.limit-out-of-range-rejected',
        'listPets.limit-above-max-capped',
      ],
    },
    {
      section: '§4.1, §8',
      statement:
        'limit and status are one value each; the answer to a query that gives one twice is not shown',
      oracle: `a 4xx Error, or a Pet array: of at most ${LIMIT_DEFAULT} pets for two limits (either value read, or neither and the default); never a 5xx (advisory: 400)`,
      inputs: REPEATED_PARAMETERS.join(', '),
      checks: ['listPets.repeated-parameter', 'listPets.repeated-parameter-rejected'],
    },
    {
      section: '§4.1',
      statement: 'status filters by a PetStatus value',
      oracle:
        'a value outside the enumeration gets a 4xx Error or a Pet array, never a 5xx (advisory: an unknown value gets 400)',
      inputs: 'an unknown word, empty, other letter case, padded',
      checks: ['listPets.status-boundaries', 'listPets.unknown-status-rejected'],
    },
    {
      section: '§4.1, §4.3',
      statement: 'A read answers with the spec’s answer whatever ordinary headers a client adds',
      oracle: '200 with the Pet array or the Pet, as without them',
      inputs:
        'Cache-Control: no-cache, If-None-Match, Accept */*, an axios Accept, a browser navigation Accept (text/html first), a browser User-Agent, Pragma, all at once; no Accept at all',
      checks: ['listPets.request-shapes'],
    },
    {
      section: '§4.1',
      statement: 'More than limit pets: paging is not shown',
      oracle: 'a Link rel="next" leads to the rest (advisory)',
      inputs: 'limit=1 with more pets',
      checks: ['listPets.next-link'],
    },
  ],
  checks: [
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
    everyLimitCheck,
    check({
      id: 'listPets.recased-limit',
      title: `answers LIMIT=${LIMIT_MIN} and Limit=${LIMIT_MIN}, which are not limit, as a list without limit (at most ${LIMIT_DEFAULT} pets, exactly ${LIMIT_DEFAULT} when more exist) or with a 4xx Error`,
      section: '§4.1, §8',
      // Query parameter names are case-sensitive (OpenAPI): ASP.NET Core's binder reads them in
      // any letter case, and pages by the wrong parameter.
      run: (ctx) => limitNotGiven(ctx, ['LIMIT', 'Limit']),
    }),
    check({
      id: 'listPets.bracketed-limit',
      title: `answers limit[]=${LIMIT_MIN} and limit[0]=${LIMIT_MIN}, which are not limit, as a list without limit (at most ${LIMIT_DEFAULT} pets, exactly ${LIMIT_DEFAULT} when more exist) or with a 4xx Error`,
      section: '§4.1, §8',
      // The spec's limit is one integer named limit: brackets are no spelling of it. Express 4's
      // query parser and PHP read them as an array, which Number() or (int) turns into a limit.
      run: (ctx) => limitNotGiven(ctx, ['limit[]', 'limit[0]']),
    }),
    check({
      id: 'listPets.percent-encoded-query',
      title: `reads a query whose characters are percent-encoded as the same query: ${ENCODED_LIMIT_QUERIES.join(' and ')} as limit=${ENCODED_LIMIT}, ${ENCODED_STATUS_QUERY} as status=${ENCODED_STATUS}`,
      section: '§4.1, §8',
      // A query is URL text (RFC 3986 §2.1): every query reader decodes %XX before it reads a
      // name or a value. A server that matches the query as sent misreads what clients encode.
      async run(ctx) {
        const res = await listAfterData(ctx, `?${ENCODED_STATUS_QUERY}`);
        const pets = expectPetList(res);
        expectOnlyStatus(res, pets, ENCODED_STATUS);
        // The plain filter's answer, when it holds every match, shows which of the run's pets the
        // encoded one must hold too (others' pets may come and go between the two).
        const plain = expectPetList(await ctx.list(statusQuery(ENCODED_STATUS)));
        if (plain.length < LIMIT_MAX) {
          const listed = new Set(pets.map(idOf));
          const missing = plain
            .map(idOf)
            .find((id) => id !== undefined && ctx.fixtures.createdIds.has(id) && !listed.has(id));
          if (missing !== undefined) {
            fail(
              `${described(res)} returned ${countPets(pets.length)} but not pet ${missing}, which status=${ENCODED_STATUS} lists`,
              res,
            );
          }
        }
        const seen = [`${ENCODED_STATUS_QUERY}: ${countPets(pets.length)}, none of another status`];
        await everyCase(ctx, ENCODED_LIMIT_QUERIES, async (query) => {
          const limited = await ctx.list(`?${query}`);
          const judged = await judgeLimit(ctx, ENCODED_LIMIT, limited);
          if ('cannot' in judged) skip(judged.cannot);
          seen.push(`${query}: ${countPets(judged.n)}`);
        });
        return pass(seen.join(', '));
      },
    }),
    largeAnswerCheck,
    ...PET_STATUSES.flatMap(statusFilterChecks),
    check({
      id: 'listPets.one-status-per-pet',
      title:
        'lists each pet this run created under one status filter at most (a pet has one status), a pet created without status too',
      section: '§2, §3, §4.1',
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
                sent?.status === undefined
                  ? 'created without status'
                  : `created as "${sent.status}"`;
              fail(`pet ${id} (${as}) is listed under status=${earlier} and status=${status}`, res);
            }
            seenUnder.set(id, status);
          }
        }
        return pass(`${seenUnder.size} of the run's pets listed, each under one status`);
      },
    }),
    statusLimitCheck({
      id: 'listPets.status-with-limit',
      title: `each status filter with limit=${STATUS_LIMITS.join(' and limit=')}: only that status, at most limit pets, exactly limit when more exist`,
      known: RUN_PETS,
      limits: () => STATUS_LIMITS,
      judgesFilter: true,
      needsEvidence: false,
    }),
    check({
      id: 'listPets.limit-out-of-range',
      title: `answers a limit outside ${LIMIT_MIN}..${LIMIT_MAX}, or one that is no integer (${SPELLED_LIMIT} spelled as lenient readers take it among them), without a server error: an Error or a Pet array`,
      section: '§4.1, §8',
      async run(ctx) {
        const seen: string[] = [];
        await everyCase(ctx, OUT_OF_RANGE_LIMITS, async (value) => {
          const res = await listAfterData(ctx, `?limit=${value}`);
          errorOrPetList(res);
          seen.push(`limit=${value}: ${res.status}`);
        });
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'listPets.limit-out-of-range-rejected',
      title: `rejects a limit outside ${LIMIT_MIN}..${LIMIT_MAX}, or one that is no integer, with 400 and an Error (the spec leaves it open)`,
      section: '§8',
      rule: 'the reference: a bound the caller broke is named, not silently changed',
      async run(ctx) {
        await everyCase(ctx, OUT_OF_RANGE_LIMITS, async (value) => {
          const res = await listAfterData(ctx, `?limit=${value}`);
          expectRefusedWith400(res);
        });
        return pass(`400 with an Error for limit=${OUT_OF_RANGE_LIMITS.join(', ')}`);
      },
    }),
    check({
      id: 'listPets.repeated-parameter',
      title: `answers limit given twice (${REPEATED_LIMITS.join(', ')}) with a 4xx Error or at most ${LIMIT_DEFAULT} pets (either value, or neither and the default), and status given twice with a 4xx Error or a Pet array; never a server error`,
      section: '§4.1, §8',
      async run(ctx) {
        const seen: string[] = [];
        await everyCase(ctx, REPEATED_PARAMETERS, async (query) => {
          const res = await listAfterData(ctx, `?${query}`);
          const n = errorOrPetList(res)?.length ?? 0;
          // Every reading of two limits, each below the default, allows at most the default.
          if (REPEATED_LIMITS.includes(query) && n > LIMIT_DEFAULT) {
            fail(
              `${described(res)} returned ${countPets(n)}: neither limit, nor the default of ${LIMIT_DEFAULT}`,
              res,
            );
          }
          seen.push(`${query}: ${res.status}`);
        });
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'listPets.repeated-parameter-rejected',
      title:
        'refuses a query that gives limit or status twice with 400 and an Error (the spec leaves it open)',
      section: '§4.1, §8',
      rule: 'the reference: a query read two ways is refused, not read one way unsaid',
      async run(ctx) {
        await everyCase(ctx, REPEATED_PARAMETERS, async (query) => {
          const res = await listAfterData(ctx, `?${query}`);
          expectRefusedWith400(res);
        });
        return pass(`400 with an Error for ${REPEATED_PARAMETERS.join(', ')}`);
      },
    }),
    check({
      id: 'listPets.limit-above-max-capped',
      title: `never returns more than ${LIMIT_MAX} pets, whatever limit asks for`,
      section: '§4.1, §8',
      rule: `the spec's maximum of ${LIMIT_MAX}: a server that accepts a larger limit still caps the page`,
      async run(ctx) {
        const seen: string[] = [];
        await everyCase(ctx, ABOVE_MAX_LIMITS, async (limit) => {
          const res = await listAfterData(ctx, `?limit=${limit}`);
          if (res.status === 200 && Array.isArray(res.body) && res.body.length > LIMIT_MAX) {
            fail(`${described(res)} returned ${countPets(res.body.length)}`, res);
          }
          seen.push(`limit=${limit}: ${res.status}`);
        });
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'listPets.unknown-status-rejected',
      title: 'rejects an unknown status filter with 400 and an Error (the spec leaves it open)',
      rule: 'the reference: an unknown filter value is an error, not an empty match',
      async run(ctx) {
        const res = await listAfterData(ctx, '?status=lost');
        expectRefusedWith400(res);
        return pass(`${described(res)} answered 400 with an Error`);
      },
    }),
    check({
      id: 'listPets.next-link',
      title: 'points at the next page with Link rel="next" when more pets exist (RFC 8288)',
      rule: 'RFC 8288 §3.3 (rel="next")',
      async run(ctx) {
        const res = await listAfterData(ctx, `?limit=${LIMIT_MIN}`);
        const first = expectPetList(res);
        if (ctx.fixtures.knownAtLeast <= first.length) skip('no more pets than one page');
        const [target] = linkTargets(res.headers.get('link'), 'next');
        if (target === undefined)
          fail(`${described(res)} has no Link rel="next" although more pets exist`, res);
        // The key goes only below the base URL the kit was given, as for every later page.
        const next = nextPageUrl(res, ctx.baseUrl);
        if (next === undefined) fail(`the next link <${target}> leads outside ${ctx.baseUrl}`);
        const page = await ctx.send({ method: 'GET', path: next });
        const second = expectPetList(page, '(the next link)');
        // More pets exist than the first page held: the next page holds the first of them.
        if (second.length === 0) fail(`the next link <${target}> leads to an empty page`);
        const repeated = second.find((pet: SpecPet) => first.some((p) => idOf(p) === idOf(pet)));
        if (repeated !== undefined) fail(`the next page repeats pet ${idOf(repeated)}`);
        return pass(`Link rel="next" leads to ${countPets(second.length)} more`);
      },
    }),
    check({
      id: 'createPet.listed',
      title: 'a created pet appears in the list',
      section: '§4.1, §4.2',
      async run(ctx) {
        const pets = (await createdSamples(ctx)).filter((c) => c.sent.status !== undefined);
        if (pets.length === 0) skip('no pet with a status could be created');
        const unknown: string[] = [];
        for (const { id, sent } of pets) {
          const queries = [`?status=${sent.status}&limit=${LIMIT_MAX}`, `?limit=${LIMIT_MAX}`];
          const listed = await listedIn(ctx, id, queries);
          if (listed === false) fail(`pet ${id} (status "${sent.status}") is in no list`);
          if (typeof listed === 'string') unknown.push(listed);
        }
        if (unknown.length === pets.length) skip(`${unknown[0]}; the spec has no paging`);
        return pass(`${pets.length - unknown.length} created pets found in lists`);
      },
    }),
    check({
      id: 'listPets.request-shapes',
      title:
        'listPets and getPet answer 200 whatever headers an ordinary client adds (Cache-Control, If-None-Match, Accept, User-Agent, Pragma), or with no Accept',
      section: '§4.1, §4.3',
      async run(ctx) {
        const listed = await listAfterData(ctx, '?limit=1');
        const [first] = expectPetList(listed);
        const paths = ['/pets?limit=1', ...(first === undefined ? [] : [`/pets/${idOf(first)}`])];
        let sent = 0;
        // And with no Accept at all, as Go's and Java's clients send a read.
        const sets = [...ordinaryHeaders(ctx.fixtures.runId), undefined];
        const reads = sets.flatMap((headers) => paths.map((path) => ({ headers, path })));
        await everyCase(ctx, reads, async ({ headers, path }) => {
          const how = headers === undefined ? 'with no Accept' : `with ${headerNames(headers)}`;
          const res = await ctx.send(
            headers === undefined
              ? { method: 'GET', path, withoutAccept: true }
              : { method: 'GET', path, headers },
          );
          sent += 1;
          expectStatus(res, 200, how);
          if (path.includes('?')) expectPetList(res, how);
          else expectPet(res, how);
        });
        return pass(`${sent} reads with ordinary headers answered 200`);
      },
    }),
    check({
      id: 'listPets.status-boundaries',
      title:
        'answers a status filter outside the enumeration (empty, other letter case, padded, unknown; alone and with limit) with a 4xx Error or a Pet array, never a 5xx',
      async run(ctx) {
        const seen: string[] = [];
        const queries = STATUS_FILTER_BOUNDARIES.flatMap((s) => [
          `?status=${s}`,
          `?status=${s}&limit=1`,
        ]);
        await everyCase(ctx, queries, async (query) => {
          const res = await listAfterData(ctx, query);
          errorOrPetList(res);
          seen.push(`${query}: ${res.status}`);
        });
        return pass(seen.join(', '));
      },
    }),
    // After every write: a status with more pets than the default shows the default at work.
    ...inStage('late', [
      statusLimitCheck({
        id: 'listPets.status-default-limit',
        title: `each status filter without limit returns at most ${LIMIT_DEFAULT} pets, and exactly ${LIMIT_DEFAULT} when more have that status (the default applies to filtered lists)`,
        known: RUN_PETS,
        limits: () => [undefined],
        // The status filter itself is judged with limit=100 (listPets.status-filter.*).
        judgesFilter: false,
        needsEvidence: true,
      }),
    ]),
  ],
};
