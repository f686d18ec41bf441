import { ID_MAX, LIMIT_MAX, PET_STATUSES } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { Creation } from '../fixtures.js';
import type { HttpResponse } from '../http/client.js';
import { integerText } from '../http/json.js';
import type { Check } from '../types.js';
import {
  check,
  described,
  difference,
  expectError,
  expectPet,
  expectPetList,
  expectStatus,
  fail,
  idOf,
  pass,
  sentFields,
  skip,
} from './support.js';

/** Fails unless a sample creation answered 201 with the pet as sent plus an id. */
function expectCreated(creation: Creation | undefined, what: string): void {
  if (creation === undefined) skip(`no ${what} was sent`);
  const { response, sent } = creation;
  expectStatus(response, 201, what);
  const pet = expectPet(response, what);
  const problem = difference(pet, sentFields(sent));
  if (problem !== undefined) fail(`${described(response, what)}: ${problem}`);
}

/** The sample pets that were created, or a skip when none could be. */
async function createdSamples(ctx: CheckContext) {
  const samples = await ctx.fixtures.samples();
  if (samples.pets.length === 0) skip('no pet could be created (see createPet.created)');
  return samples.pets;
}

/** A request body `createPet` must refuse with 400, and how to describe it. */
interface InvalidBody {
  readonly id: string;
  readonly what: string;
  readonly section: string;
  readonly body: (ctx: CheckContext) => { json: unknown } | { rawBody: string };
}

const INVALID_BODIES: readonly InvalidBody[] = [
  {
    id: 'missing-name',
    what: 'a body without name',
    section: '§4.2',
    body: (ctx) => ({ json: { categoryId: ctx.fixtures.nextCategoryId(), status: 'available' } }),
  },
  {
    id: 'missing-category-id',
    what: 'a body without categoryId',
    section: '§4.2',
    body: (ctx) => ({ json: { name: ctx.fixtures.nextName(), status: 'available' } }),
  },
  {
    id: 'name-wrong-type',
    what: 'a name that is a number',
    section: '§2, §4.2',
    body: (ctx) => ({ json: { name: 42, categoryId: ctx.fixtures.nextCategoryId() } }),
  },
  {
    id: 'category-id-wrong-type',
    what: 'a categoryId that is a string',
    section: '§2, §4.2',
    body: (ctx) => ({ json: { name: ctx.fixtures.nextName(), categoryId: '7' } }),
  },
  {
    id: 'category-id-fractional',
    what: 'a categoryId that is not an integer (1.5)',
    section: '§2, §4.2',
    body: (ctx) => ({ json: { name: ctx.fixtures.nextName(), categoryId: 1.5 } }),
  },
  {
    id: 'status-wrong-type',
    what: 'a status that is a number',
    section: '§2, §4.2',
    body: (ctx) => ({
      json: { name: ctx.fixtures.nextName(), categoryId: ctx.fixtures.nextCategoryId(), status: 1 },
    }),
  },
  {
    id: 'unknown-status',
    what: 'a status outside available, pending, sold',
    section: '§2, §4.2',
    body: (ctx) => ({
      json: {
        name: ctx.fixtures.nextName(),
        categoryId: ctx.fixtures.nextCategoryId(),
        status: 'lost',
      },
    }),
  },
  {
    id: 'malformed-json',
    what: 'malformed JSON',
    section: '§4.2',
    body: (ctx) => ({ rawBody: `{"name": "${ctx.fixtures.nextName()}", "categoryId": ` }),
  },
  {
    id: 'empty-body',
    what: 'an empty body',
    section: '§4.2',
    body: () => ({ rawBody: '' }),
  },
];

function rejectionCheck(invalid: InvalidBody): Check {
  return check({
    id: `createPet.${invalid.id}`,
    title: `rejects ${invalid.what} with 400 and an Error`,
    section: invalid.section,
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const how = `with ${invalid.what}`;
      const res = await ctx.send({ method: 'POST', path: '/pets', ...invalid.body(ctx) });
      expectError(res, 400, how);
      return pass(`${described(res, how)} answered 400 with an Error`);
    },
  });
}

/** categoryIds at and beyond what a double holds exactly; int64 allows all three. */
const LARGE_CATEGORY_IDS = [String(ID_MAX), '9007199254740993', '9223372036854775807'];

/** `createPet` with a categoryId written as-is into the JSON text, shared between checks. */
function createWithCategoryId(ctx: CheckContext, categoryId: string): Promise<HttpResponse> {
  return ctx.memo(`create with categoryId ${categoryId}`, () =>
    ctx.send({
      method: 'POST',
      path: '/pets',
      rawBody: `{"name":"${ctx.fixtures.nextName()}","categoryId":${categoryId},"status":"available"}`,
    }),
  );
}

/** A pet is listed when some complete list holds it; undefined means it cannot be told. */
async function listedIn(ctx: CheckContext, id: string, queries: readonly string[]) {
  let complete = false;
  for (const query of queries) {
    const res = await ctx.list(query);
    const pets = expectPetList(res);
    if (pets.some((pet) => idOf(pet) === id)) return true;
    if (pets.length < LIMIT_MAX) complete = true;
  }
  return complete ? false : undefined;
}

