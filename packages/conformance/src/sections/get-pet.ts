// getPet (spec §4.3, §7, §9): ids no pet has, ids at the edges of int64, and the deprecation
// headers of an operation the spec announces for removal.
import { GET_PET_SUNSET_AT, ID_MAX, LIMIT_MAX, validateSpecPet } from '@animal-store/contract';
import {
  integerSpellings,
  integerSpellingsInWords,
  withSegmentParameter,
} from '../cases/integer-spellings.js';
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import { fallsOnDay, parseHttpDate, parseStructuredDate, readableDate } from '../http/dates.js';
import { canonicalInteger } from '../http/json.js';
import { linkTargets } from '../http/link.js';
import { quote } from '../http/replay.js';
import { isInt64 } from '../oracles.js';
import {
  type DeclaredCheck,
  declarer,
  described,
  everyCase,
  expectError,
  expectPet,
  fail,
  INT64_MAX,
  idOf,
  notApplicable,
  type PetFields,
  pass,
  petFields,
  type SpecSection,
  sentFields,
  skip,
} from './support.js';

const check = declarer('§4.3');

/** The pet `getPet` is tried on: one this run created, else (read-only) one the server lists. */
interface Target {
  readonly id: string;
  readonly fields: PetFields;
}

async function target(ctx: CheckContext): Promise<Target | undefined> {
  const samples = await ctx.fixtures.samples();
  const own = samples.pets.at(-1);
  if (own !== undefined) return { id: own.id, fields: sentFields(own.sent) };
  const listed = await ctx.list('?limit=1');
  const first: unknown = Array.isArray(listed.body) ? listed.body[0] : undefined;
  const checked = validateSpecPet(first);
  const id = idOf(first);
  return checked.ok && id !== undefined ? { id, fields: petFields(checked.value) } : undefined;
}

/** `getPet` on the target pet, shared by the checks that read its answer. */
export function fetchTarget(
  ctx: CheckContext,
): Promise<{ target: Target; res: HttpResponse } | undefined> {
  return ctx.memo('getPet target', async () => {
    const found = await target(ctx);
    if (found === undefined) return undefined;
    return { target: found, res: await ctx.send({ method: 'GET', path: `/pets/${found.id}` }) };
  });
}

