import { GET_PET_SUNSET_AT, ID_MAX, validatePet } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import { parseHttpDate, parseStructuredDate } from '../http/dates.js';
import { linkTargets } from '../http/link.js';
import type { Check } from '../types.js';
import {
  check,
  described,
  difference,
  expectError,
  expectPet,
  expectStatus,
  fail,
  idOf,
  type PetFields,
  pass,
  petFields,
  sentFields,
  skip,
} from './support.js';

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
  const checked = validatePet(first);
  const id = idOf(first);
  return checked.ok && id !== undefined ? { id, fields: petFields(checked.value) } : undefined;
}

/** `getPet` on the target pet, shared by the checks that read its answer. */
function fetchTarget(
  ctx: CheckContext,
): Promise<{ target: Target; res: HttpResponse } | undefined> {
  return ctx.memo('getPet target', async () => {
    const found = await target(ctx);
    if (found === undefined) return undefined;
    return { target: found, res: await ctx.send({ method: 'GET', path: `/pets/${found.id}` }) };
  });
}

const PET_PATH = /^\/pets\/[^/?#]+$/;

/** Every answer to `getPet` the kit has seen, after making sure there is at least one. */
async function getPetAnswers(ctx: CheckContext): Promise<HttpResponse[]> {
  await fetchTarget(ctx);
  const answers = ctx.responses.filter((r) => r.method === 'GET' && PET_PATH.test(r.path));
  if (answers.length === 0) skip('getPet was never answered');
  return answers;
}

/** Answers to the two operations that are not deprecated. */
async function otherAnswers(ctx: CheckContext): Promise<HttpResponse[]> {
  await ctx.list('?limit=1');
  return ctx.responses.filter((r) => /^\/pets(\?|$)/.test(r.path));
}

const SUNSET_DAY = GET_PET_SUNSET_AT.toISOString().slice(0, 10);

/** A `must` check on the form of one deprecation header, on every getPet answer that has it. */
function headerFormatCheck(
  id: string,
  title: string,
  name: 'Sunset' | 'Deprecation',
  problem: (value: string) => string | undefined,
): Check {
  return check({
    id,
    title,
    section: '§4.3, §9',
    level: 'must',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const answers = (await getPetAnswers(ctx)).filter((r) => r.headers.has(name));
      if (answers.length === 0) {
        skip(`no getPet answer carries ${name} (see getPet.deprecation-headers)`);
      }
      for (const res of answers) {
        const value = res.headers.get(name) ?? '';
        const why = problem(value);
        if (why !== undefined) fail(`${described(res)}: ${name} "${value}" ${why}`);
      }
      return pass(`${name} is well-formed on ${answers.length} answers`);
    },
  });
}

/** The answer to getPet on the target pet, else any getPet answer. */
async function someGetPetAnswer(ctx: CheckContext): Promise<HttpResponse> {
  const fetched = await fetchTarget(ctx);
  return fetched?.res ?? (await getPetAnswers(ctx))[0] ?? skip('getPet was never answered');
}

/** Candidate ids for a pet that does not exist: the largest ids every client can hold. */
const ABSENT_IDS = [ID_MAX, ID_MAX - 1, ID_MAX - 2].map(String);

