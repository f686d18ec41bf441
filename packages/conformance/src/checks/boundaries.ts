// Boundary classes of the spec's fields, parameters and request shapes, each sent on every run.
// Where the spec leaves the answer open, the check accepts each legitimate answer and nothing
// else: the oracles (src/oracles.ts) judge every answer besides, and the pet model holds every
// pet a boundary created to what was sent.
import { LIMIT_DEFAULT, PET_STATUSES } from '@animal-store/contract';
import type { NameCase } from '../cases/names.js';
import type { CheckContext } from '../context.js';
import type { HttpRequest } from '../http/client.js';
import { numberText } from '../http/json.js';
import type { Check } from '../types.js';
import { bodyWith, createWithCategoryId, namesKept } from './create-pet.js';
import { countPets, knownWithStatus, listAfterData, wholeStore, withCause } from './list-pets.js';
import {
  check,
  described,
  errorBodyProblem,
  expectError,
  expectPet,
  expectPetList,
  expectStatus,
  fail,
  idOf,
  pass,
  skip,
} from './support.js';

/** Names at the edges of a string, each kept exactly or refused with 400 (no limit is shown). */
export function stringBoundaryNames(tagged: () => string): NameCase[] {
  return [
    { what: 'an empty name', name: '' },
    { what: 'a name of spaces only', name: '   ' },
    { what: 'a name padded with spaces', name: ` ${tagged()} ` },
    { what: 'a name ending in a space', name: `${tagged()} ` },
    { what: 'a name holding a double quote', name: `${tagged()}"q` },
    { what: 'a name holding a backslash', name: `${tagged()}\\b` },
    { what: 'a name holding a slash', name: `${tagged()}/s` },
    { what: 'a name holding control characters', name: `${tagged()}\u0001\u001f` },
    { what: 'a name holding a tab and a line feed', name: `${tagged()}\t\n` },
  ];
}

const INT64_MAX = 2n ** 63n - 1n;

/** Valid int64 values of categoryId at the type's edges: each is stored or refused. */
export const INT64_BOUNDARIES = [
  '0',
  '-1',
  '1',
  String(2n ** 53n + 1n),
  String(INT64_MAX),
  String(-INT64_MAX - 1n),
] as const;

/** The same integer as a client holding numbers as doubles sees it (RFC 8259 §6). */
function sameAsDouble(a: string | undefined, b: string): boolean {
  return a !== undefined && Number(a) === Number(b);
}

/**
 * Each categoryId is refused with a 4xx Error, or created and shown (201, getPet) as sent, as a
 * client holding doubles sees it.
 */