const PET_PATH = /^\/pets\/[^/?#]+$/;

/**
 * Every answer of getPet itself (200 or 404) the kit has seen, after making sure there is one:
 * an answer refused before the operation ran (401, 400) says nothing of its deprecation.
 */
async function getPetAnswers(ctx: CheckContext): Promise<HttpResponse[]> {
  await fetchTarget(ctx);
  const answers = ctx.responses.filter(
    (r) => r.method === 'GET' && PET_PATH.test(r.path) && (r.status === 200 || r.status === 404),
  );
  if (answers.length === 0) skip('getPet never answered 200 or 404');
  return answers;
}

/** Answers to the two operations that are not deprecated. */
async function otherAnswers(ctx: CheckContext): Promise<HttpResponse[]> {
  await ctx.list('?limit=1');
  return ctx.responses.filter((r) => /^\/pets(\?|$)/.test(r.path));
}

const SUNSET_DAY = GET_PET_SUNSET_AT.toISOString().slice(0, 10);

/** A check on one deprecation header, on every getPet answer that has it. */
function headerCheck(
  id: string,
  title: string,
  name: 'Sunset' | 'Deprecation',
  /** What a `should` check rests on besides the spec; none for a `must`. */
  rule: string | undefined,
  problem: (value: string) => string | undefined,
): DeclaredCheck {
  return check({
    id,
    title,
    section: '§4.3, §9',
    ...(rule === undefined ? {} : { rule }),
    async run(ctx) {
      const answers = (await getPetAnswers(ctx)).filter((r) => r.headers.has(name));
      if (answers.length === 0) {
        // The value's rule applies to no answer: the header is optional, and absent.
        notApplicable(`no getPet answer carries ${name} (see getPet.deprecation-headers)`);
      }
      for (const res of answers) {
        const value = res.headers.get(name) ?? '';
        const why = problem(value);
        if (why !== undefined) fail(`${described(res)}: ${name} ${quote(value)} ${why}`, res);
      }
      return pass(`${name} holds on ${answers.length} answers`);
    },
  });
}

/** The answer to getPet on the target pet when it is 200 or 404, else any such getPet answer. */
async function someGetPetAnswer(ctx: CheckContext): Promise<HttpResponse> {
  const answers = await getPetAnswers(ctx);
  const fetched = await fetchTarget(ctx);
  return answers.find((r) => r === fetched?.res) ?? (answers[0] as HttpResponse);
}

/** Candidate ids for a pet that does not exist: the largest ids every client can hold. */
const ABSENT_IDS = [ID_MAX, ID_MAX - 1, ID_MAX - 2].map(String);
/** How many ids the not-found check tries at most before it gives up. */
const ABSENT_TRIES = 50;

/** Every pet id an answer of the run showed (201 bodies, getPet, list entries). */
function idsSeen(ctx: CheckContext): Set<bigint> {
  const seen = new Set<bigint>();
  const add = (value: unknown) => {
    const id = idOf(value);
    if (id !== undefined) seen.add(BigInt(id));
  };
  for (const res of ctx.responses) {
    if (res.status < 200 || res.status > 299) continue;
    if (Array.isArray(res.body)) for (const item of res.body) add(item);
    else add(res.body);
  }
  for (const id of ctx.fixtures.createdIds) seen.add(BigInt(id));
  return seen;
}

/**
 * Ids no answer of the run showed, within 1..2^53-1 (which every client holds exactly): the
 * largest ones, the smallest positive integers not seen, then the gaps beside each id seen.
 */
function* absentCandidates(seen: ReadonlySet<bigint>): Generator<string> {
  const max = BigInt(ID_MAX);
  const fresh = (id: bigint) => id >= 1n && id <= max && !seen.has(id);
  yield* ABSENT_IDS.filter((id) => fresh(BigInt(id)));
  let small = 1n;
  for (let i = 0; i < 3; i++) {
    while (!fresh(small) && small <= max) small += 1n;
    if (small <= max) yield String(small);
    small += 1n;
  }
  for (const id of [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const next of [id + 1n, id - 1n]) if (fresh(next)) yield String(next);
  }
}

/**
 * Ids that readers take for the pet's id N: `N.json`, which Rails' `/pets/:id(.:format)` and
 * Spring's suffix match route as N (a path the spec does not have, as `/pets.json` is not: that
 * pet, or a refusal), N + 2^32, which an int32 (a cast, a column) wraps to N (another pet's id,
 * or none), and N + 2^64, which a reader that wraps at 64 bits takes for N (no int64: a refusal).
 */
function readAsKnown(known: string | undefined): string[] {
  if (known === undefined || !/^\d+$/.test(known)) return [];
  const wrapped = BigInt(known) + 2n ** 32n;
  return [
    `${known}.json`,
    ...(wrapped <= INT64_MAX ? [String(wrapped)] : []),
    String(BigInt(known) + 2n ** 64n),
  ];
}

/**
 * Path ids no pet of the run has: int64 edges, beyond int64, and no integer at all, among them
 * spellings some languages read as one (JavaScript's `Number` reads `0x1` as 1, Python's `int`
 * reads `0_1` as 1): no integer is written so.
 */
const PATH_ID_BOUNDARIES = [
  '0',
  '-1',
  String(INT64_MAX),
  String(INT64_MAX + 1n),
  String(2n ** 64n),
  'abc',
  '1.5',
  '0x1',
  '0_1',
] as const;

/**
 * The least pet id P of at least 8 the run has seen, in octal after a zero (`010` for 8): decimal
 * to the spec, so no pet or another one, yet P to C's `strtol` with base 0, Go's
 * `ParseInt(s, 0, 64)`, Java's `Long.decode` and Ruby's `Integer`.
 */
async function octalSpelling(ctx: CheckContext): Promise<string[]> {
  const least = () => {
    let found: bigint | undefined;
    for (const id of idsSeen(ctx)) {
      if (id >= 8n && id <= BigInt(ID_MAX) && (found === undefined || id < found)) found = id;
    }
    return found;
  };
  // A list of the store's pets shows one when the run has seen none yet.
  if (least() === undefined) await ctx.list(`?limit=${LIMIT_MAX}`);
  const id = least();
  return id === undefined ? [] : [`0${id.toString(8)}`];
}

/** `getPet`: not found, ids at the edges, and its deprecation (spec §4.3, §7, §9). */
export const getPetSection: SpecSection = {
  rows: [
    {
      section: '§4.3, §7',
      statement: 'getPet answers 200 with the pet, 404 with an Error when it cannot be found',
      oracle:
        'an int64 no pet has: 404 (or 400 where the server does not take it as an id), an Error; a petId that is no int64: a 4xx Error',
      inputs: `an existing id, absent ids, 0, -1, int64 maximum, beyond int64, a word, a fraction, 0x1, 0_1; an existing id N as ${integerSpellingsInWords('N', 'path')}, and as 0N; an existing id of at least 8 in octal after a zero (010 for 8) (a path parameter); N;v=1 (a segment's parameter, advisory: RFC 3986 leaves it to the server)`,
      checks: [
        'getPet.not-found',
        'getPet.path-boundaries',
        'getPet.malformed-id-rejected',
        'getPet.segment-parameter-rejected',
      ],
    },
    {
      section: '§4.3, §9',
      statement: 'getPet is deprecated, to be removed on 5 December 2030',
      oracle: 'a readable Sunset names that day; the headers are advised',
      inputs: 'every getPet answer of the run',
      checks: [
        'getPet.sunset-day',
        'getPet.sunset-date',
        'getPet.deprecation-date',
        'getPet.sunset-after-deprecation',
        'getPet.deprecation-headers',
        'getPet.successor-link',
        'getPet.deprecation-only-on-get-pet',
      ],
    },
  ],
  checks: [
    check({
      id: 'getPet.not-found',
      title: 'answers 404 with an Error body for an id that does not exist',
      section: '§4.3, §7',
      async run(ctx) {
        const seen = idsSeen(ctx);
        const tried: string[] = [];
        for (const id of absentCandidates(seen)) {
          if (tried.length >= ABSENT_TRIES) break;
          if (seen.has(BigInt(id))) continue;
          tried.push(id);
          const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
          if (res.status === 200) {
            const other = idOf(res.body);
            const what = other === undefined ? 'a body that is no Pet' : `pet ${other}`;
            if (other !== id)
              fail(`${described(res)} answered 200 with ${what}, expected 404`, res);
            seen.add(BigInt(id));
            continue; // that pet really exists; try another id
          }
          expectError(res, 404, '(no such pet)');
          return pass(`${described(res)} answered 404 with an Error`);
        }
        return skip(`pets ${tried.join(', ')} all exist: no free id found`);
      },
    }),
    check({
      id: 'getPet.malformed-id-rejected',
      title:
        'rejects a petId that is not an integer with 400 and an Error (the spec leaves it open)',
      rule: 'the reference: a malformed id is a bad request, not a missing pet',
      async run(ctx) {
        const res = await ctx.send({ method: 'GET', path: '/pets/not-a-number' });
        expectError(res, 400);
        return pass(`${described(res)} answered 400 with an Error`);
      },
    }),
    check({
      id: 'getPet.segment-parameter-rejected',
      title:
        "answers a pet's id N with a path segment's parameter (N;v=1) with a 4xx and an Error, not pet N",
      rule: "RFC 3986 §3.3 leaves a segment's parameters to the server, and a servlet container takes them off before the app sees the path: the spec's petId is the whole segment",
      async run(ctx) {
        const known = (await fetchTarget(ctx))?.target.id;
        if (known === undefined || !/^\d+$/.test(known)) skip('no pet with an id to spell');
        const res = await ctx.send({ method: 'GET', path: `/pets/${withSegmentParameter(known)}` });
        if (res.status < 400 || res.status > 499) {
          fail(`${described(res)} answered ${res.status}, expected a 4xx`, res);
        }
        expectError(res, res.status);
        return pass(`${described(res)} answered ${res.status} with an Error`);
      },
    }),
    headerCheck(
      'getPet.sunset-day',
      'a Sunset header the kit can read names 5 December 2030 (a date alone, or an instant on that day in some time zone), the removal the spec announces',
      'Sunset',
      undefined,
      (value) => {
        const date = readableDate(value);
        if (date === undefined) return undefined; // unreadable: getPet.sunset-date advises
        if (fallsOnDay(date, SUNSET_DAY)) return undefined;
        if (date.day !== undefined) return `names ${date.day}, not ${SUNSET_DAY}`;
        return `names ${date.earliest.toISOString()}, which is ${SUNSET_DAY} in no time zone`;
      },
    ),
    headerCheck(
      'getPet.sunset-date',
      'a Sunset header is an HTTP-date (RFC 8594)',
      'Sunset',
      'RFC 8594 §3, RFC 9110 §5.6.7',
      (value) => (parseHttpDate(value) === undefined ? 'is not an HTTP-date' : undefined),
    ),
    headerCheck(
      'getPet.deprecation-date',
      'a Deprecation header is a structured date, @<seconds> (RFC 9745)',
      'Deprecation',
      'RFC 9745 §2.1',
      (value) => (parseStructuredDate(value) === undefined ? 'is not @<seconds>' : undefined),
    ),
    check({
      id: 'getPet.sunset-after-deprecation',
      title: 'Sunset is not earlier than Deprecation (RFC 9745 §4)',
      section: '§9',
      rule: 'RFC 9745 §4',
      async run(ctx) {
        let compared = 0;
        for (const res of await getPetAnswers(ctx)) {
          const sunset = readableDate(res.headers.get('sunset') ?? '')?.latest;
          const deprecation = parseStructuredDate(res.headers.get('deprecation') ?? '');
          if (sunset === undefined || deprecation === undefined) continue;
          compared += 1;
          if (sunset < deprecation) {
            fail(
              `${described(res)}: Sunset ${sunset.toISOString()} precedes Deprecation ${deprecation.toISOString()}`,
              res,
            );
          }
        }
        if (compared === 0) {
          notApplicable('no getPet answer carries both a readable Sunset and Deprecation');
        }
        return pass(`Sunset follows Deprecation on ${compared} answers`);
      },
    }),
    check({
      id: 'getPet.deprecation-headers',
      title: 'announces the deprecation with Deprecation and Sunset headers',
      section: '§4.3, §9',
      rule: 'RFC 9745 §2, RFC 8594 §3',
      async run(ctx) {
        const res = await someGetPetAnswer(ctx);
        const missing = ['Deprecation', 'Sunset'].filter((name) => !res.headers.has(name));
        if (missing.length > 0) {
          fail(`${described(res)} answered without ${missing.join(' or ')}`, res);
        }
        return pass('Deprecation and Sunset present');
      },
    }),
    check({
      id: 'getPet.successor-link',
      title: 'links to its successor with Link rel="successor-version"',
      rule: 'RFC 5829 §3.3, RFC 8288',
      async run(ctx) {
        const res = await someGetPetAnswer(ctx);
        const [successor] = linkTargets(res.headers.get('link'), 'successor-version');
        if (successor === undefined) {
          fail(`${described(res)} has no Link rel="successor-version"`, res);
        }
        return pass(`successor: ${successor}`);
      },
    }),
    check({
      id: 'getPet.deprecation-only-on-get-pet',
      title: 'listPets and createPet, which are not deprecated, carry no Deprecation or Sunset',
      section: '§9',
      rule: 'RFC 9745 §2: the header marks the resource it is sent with',
      async run(ctx) {
        const answers = await otherAnswers(ctx);
        const marked = answers.find((r) => r.headers.has('deprecation') || r.headers.has('sunset'));
        if (marked !== undefined) fail(`${described(marked)} carries a deprecation header`, marked);
        return pass(`${answers.length} answers checked`);
      },
    }),

    check({
      id: 'getPet.path-boundaries',
      title: `answers a petId no pet has (${PATH_ID_BOUNDARIES.join(', ')}, a pet's id N as ${integerSpellingsInWords('N', 'path')}, as 0N, plus 2^32 and 2^64 (an int32 or int64 that wraps reads it as N), and a pet's id of at least 8 in octal after a zero, 010 for 8) with 404 or 400 and an Error, or with that very pet; one that is no int64 with a 4xx Error, and a pet's id with a format suffix (N.json) with a 4xx Error or pet N`,
      section: '§4.3, §7',
      async run(ctx) {
        const seen: string[] = [];
        const known = (await fetchTarget(ctx))?.target.id;
        // The fixed spellings above name pet 1, which a store whose ids start elsewhere lacks; the
        // spellings of a listed pet's own id name a pet that exists. `0N` is N in decimal.
        const leadingZero = /^\d+$/.test(known ?? '') ? [`0${known}`] : [];
        const ids = [
          ...PATH_ID_BOUNDARIES,
          ...integerSpellings(known ?? '', 'path'),
          ...leadingZero,
          ...readAsKnown(known),
          ...(await octalSpelling(ctx)),
        ];
        await everyCase(ctx, ids, async (id) => {
          if (ctx.fixtures.createdIds.has(id)) return;
          const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
          const numeric = /^-?\d+$/.test(id);
          // A format suffix names the pet without it, to a server whose paths have one.
          const suffixed = /^(\d+)\.json$/.exec(id)?.[1];
          // Within int64 the id is a petId, of no pet: 404 (or 400). Beyond int64 it is no petId
          // at all, as a word is not: any 4xx refusal, the status its validator gives.
          const int64 = numeric && isInt64(BigInt(id));
          if (res.status === 200 && (numeric || suffixed !== undefined)) {
            const shown = idOf(expectPet(res));
            // Digit for digit: ids beyond 2^53 that one double holds are other pets.
            if (shown !== canonicalInteger(suffixed ?? id))
              fail(`${described(res)} answered 200 with pet ${shown}`, res);
          } else if (
            int64 ? res.status !== 404 && res.status !== 400 : res.status < 400 || res.status > 499
          ) {
            const expected = int64 ? '404 or 400' : 'a 4xx';
            fail(`${described(res)} answered ${res.status}, expected ${expected}`, res);
          } else {
            expectError(res, res.status);
          }
          seen.push(`${id}: ${res.status}`);
        });
        return pass(seen.join(', '));
      },
    }),
  ],
};
