import { ID_MAX, LIMIT_MAX, PET_STATUSES } from '@animal-store/contract';
import { longNames, type NameCase, nonAsciiNames } from '../cases/names.js';
import {
  type CaseKind,
  fieldCases,
  fieldSeed,
  NEW_PET_FIELDS,
  notObjectBodies,
  type SpecField,
} from '../cases/new-pet.js';
import type { CheckContext } from '../context.js';
import { type Creation, newPetJson, type SentPet } from '../fixtures.js';
import type { HttpResponse } from '../http/client.js';
import { integerText } from '../http/json.js';
import { laterPages } from '../http/pages.js';
import { quote } from '../http/replay.js';
import type { Check } from '../types.js';
import { expectReadBack, readBack } from './read-back.js';
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
  readonly body: (ctx: CheckContext) => string;
}

/** `a-b-c` for `aBC`: check ids are kebab case. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * A well-formed NewPet (with a status) as JSON text, with `field` replaced by `literal`, or left
 * out when `literal` is undefined.
 */
export function bodyWith(ctx: CheckContext, field: string, literal: string | undefined): string {
  const pet = ctx.fixtures.nextPet('available');
  const members = new Map<string, string>([
    ['name', JSON.stringify(pet.name)],
    ['categoryId', pet.categoryId],
    ['status', JSON.stringify(pet.status)],
  ]);
  if (literal === undefined) members.delete(field);
  else members.set(field, literal);
  return `{${[...members].map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

const INVALID_BODIES: readonly InvalidBody[] = [
  ...NEW_PET_FIELDS.filter((field) => field.required).map((field) => ({
    id: `missing-${kebab(field.name)}`,
    what: `a body without ${field.name}`,
    section: '§4.2',
    body: (ctx: CheckContext) => bodyWith(ctx, field.name, undefined),
  })),
  {
    id: 'malformed-json',
    what: 'malformed JSON',
    section: '§4.2',
    body: (ctx) => `{"name": "${ctx.fixtures.nextName()}", "categoryId": `,
  },
  {
    id: 'empty-body',
    what: 'an empty body',
    section: '§4.2',
    body: () => '',
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
      const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: invalid.body(ctx) });
      expectError(res, 400, how);
      return pass(`${described(res, how)} answered 400 with an Error`);
    },
  });
}

/** Sends every case of `kind` for one field; each must be refused with 400 and an Error. */
async function refuseCases(ctx: CheckContext, field: SpecField, kind: CaseKind) {
  const cases = fieldCases(field, fieldSeed(ctx.seed, field)).filter((c) => c.kind === kind);
  for (const invalid of cases) {
    const how = `with ${field.name} ${invalid.what}`;
    const res = await ctx.send({
      method: 'POST',
      path: '/pets',
      rawBody: bodyWith(ctx, field.name, invalid.literal),
    });
    expectError(res, 400, how);
  }
  return pass(
    `${cases.length} invalid values of ${field.name} refused with 400 (seed ${ctx.seed})`,
  );
}

/**
 * Generated cases per NewPet field: every other JSON type, numbers that are no int64 integer,
 * enum near-misses; `must` for what the spec forbids and every JSON parser sees, `should` for
 * null in an optional field and for numbers only their JSON text shows to be no int64 integer.
 */
const GENERATED_CHECKS: readonly Check[] = NEW_PET_FIELDS.flatMap((field) => {
  const kinds = [
    'another JSON type',
    ...(field.schema.type === 'integer' ? ['a number that is no int64 integer'] : []),
    ...(field.schema.enum !== undefined ? ['a string outside the enumeration'] : []),
  ];
  const checks = [
    check({
      id: `createPet.invalid-${kebab(field.name)}`,
      title: `rejects a ${field.name} that is ${kinds.join(' or ')} with 400 and an Error (generated from the seed)`,
      section: '§2, §4.2',
      level: 'must',
      group: 'createPet',
      writes: true,
      run: (ctx) => refuseCases(ctx, field, 'invalid'),
    }),
  ];
  if (field.schema.type === 'integer') {
    checks.push(
      check({
        id: `createPet.invalid-${kebab(field.name)}-literal`,
        title: `rejects a ${field.name} whose JSON text is no int64 integer although the nearest double is one (8.0000000000000001, 2^63 + 1) with 400 (generated from the seed)`,
        section: '§2, §4.2',
        rule: 'RFC 8259 §6: a parser may hold numbers as doubles, which cannot tell these from integers; the reference judges the number as written',
        level: 'should',
        group: 'createPet',
        writes: true,
        run: (ctx) => refuseCases(ctx, field, 'literal'),
      }),
    );
  }
  if (!field.required) {
    checks.push(
      check({
        id: `createPet.${kebab(field.name)}-null-rejected`,
        title: `rejects ${field.name}: null with 400 (the optional field is absent or a ${field.name}, never null)`,
        section: '§2, §4.2',
        rule: 'the reference: null is not a value of the field (JSON Schema)',
        level: 'should',
        group: 'createPet',
        writes: true,
        run: (ctx) => refuseCases(ctx, field, 'null'),
      }),
    );
  }
  return checks;
});

/** The largest categoryId a double holds exactly: every JSON parser keeps it (RFC 8259 §6). */
const EXACT_CATEGORY_IDS = [String(ID_MAX)];
/** Valid int64 categoryIds beyond 2^53: only a parser that keeps the JSON text keeps them. */
const BEYOND_DOUBLE_CATEGORY_IDS = ['9007199254740993', '9223372036854775807'];

/** `createPet` with a categoryId written as-is into the JSON text, shared between checks. */
export function createWithCategoryId(ctx: CheckContext, categoryId: string): Promise<HttpResponse> {
  return ctx.memo(`create with categoryId ${categoryId}`, () =>
    ctx.send({
      method: 'POST',
      path: '/pets',
      rawBody: bodyWith(ctx, 'categoryId', categoryId),
    }),
  );
}

/** Each categoryId is refused with a 4xx Error, or created and read back exactly as sent. */
async function categoryIdsKept(ctx: CheckContext, categoryIds: readonly string[]) {
  const seen: string[] = [];
  for (const categoryId of categoryIds) {
    const how = `with categoryId ${categoryId}`;
    const res = await createWithCategoryId(ctx, categoryId);
    // A server may refuse ids it does not know (the spec does not show categories).
    if (res.status >= 400 && res.status <= 499) {
      expectError(res, res.status, how);
      seen.push(`${categoryId}: refused (${res.status})`);
      continue;
    }
    expectStatus(res, 201, how);
    const echoed = integerText(expectPet(res, how), 'categoryId');
    if (echoed !== categoryId) fail(`${described(res, how)} answered categoryId ${echoed}`);
    const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(res.body)}` });
    expectStatus(read, 200, `for the pet created ${how}`);
    const stored = integerText(expectPet(read), 'categoryId');
    if (stored !== categoryId) {
      fail(`${described(read)} gives categoryId ${stored}, sent ${categoryId}`);
    }
    seen.push(`${categoryId}: exact`);
  }
  return pass(seen.join(', '));
}