async function integersKept(ctx: CheckContext, values: readonly string[]) {
  const seen: string[] = [];
  for (const value of values) {
    const how = `with categoryId ${value}`;
    const res = await createWithCategoryId(ctx, value);
    if (res.status >= 400 && res.status <= 499) {
      expectError(res, res.status, how);
      seen.push(`${value}: ${res.status}`);
      continue;
    }
    expectStatus(res, 201, how);
    const created = expectPet(res, how);
    const shown = numberText(created, 'categoryId') ?? String(created.categoryId);
    if (!sameAsDouble(shown, value))
      fail(`${described(res, how)} answered categoryId ${shown}`, res);
    const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(created)}` });
    expectStatus(read, 200, `for the pet created ${how}`);
    const stored = numberText(expectPet(read), 'categoryId');
    if (!sameAsDouble(stored, value)) fail(`${described(read)} gives categoryId ${stored}`, read);
    seen.push(`${value}: kept`);
  }
  return pass(seen.join(', '));
}

/** Path ids no pet of the run has: int64 edges, beyond int64, and no integer at all. */
export const PATH_ID_BOUNDARIES = [
  '0',
  '-1',
  String(INT64_MAX),
  String(INT64_MAX + 1n),
  String(2n ** 64n),
  'abc',
  '1.5',
] as const;

/** Status filter values outside the enumeration: empty, other letter case, padded, unknown. */
export const STATUS_FILTER_BOUNDARIES = [
  '',
  'AVAILABLE',
  'Sold',
  '%20pending',
  'pending%20',
  'lost',
] as const;

/**
 * Headers ordinary clients add (browsers, curl, axios, caches), in sets: a server that refuses
 * one of them fails on the set that holds it.
 */
export function ordinaryHeaders(runId: string): Record<string, string>[] {
  return [
    { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    { 'If-None-Match': `"conformance-${runId}"`, 'Cache-Control': 'max-age=0' },
    {
      Accept: '*/*',
      'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    },
    { Accept: 'application/json, text/plain, */*' },
  ];
}

function headerNames(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
}

/** Boundary classes of every field, parameter and request shape (spec §2, §4, §5). */
export const boundaryChecks: readonly Check[] = [
  check({
    id: 'createPet.string-boundaries',
    title:
      'keeps a name at the edges of a string (empty, spaces only, padded, holding ", \\ or control characters) exactly as sent, or refuses it with 400 and an Error',
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    run: (ctx) =>
      namesKept(
        ctx,
        stringBoundaryNames(() => ctx.fixtures.nextName()),
      ),
  }),
  check({
    id: 'createPet.integer-boundaries',
    title: `stores a categoryId at the edges of int64 (${INT64_BOUNDARIES.join(', ')}) as sent, as a client holding doubles sees it, or refuses it with a 4xx Error`,
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    run: (ctx) => integersKept(ctx, INT64_BOUNDARIES),
  }),
  check({
    id: 'createPet.request-shapes',
    title:
      'answers 201 to a valid body sent chunked, and with the headers ordinary clients add (Cache-Control, Accept, User-Agent)',
    section: '§4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const shapes: [string, Partial<HttpRequest>][] = [
        ['chunked', { chunked: true }],
        ...ordinaryHeaders(ctx.fixtures.runId)
          .filter((h) => !('If-None-Match' in h))
          .map((h): [string, Partial<HttpRequest>] => [`with ${headerNames(h)}`, { headers: h }]),
      ];
      for (const [how, shape] of shapes) {
        const res = await ctx.send({
          method: 'POST',
          path: '/pets',
          rawBody: bodyWith(ctx, 'status', '"available"'),
          ...shape,
        });
        expectStatus(res, 201, how);
        expectPet(res, how);
      }
      return pass(`${shapes.length} request shapes answered 201 with a Pet`);
    },
  }),
  check({
    id: 'listPets.request-shapes',
    title:
      'listPets and getPet answer 200 whatever headers an ordinary client adds (Cache-Control, If-None-Match, Accept, User-Agent, Pragma)',
    section: '§4.1, §4.3',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const listed = await listAfterData(ctx, '?limit=1');
      const [first] = expectPetList(listed);
      const paths = ['/pets?limit=1', ...(first === undefined ? [] : [`/pets/${idOf(first)}`])];
      let sent = 0;
      for (const headers of ordinaryHeaders(ctx.fixtures.runId)) {
        for (const path of paths) {
          const how = `with ${headerNames(headers)}`;
          const res = await ctx.send({ method: 'GET', path, headers });
          expectStatus(res, 200, how);
          if (path.includes('?')) expectPetList(res, how);
          else expectPet(res, how);
          sent += 1;
        }
      }
      return pass(`${sent} reads with ordinary headers answered 200`);
    },
  }),
  check({
    id: 'getPet.path-boundaries',
    title: `answers a petId no pet has (${PATH_ID_BOUNDARIES.join(', ')}) with 404 or 400 and an Error, or with that very pet`,
    section: '§4.3, §7',
    level: 'must',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const seen: string[] = [];
      for (const id of PATH_ID_BOUNDARIES) {
        if (ctx.fixtures.createdIds.has(id)) continue;
        const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
        const numeric = /^-?\d+$/.test(id);
        if (res.status === 200 && numeric) {
          const shown = idOf(expectPet(res));
          if (!sameAsDouble(shown, id))
            fail(`${described(res)} answered 200 with pet ${shown}`, res);
        } else if (
          numeric ? res.status !== 404 && res.status !== 400 : res.status < 400 || res.status > 499
        ) {
          fail(`${described(res)} answered ${res.status}, expected 404 or 400`, res);
        } else {
          expectError(res, res.status);
        }
        seen.push(`${id}: ${res.status}`);
      }
      return pass(seen.join(', '));
    },
  }),
  check({
    id: 'listPets.status-boundaries',
    title:
      'answers a status filter outside the enumeration (empty, other letter case, padded, unknown; alone and with limit) with a 4xx Error or a Pet array, never a 5xx',
    section: '§4.1',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      const seen: string[] = [];
      const queries = STATUS_FILTER_BOUNDARIES.flatMap((s) => [
        `?status=${s}`,
        `?status=${s}&limit=1`,
      ]);
      for (const query of queries) {
        const res = await listAfterData(ctx, query);
        if (res.status >= 400 && res.status <= 499) {
          const problem = errorBodyProblem(res);
          if (problem !== undefined)
            fail(`${described(res)} answered ${res.status}: ${problem}`, res);
        } else if (res.status === 200) {
          expectPetList(res);
        } else {
          fail(`${described(res)} answered ${res.status}`, res);
        }
        seen.push(`${query}: ${res.status}`);
      }
      return pass(seen.join(', '));
    },
  }),
  check({
    id: 'listPets.status-default-limit',
    title: `each status filter without limit returns at most ${LIMIT_DEFAULT} pets, and exactly ${LIMIT_DEFAULT} when more have that status (the default applies to filtered lists)`,
    section: '§4.1, §8',
    level: 'must',
    group: 'listPets',
    writes: false,
    async run(ctx) {
      await ctx.fixtures.ensureBulk();
      const seen: string[] = [];
      let judged = 0;
      for (const status of PET_STATUSES) {
        const known = await knownWithStatus(ctx, status);
        const res = await ctx.list(`?status=${status}`);
        const n = expectPetList(res).length;
        if (n > LIMIT_DEFAULT) {
          fail(`${described(res)} returned ${countPets(n)}, more than ${LIMIT_DEFAULT}`, res);
        }
        if (n < LIMIT_DEFAULT && known > n) {
          fail(
            await withCause(
              ctx,
              `${described(res)} returned ${countPets(n)} although at least ${known} have status "${status}"`,
            ),
            res,
          );
        }
        // Exactly the default, or fewer while more are known: either shows the default at work.
        // On a store that held nothing before the run, a short list is every pet of the status.
        const whole = n === known && wholeStore(ctx, n, res);
        if (known >= LIMIT_DEFAULT || n === LIMIT_DEFAULT || whole) judged += 1;
        seen.push(`${status}: ${n}`);
      }
      if (judged === 0) skip(`no status has ${LIMIT_DEFAULT} pets known to have it`);
      return pass(seen.join(', '));
    },
  }),
];