/** `createPet` (spec §4.2). */
export const createPetChecks: readonly Check[] = [
  check({
    id: 'createPet.created',
    title: 'answers 201 with the pet as sent plus an id, for every status',
    section: '§4.2, §2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const { byStatus } = await ctx.fixtures.samples();
      for (const status of PET_STATUSES) expectCreated(byStatus.get(status), `a "${status}" pet`);
      return pass(`201 with the pet as sent for ${PET_STATUSES.join(', ')}`);
    },
  }),
  check({
    id: 'createPet.without-status',
    title: 'accepts a pet without status (status is optional)',
    section: '§4.2, §2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const { withoutStatus } = await ctx.fixtures.samples();
      expectCreated(withoutStatus, 'a pet without status');
      const status = (withoutStatus?.response.body as { status?: string }).status;
      return pass(`201; the server gave status ${status === undefined ? 'none' : `"${status}"`}`);
    },
  }),
  check({
    id: 'createPet.distinct-ids',
    title: 'gives every created pet its own id',
    section: '§2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      await createdSamples(ctx);
      const { duplicateId, createdIds } = ctx.fixtures;
      if (duplicateId !== undefined) fail(`id ${duplicateId} was assigned to two created pets`);
      return pass(`${createdIds.size} created pets, ${createdIds.size} distinct ids`);
    },
  }),
  check({
    id: 'createPet.readable-by-id',
    title: 'a created pet can be fetched by its id, unchanged',
    section: '§4.2, §4.3',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const pets = await createdSamples(ctx);
      for (const { id, sent } of pets) {
        const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
        expectStatus(res, 200, 'for a pet just created');
        const pet = expectPet(res);
        const problem =
          idOf(pet) === id ? difference(pet, sentFields(sent)) : `it is pet ${idOf(pet)}`;
        if (problem !== undefined) fail(`${described(res)}: ${problem}`);
      }
      return pass(`${pets.length} created pets read back unchanged`);
    },
  }),
  check({
    id: 'createPet.listed',
    title: 'a created pet appears in the list',
    section: '§4.1, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const pets = (await createdSamples(ctx)).filter((c) => c.sent.status !== undefined);
      const unknown: string[] = [];
      for (const { id, sent } of pets) {
        const queries = [`?status=${sent.status}&limit=${LIMIT_MAX}`, `?limit=${LIMIT_MAX}`];
        const listed = await listedIn(ctx, id, queries);
        if (listed === false) fail(`pet ${id} (status "${sent.status}") is in no list`);
        if (listed === undefined) unknown.push(id);
      }
      if (unknown.length === pets.length) skip('every list is a full page; the spec has no paging');
      return pass(`${pets.length - unknown.length} created pets found in lists`);
    },
  }),
  ...INVALID_BODIES.map(rejectionCheck),
  check({
    id: 'createPet.category-id-exact',
    title: 'never alters a large int64 categoryId: it is stored exactly or refused with 400',
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const seen: string[] = [];
      for (const categoryId of LARGE_CATEGORY_IDS) {
        const how = `with categoryId ${categoryId}`;
        const res = await createWithCategoryId(ctx, categoryId);
        if (res.status === 400) {
          expectError(res, 400, how);
          seen.push(`${categoryId}: refused`);
          continue;
        }
        expectStatus(res, 201, how);
        const echoed = integerText(expectPet(res, how), 'categoryId');
        if (echoed !== categoryId) fail(`${described(res, how)} answered categoryId ${echoed}`);
        const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(res.body)}` });
        expectStatus(read, 200, `for the pet created ${how}`);
        const stored = integerText(expectPet(read), 'categoryId');
        if (stored !== categoryId)
          fail(`${described(read)} gives categoryId ${stored}, sent ${categoryId}`);
        seen.push(`${categoryId}: exact`);
      }
      return pass(seen.join(', '));
    },
  }),
  check({
    id: 'createPet.category-id-large-accepted',
    title: `accepts categoryId ${ID_MAX} (2^53-1, a valid int64 every client can hold)`,
    section: '§2, §4.2',
    level: 'should',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const how = `with categoryId ${ID_MAX}`;
      const res = await createWithCategoryId(ctx, String(ID_MAX));
      expectStatus(res, 201, how);
      return pass(`${described(res, how)} answered 201`);
    },
  }),
  check({
    id: 'createPet.location-header',
    title: 'sends Location: the created pet’s URL with 201 (RFC 9110)',
    section: '§4.2',
    level: 'should',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const pets = await createdSamples(ctx);
      for (const { id, response } of pets) {
        const location = response.headers.get('location');
        if (location === null) fail(`${described(response)} answered 201 without Location`);
        const path = new URL(location, response.url).pathname;
        if (!path.endsWith(`/pets/${id}`)) fail(`Location "${location}" does not name pet ${id}`);
      }
      return pass(`Location names the created pet (${pets.length} checked)`);
    },
  }),
  check({
    id: 'createPet.unknown-field-rejected',
    title: 'rejects an unknown field with 400 rather than dropping it (the spec leaves it open)',
    section: '§2, §4.2',
    level: 'should',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const how = 'with an unknown field "colour"';
      const json = {
        name: ctx.fixtures.nextName(),
        categoryId: ctx.fixtures.nextCategoryId(),
        colour: 'red',
      };
      const res = await ctx.send({ method: 'POST', path: '/pets', json });
      if (res.status === 201) fail(`${described(res, how)} answered 201; a typo went unnoticed`);
      expectError(res, 400, how);
      return pass(`${described(res, how)} answered 400 with an Error`);
    },
  }),
];