/**
 * Each name is refused with 400 and an Error (a server may limit names: the spec sets no limit),
 * or created, answered and read back exactly as sent.
 */
export async function namesKept(ctx: CheckContext, cases: readonly NameCase[]) {
  const seen: string[] = [];
  for (const { what, name } of cases) {
    const how = `with ${what}`;
    const sent: SentPet = { ...ctx.fixtures.nextPet('available'), name };
    const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: newPetJson(sent) });
    if (res.status === 400) {
      expectError(res, 400, how);
      seen.push(`${what}: refused`);
      continue;
    }
    expectStatus(res, 201, how);
    const created = expectPet(res, how);
    const answered = difference(created, sentFields(sent));
    if (answered !== undefined) fail(`${described(res, how)}: ${answered}`, res);
    const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(created)}` });
    expectStatus(read, 200, `for the pet created ${how}`);
    const stored = difference(expectPet(read), sentFields(sent));
    if (stored !== undefined) fail(`${described(read)} (the pet created ${how}): ${stored}`, read);
    seen.push(`${what}: kept`);
  }
  return pass(seen.join(', '));
}

/** A `must` check that `namesKept` the names `cases` makes from fresh names of the run. */
function nameCheck(id: string, title: string, cases: (tagged: () => string) => NameCase[]): Check {
  return check({
    id: `createPet.${id}`,
    title,
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    run: (ctx) =>
      namesKept(
        ctx,
        cases(() => ctx.fixtures.nextName()),
      ),
  });
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
  if (complete) return false;
  // Every first page was full: the server's own next pages, when it offers them.
  for (const query of queries) {
    for await (const page of laterPages(ctx, await ctx.list(query))) {
      if (page.items.some((pet) => idOf(pet) === id)) return true;
    }
  }
  return undefined;
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
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      await createdSamples(ctx);
      const pets = await readBack(ctx);
      for (const pet of pets) expectReadBack(pet);
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
  ...GENERATED_CHECKS,
  check({
    id: 'createPet.category-id-exact',
    title: `never alters categoryId ${ID_MAX} (2^53-1, which every JSON parser holds): it is stored exactly or refused with an Error`,
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    run: (ctx) => categoryIdsKept(ctx, EXACT_CATEGORY_IDS),
  }),
  check({
    id: 'createPet.category-id-beyond-double-exact',
    title: `never alters an int64 categoryId beyond 2^53 (${BEYOND_DOUBLE_CATEGORY_IDS.join(', ')}): it is stored exactly or refused with an Error`,
    section: '§2, §4.2',
    rule: 'RFC 8259 §6: a parser that holds numbers as doubles rounds these; an int64 is kept exactly',
    level: 'should',
    group: 'createPet',
    writes: true,
    run: (ctx) => categoryIdsKept(ctx, BEYOND_DOUBLE_CATEGORY_IDS),
  }),
  check({
    id: 'createPet.category-id-large-accepted',
    title: `accepts categoryId ${ID_MAX} (2^53-1, a valid int64 every client can hold)`,
    section: '§2, §4.2',
    rule: 'RFC 8259 §6: integers within ±(2^53-1) are exact in every JSON client',
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
    id: 'createPet.body-not-object',
    title:
      'rejects a body whose top level is no object (an array, a string, a number, null, a boolean) with 400 and an Error',
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const pet = newPetJson(ctx.fixtures.nextPet('available'));
      const cases = notObjectBodies(pet, ctx.seed);
      for (const { what, body } of cases) {
        const how = `with ${what} as the body`;
        const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: body });
        expectError(res, 400, how);
      }
      return pass(`${cases.length} bodies that are no object refused with 400`);
    },
  }),
  check({
    id: 'createPet.id-assigned-by-service',
    title: 'never takes an id sent in the body: the service assigns ids, and no pet is overwritten',
    section: '§2, §4.2',
    level: 'must',
    group: 'createPet',
    writes: true,
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
  nameCheck(
    'long-name-kept',
    'keeps a name longer than the kit’s own exactly as sent, or refuses it with 400 (the spec sets no limit)',
    longNames,
  ),
  nameCheck(
    'non-ascii-name-kept',
    'keeps a name beyond ASCII exactly as sent (UTF-8), or refuses it with 400',
    nonAsciiNames,
  ),
  check({
    id: 'createPet.location-header',
    title: 'sends Location: the created pet’s URL with 201 (RFC 9110)',
    section: '§4.2',
    rule: 'RFC 9110 §15.3.2',
    level: 'should',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const pets = await createdSamples(ctx);
      for (const { id, response } of pets) {
        const location = response.headers.get('location');
        if (location === null)
          fail(`${described(response)} answered 201 without Location`, response);
        const path = new URL(location, response.url).pathname;
        if (!path.endsWith(`/pets/${id}`)) {
          fail(`Location ${quote(location)} does not name pet ${id}`, response);
        }
      }
      return pass(`Location names the created pet (${pets.length} checked)`);
    },
  }),
  check({
    id: 'createPet.unknown-field-rejected',
    title: 'rejects an unknown field with 400 rather than dropping it (the spec leaves it open)',
    section: '§2, §4.2',
    rule: 'the reference: a typo must not be dropped silently',
    level: 'should',
    group: 'createPet',
    writes: true,
    async run(ctx) {
      const how = 'with an unknown field "colour"';
      const res = await ctx.send({
        method: 'POST',
        path: '/pets',
        rawBody: bodyWith(ctx, 'colour', '"red"'),
      });
      if (res.status === 201) fail(`${described(res, how)} answered 201; a typo went unnoticed`);
      expectError(res, 400, how);
      return pass(`${described(res, how)} answered 400 with an Error`);
    },
  }),
];