/** `getPet` and its deprecation (spec §4.3, §9). */
export const getPetChecks: readonly Check[] = [
  check({
    id: 'getPet.returns-pet',
    title: 'answers 200 with the requested pet',
    section: '§4.3',
    level: 'must',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const fetched = await fetchTarget(ctx);
      if (fetched === undefined) skip('no pet to fetch: none created (read-only) and none listed');
      const { res, target: wanted } = fetched;
      expectStatus(res, 200);
      const pet = expectPet(res);
      const problem =
        idOf(pet) === wanted.id ? difference(pet, wanted.fields) : `it is pet ${idOf(pet)}`;
      if (problem !== undefined) fail(`${described(res)}: ${problem}`);
      return pass(`${described(res)} answered 200 with that pet`);
    },
  }),
  check({
    id: 'getPet.not-found',
    title: 'answers 404 with an Error body for an id that does not exist',
    section: '§4.3, §7',
    level: 'must',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      for (const id of ABSENT_IDS) {
        if (ctx.fixtures.createdIds.has(id)) continue;
        const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
        if (res.status === 200) {
          const other = idOf(res.body);
          const what = other === undefined ? 'a body that is no Pet' : `pet ${other}`;
          if (other !== id) fail(`${described(res)} answered 200 with ${what}, expected 404`);
          continue; // that pet really exists; try another id
        }
        expectError(res, 404, '(no such pet)');
        return pass(`${described(res)} answered 404 with an Error`);
      }
      return skip(`pets ${ABSENT_IDS.join(', ')} all exist`);
    },
  }),
  check({
    id: 'getPet.malformed-id-rejected',
    title: 'rejects a petId that is not an integer with 400 and an Error (the spec leaves it open)',
    section: '§4.3',
    level: 'should',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const res = await ctx.send({ method: 'GET', path: '/pets/not-a-number' });
      expectError(res, 400);
      return pass(`${described(res)} answered 400 with an Error`);
    },
  }),
  headerFormatCheck(
    'getPet.sunset-date',
    'a Sunset header is an HTTP-date on 5 December 2030 (RFC 8594)',
    'Sunset',
    (value) => {
      const date = parseHttpDate(value);
      if (date === undefined) return 'is not an HTTP-date';
      const day = date.toISOString().slice(0, 10);
      return day === SUNSET_DAY ? undefined : `is ${day}, not ${SUNSET_DAY}`;
    },
  ),
  headerFormatCheck(
    'getPet.deprecation-date',
    'a Deprecation header is a structured date, @<seconds> (RFC 9745)',
    'Deprecation',
    (value) => (parseStructuredDate(value) === undefined ? 'is not @<seconds>' : undefined),
  ),
  check({
    id: 'getPet.sunset-after-deprecation',
    title: 'Sunset is not earlier than Deprecation (RFC 9745 §4)',
    section: '§9',
    level: 'must',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      let compared = 0;
      for (const res of await getPetAnswers(ctx)) {
        const sunset = parseHttpDate(res.headers.get('sunset') ?? '');
        const deprecation = parseStructuredDate(res.headers.get('deprecation') ?? '');
        if (sunset === undefined || deprecation === undefined) continue;
        compared += 1;
        if (sunset < deprecation) {
          fail(
            `${described(res)}: Sunset ${sunset.toISOString()} precedes Deprecation ${deprecation.toISOString()}`,
          );
        }
      }
      if (compared === 0) skip('no getPet answer carries both a valid Sunset and Deprecation');
      return pass(`Sunset follows Deprecation on ${compared} answers`);
    },
  }),
  check({
    id: 'getPet.deprecation-headers',
    title: 'announces the deprecation with Deprecation and Sunset headers',
    section: '§4.3, §9',
    level: 'should',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const res = await someGetPetAnswer(ctx);
      const missing = ['Deprecation', 'Sunset'].filter((name) => !res.headers.has(name));
      if (missing.length > 0) fail(`${described(res)} answered without ${missing.join(' or ')}`);
      return pass('Deprecation and Sunset present');
    },
  }),
  check({
    id: 'getPet.successor-link',
    title: 'links to its successor with Link rel="successor-version"',
    section: '§4.3',
    level: 'should',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const res = await someGetPetAnswer(ctx);
      const [successor] = linkTargets(res.headers.get('link'), 'successor-version');
      if (successor === undefined) fail(`${described(res)} has no Link rel="successor-version"`);
      return pass(`successor: ${successor}`);
    },
  }),
  check({
    id: 'getPet.deprecation-only-on-get-pet',
    title: 'listPets and createPet, which are not deprecated, carry no Deprecation or Sunset',
    section: '§9',
    level: 'should',
    group: 'getPet',
    writes: false,
    async run(ctx) {
      const answers = await otherAnswers(ctx);
      const marked = answers.find((r) => r.headers.has('deprecation') || r.headers.has('sunset'));
      if (marked !== undefined) fail(`${described(marked)} carries a deprecation header`);
      return pass(`${answers.length} answers checked`);
    },
  }),
];
