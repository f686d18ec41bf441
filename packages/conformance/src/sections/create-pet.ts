// createPet (spec §2, §4.2): the bodies it refuses, the names and categoryIds it keeps exactly,
// and the request shapes it answers 201. Boundary classes of every field are sent on every run;
// where the spec leaves the answer open, a check accepts each legitimate answer and nothing else.
import { ID_MAX } from '@animal-store/contract';
import { headerNames, ordinaryHeaders } from '../cases/headers.js';
import {
  LONG_NAME_LENGTHS,
  longNames,
  type NameCase,
  nonAsciiNames,
  TYPED_LOOKING_NAMES,
} from '../cases/names.js';
import {
  type CaseKind,
  capitalised,
  fieldCases,
  fieldSeed,
  kebab,
  NEW_PET_FIELDS,
  notObjectBodies,
  SNAKE_CASED_FIELDS,
  type SpecField,
  snakeCase,
} from '../cases/new-pet.js';
import type { CheckContext } from '../context.js';
import { newPetJson, type SentPet } from '../fixtures.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { integerText, numberText } from '../http/json.js';
import { RawConnection } from '../http/raw-connection.js';
import { quote } from '../http/replay.js';
import { isInt64 } from '../oracles.js';
import { createdSamples } from './read-back.js';
import {
  type DeclaredCheck,
  declarer,
  described,
  difference,
  everyCase,
  expectCreatedOrRefused,
  expectError,
  expectPet,
  expectStatus,
  fail,
  INT64_MAX,
  idOf,
  orLost,
  pass,
  type SpecSection,
  sameAsDouble,
  sentFields,
} from './support.js';

const check = declarer('§2, §4.2');

/**
 * Creates a server refuses before it need read the body: one without name sent chunked, and
 * valid ones without a key, with Content-Length and chunked. Each with how a message names it.
 */
function refusedUnread(ctx: CheckContext): [string, Partial<HttpRequest>][] {
  return [
    ['a NewPet without name, sent chunked', { rawBody: '{"categoryId":1}', chunked: true }],
    [
      'a NewPet without a key',
      { rawBody: newPetJson(ctx.fixtures.nextPet()), authorization: null },
    ],
    [
      'a NewPet without a key, sent chunked',
      { rawBody: newPetJson(ctx.fixtures.nextPet()), authorization: null, chunked: true },
    ],
  ];
}

/** How a check names a body sent in the chunked transfer coding, without Content-Length. */
const CHUNKED = 'chunked';

/**
 * A valid NewPet sent chunked, once a run: `createPet.request-shapes` and
 * `createPet.chunked-accepted` judge the one answer, and the run creates one pet for both.
 */
export const createdChunked = (ctx: CheckContext): Promise<HttpResponse> =>
  ctx.memo('createPet chunked', () =>
    ctx.send({
      method: 'POST',
      path: '/pets',
      rawBody: bodyWith(ctx, 'status', '"available"'),
      chunked: true,
    }),
  );

/**
 * `application/json` as a client may write it: RFC 9110 §8.3.1 makes type, subtype and parameter
 * names case-insensitive and lets white space surround the `;` and a parameter value be quoted,
 * and RFC 8259 §11 gives `charset` no effect on a compliant recipient.
 */
export const MEDIA_TYPE_SPELLINGS = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json ; charset="utf-8"',
  'Application/JSON',
  'APPLICATION/JSON; CHARSET=UTF-8',
] as const;

/** A request body `createPet` must refuse with 400, and how to describe it. */
interface InvalidBody {
  readonly id: string;
  readonly what: string;
  readonly section: string;
  readonly body: (ctx: CheckContext) => string;
  /** The query string the request carries (`?…`), when it carries one. */
  readonly query?: (ctx: CheckContext) => string;
}

/**
 * A well-formed NewPet (with a status) as JSON text, with `field` replaced by `literal`, or left
 * out when `literal` is undefined.
 */
export function bodyWith(ctx: CheckContext, field: string, literal: string | undefined): string {
  const members = newPetMembers(ctx);
  if (literal === undefined) members.delete(field);
  else members.set(field, literal);
  return objectText(members);
}

/** A well-formed NewPet as JSON text with `field`'s member named `name` instead. */
function bodyRenaming(ctx: CheckContext, field: string, name: string): string {
  const members = newPetMembers(ctx);
  const renamed = new Map([...members].map(([key, value]) => [key === field ? name : key, value]));
  return objectText(renamed);
}

/** The members of the next well-formed NewPet (with a status): name to JSON text. */
function newPetMembers(ctx: CheckContext): Map<string, string> {
  return membersOf(ctx.fixtures.nextPet('available'));
}

/** The members of `pet` (sent with a status): name to JSON text. */
function membersOf(pet: SentPet): Map<string, string> {
  return new Map<string, string>([
    ['name', JSON.stringify(pet.name)],
    ['categoryId', pet.categoryId],
    ['status', JSON.stringify(pet.status)],
  ]);
}

const objectText = (members: ReadonlyMap<string, string>): string =>
  `{${[...members].map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;

const INVALID_BODIES: readonly InvalidBody[] = [
  ...NEW_PET_FIELDS.filter((field) => field.required).map((field) => ({
    id: `missing-${kebab(field.name)}`,
    what: `a body without ${field.name}`,
    section: '§4.2',
    body: (ctx: CheckContext) => bodyWith(ctx, field.name, undefined),
  })),
  // Member names are compared code unit by code unit (RFC 8259 §8.3): a body whose `Name` is
  // spelled in another letter case has no `name`, whatever a case-insensitive binder makes of it.
  ...NEW_PET_FIELDS.filter((field) => field.required).map((field) => ({
    id: `missing-${kebab(field.name)}-other-case`,
    what: `a body with ${capitalised(field.name)} but no ${field.name}`,
    section: '§4.2',
    body: (ctx: CheckContext) => bodyRenaming(ctx, field.name, capitalised(field.name)),
  })),
  // A binder that maps member names to snake case, or takes that spelling too (Jackson's
  // SNAKE_CASE, serde's rename_all, a Pydantic alias), finds `category_id`: the body has no
  // `categoryId` all the same.
  ...SNAKE_CASED_FIELDS.map((field) => ({
    id: `missing-${kebab(field.name)}-snake-case`,
    what: `a body with ${snakeCase(field.name)} but no ${field.name}`,
    section: '§4.2',
    body: (ctx: CheckContext) => bodyRenaming(ctx, field.name, snakeCase(field.name)),
  })),
  // The body is NewPet: a field given in the query string alone is missing, whatever a binder
  // that merges the query with the body (Laravel's `$request->input()`) makes of it.
  ...NEW_PET_FIELDS.filter((field) => field.required).map((field) => ({
    id: `missing-${kebab(field.name)}-in-query`,
    what: `a body without ${field.name}, given in the query string instead`,
    section: '§4.2',
    body: (ctx: CheckContext) => bodyWith(ctx, field.name, undefined),
    query: (ctx: CheckContext) => {
      // The value as a query string writes it: a string's characters, a number's digits.
      const pet = ctx.fixtures.nextPet('available');
      return `?${new URLSearchParams({ [field.name]: String(pet[field.name as keyof SentPet]) })}`;
    },
  })),
  // The body is NewPet itself: one wrapped in a member has no field of its own, whatever a binder
  // that unwraps a root member (Rails' `params.require(:pet)`, Jackson's UNWRAP_ROOT_VALUE) finds.
  {
    id: 'wrapped-body',
    what: 'a NewPet wrapped in a member ({"pet": {...}}), with no field of its own',
    section: '§4.2',
    body: (ctx) => `{"pet":${objectText(newPetMembers(ctx))}}`,
  },
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
  {
    // RFC 8259 §2: a JSON text is one value, with white space around it; white space alone is
    // none, whatever a reader that takes it for an empty body makes of it.
    id: 'blank-body',
    what: 'a body of white space alone',
    section: '§4.2',
    body: () => ' \t\r\n ',
  },
];

function rejectionCheck(invalid: InvalidBody): DeclaredCheck {
  return check({
    id: `createPet.${invalid.id}`,
    title: `rejects ${invalid.what} with 400 and an Error`,
    section: invalid.section,
    async run(ctx) {
      const how = `with ${invalid.what}`;
      const path = `/pets${invalid.query?.(ctx) ?? ''}`;
      const res = await ctx.send({ method: 'POST', path, rawBody: invalid.body(ctx) });
      expectError(res, 400, how);
      return pass(`${described(res, how)} answered 400 with an Error`);
    },
  });
}

/** Sends every case of `kind` for one field; each must be refused with 400 and an Error. */
async function refuseCases(ctx: CheckContext, field: SpecField, kind: CaseKind) {
  const cases = fieldCases(field, fieldSeed(ctx.seed, field)).filter((c) => c.kind === kind);
  await everyCase(ctx, cases, async (invalid) => {
    const how = `with ${field.name} ${invalid.what}`;
    // A categoryId only its JSON text shows to be no int64 is sent once a run, and judged by
    // this check and by createPet.category-id-beyond-int64-exact.
    const res =
      field.name === 'categoryId' && kind === 'literal'
        ? await createWithCategoryId(ctx, invalid.literal)
        : await ctx.send({
            method: 'POST',
            path: '/pets',
            rawBody: bodyWith(ctx, field.name, invalid.literal),
          });
    expectError(res, 400, how);
  });
  return pass(
    `${cases.length} invalid values of ${field.name} refused with 400 (seed ${ctx.seed})`,
  );
}

/**
 * Generated cases per NewPet field: every other JSON type, numbers that are no int64 integer,
 * enum near-misses; `must` for what the spec forbids and every JSON parser sees, `should` for
 * null in an optional field and for numbers only their JSON text shows to be no int64 integer.
 */
const GENERATED_CHECKS: readonly DeclaredCheck[] = NEW_PET_FIELDS.flatMap((field) => {
  const kinds = [
    'another JSON type',
    ...(field.schema.type === 'integer' ? ['a number that is no int64 integer'] : []),
    ...(field.schema.enum !== undefined ? ['a string outside the enumeration'] : []),
  ];
  const checks = [
    check({
      id: `createPet.invalid-${kebab(field.name)}`,
      title: `rejects a ${field.name} that is ${kinds.join(' or ')} with 400 and an Error (generated from the seed)`,
      run: (ctx) => refuseCases(ctx, field, 'invalid'),
    }),
  ];
  if (field.schema.type === 'integer') {
    checks.push(
      check({
        id: `createPet.invalid-${kebab(field.name)}-literal`,
        title: `rejects a ${field.name} whose JSON text is no int64 integer although the nearest double is one (8.0000000000000001, 2^63 + 1) with 400 (generated from the seed)`,
        rule: 'RFC 8259 §6: a parser may hold numbers as doubles, which cannot tell these from integers; the reference judges the number as written',
        run: (ctx) => refuseCases(ctx, field, 'literal'),
      }),
    );
  }
  if (!field.required) {
    checks.push(
      check({
        id: `createPet.${kebab(field.name)}-null-rejected`,
        title: `rejects ${field.name}: null with 400 (the optional field is absent or a ${field.name}, never null)`,
        rule: 'the reference: null is not a value of the field (JSON Schema)',
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

/**
 * True for a number's JSON text that no double holds, so that an answer showing it digit for
 * digit kept it exactly: an integer a double rounds (2^63 + 1, -2^63 - 1; 2^63 is a double), or a
 * fraction a double rounds to an integer (`8.0000000000000001`), which no double prints.
 */
function noDoubleHolds(literal: string): boolean {
  const double = Number(literal);
  if (!Number.isFinite(double)) return true;
  if (/^-?\d+$/.test(literal)) return BigInt(double) !== BigInt(literal);
  return Number.isInteger(double) && /\.\d*[1-9]/.test(literal);
}

/** Statuses that refuse a value: told apart from a failure that says nothing of the value. */
const VALIDATION_REFUSALS: ReadonlySet<number> = new Set([400, 422]);

/**
 * Another integer literal beyond int64 that a double reads as the same number as `taken` (which
 * the server took), refused with `VALIDATION_REFUSALS`, and refused so again when sent once more
 * right after a valid NewPet was created: a server that answers them apart reads their text, and
 * not for a state of the store (full, a quota) that changed between them. Only literals beyond
 * int64 are compared: PHP's `json_decode` and serde_json read an int64 exactly and a larger
 * integer as a double, and may judge the two by other rules.
 */
async function toldApart(
  ctx: CheckContext,
  taken: string,
  answers: ReadonlyMap<string, HttpResponse>,
): Promise<{ text: string; status: number } | undefined> {
  const beyond = (text: string) => /^-?\d+$/.test(text) && !isInt64(BigInt(text));
  if (!beyond(taken)) return undefined;
  for (const [text, res] of answers) {
    if (text === taken || !beyond(text) || Number(text) !== Number(taken)) continue;
    if (!VALIDATION_REFUSALS.has(res.status)) continue;
    const valid = await ctx.send({
      method: 'POST',
      path: '/pets',
      rawBody: newPetJson(ctx.fixtures.nextPet('available')),
    });
    if (valid.status < 200 || valid.status > 299) return undefined;
    const again = await ctx.send(categoryIdRequest(ctx, text));
    if (VALIDATION_REFUSALS.has(again.status)) return { text, status: again.status };
  }
  return undefined;
}

/** `createPet` with a categoryId written as-is into the JSON text, shared between checks. */
function createWithCategoryId(ctx: CheckContext, categoryId: string): Promise<HttpResponse> {
  return ctx.memo(`create with categoryId ${categoryId}`, () =>
    ctx.send(categoryIdRequest(ctx, categoryId)),
  );
}

/** A createPet request whose categoryId is `categoryId` written as-is into the JSON text. */
function categoryIdRequest(ctx: CheckContext, categoryId: string): HttpRequest {
  return { method: 'POST', path: '/pets', rawBody: bodyWith(ctx, 'categoryId', categoryId) };
}

/** Each categoryId is refused with a 4xx Error, or created and read back exactly as sent. */
async function categoryIdsKept(ctx: CheckContext, categoryIds: readonly string[]) {
  const seen: string[] = [];
  await everyCase(ctx, categoryIds, async (categoryId) => {
    const how = `with categoryId ${categoryId}`;
    const res = await createWithCategoryId(ctx, categoryId);
    // A server may refuse ids it does not know (the spec does not show categories).
    if (res.status >= 400 && res.status <= 499) {
      expectError(res, res.status, how);
      seen.push(`${categoryId}: refused (${res.status})`);
      return;
    }
    expectStatus(res, 201, how);
    const echoed = integerText(expectPet(res, how), 'categoryId');
    if (echoed !== categoryId) fail(`${described(res, how)} answered categoryId ${echoed}`, res);
    const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(res.body)}` });
    expectStatus(read, 200, `for the pet created ${how}`);
    const stored = integerText(expectPet(read), 'categoryId');
    if (stored !== categoryId) {
      fail(`${described(read)} gives categoryId ${stored}, sent ${categoryId}`, read);
    }
    seen.push(`${categoryId}: exact`);
  });
  return pass(seen.join(', '));
}

/**
 * Each name is refused with 400 and an Error (a server may limit names: the spec sets no limit),
 * or created, answered and read back exactly as sent.
 */
async function namesKept(ctx: CheckContext, cases: readonly NameCase[]) {
  const seen: string[] = [];
  await everyCase(ctx, cases, async ({ what, name }) => {
    const how = `with ${what}`;
    const sent: SentPet = { ...ctx.fixtures.nextPet('available'), name };
    const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: newPetJson(sent) });
    // 400 refuses the name; 413 the body's size, a limit the spec leaves to the server (§8).
    expectStatus(res, [201, 400, 413], how);
    if (res.status !== 201) {
      expectError(res, res.status, how);
      seen.push(`${what}: refused${res.status === 413 ? ' (413: the body is too large)' : ''}`);
      return;
    }
    const created = expectPet(res, how);
    const answered = difference(created, sentFields(sent));
    if (answered !== undefined) fail(`${described(res, how)}: ${answered}`, res);
    const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(created)}` });
    expectStatus(read, 200, `for the pet created ${how}`);
    const stored = difference(expectPet(read), sentFields(sent));
    if (stored !== undefined) fail(`${described(read)} (the pet created ${how}): ${stored}`, read);
    seen.push(`${what}: kept`);
  });
  return pass(seen.join(', '));
}

/** A `must` check that `namesKept` the names `cases` makes from fresh names of the run. */
function nameCheck(
  id: string,
  title: string,
  cases: (tagged: () => string) => NameCase[],
): DeclaredCheck {
  return check({
    id: `createPet.${id}`,
    title,
    run: (ctx) =>
      namesKept(
        ctx,
        cases(() => ctx.fixtures.nextName()),
      ),
  });
}

/** Names at the edges of a string, each kept exactly or refused with 400 (no limit is shown). */
function stringBoundaryNames(tagged: () => string): NameCase[] {
  return [
    { what: 'an empty name', name: '' },
    { what: 'a name of spaces only', name: '   ' },
    { what: 'a name padded with spaces', name: ` ${tagged()} ` },
    { what: 'a name ending in a space', name: `${tagged()} ` },
    { what: 'a name holding a double quote', name: `${tagged()}"q` },
    { what: "a name holding markup and an apostrophe (& < > ')", name: `${tagged()}&<b>'s` },
    { what: 'a name holding a backslash', name: `${tagged()}\\b` },
    { what: 'a name holding a slash', name: `${tagged()}/s` },
    { what: 'a name holding control characters', name: `${tagged()}\u0001\u001f` },
    // JSON's \u0000 (RFC 8259 §7): PostgreSQL's text refuses the character, a C string ends there.
    { what: 'a name holding a NUL character', name: `${tagged()}\u0000n` },
    { what: 'a name holding a tab and a line feed', name: `${tagged()}\t\n` },
    ...TYPED_LOOKING_NAMES,
  ];
}

/** Valid int64 values of categoryId at the type's edges: each is stored or refused. */
const INT64_BOUNDARIES = [
  '0',
  '-1',
  '1',
  String(2n ** 53n + 1n),
  String(INT64_MAX),
  String(-INT64_MAX - 1n),
] as const;

/**
 * Each categoryId is refused with a 4xx Error, or created and shown (201, getPet) as sent, as a
 * client holding doubles sees it.
 */
async function integersKept(ctx: CheckContext, values: readonly string[]) {
  const seen: string[] = [];
  await everyCase(ctx, values, async (value) => {
    const how = `with categoryId ${value}`;
    const res = await createWithCategoryId(ctx, value);
    if (res.status >= 400 && res.status <= 499) {
      expectError(res, res.status, how);
      seen.push(`${value}: ${res.status}`);
      return;
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
  });
  return pass(seen.join(', '));
}

/** `createPet` (spec §4.2): what it refuses, what it keeps, how it answers. */
export const createPetSection: SpecSection = {
  rows: [
    {
      section: '§4.2',
      statement:
        'createPet refuses a body missing required fields or not JSON with 400 and an Error',
      oracle:
        '400 with an Error (a NewPet with more after it: advisory, RFC 8259 §9 lets a parser read its first value)',
      inputs:
        'without name, without categoryId, each of them only in another letter case (Name, CategoryId) or only in the query string, categoryId only as category_id, malformed JSON, a NewPet with more after it, an empty body, a body of white space alone, every JSON type but an object at the top level',
      checks: [
        'createPet.missing-name',
        'createPet.missing-category-id',
        'createPet.missing-name-other-case',
        'createPet.missing-category-id-other-case',
        'createPet.missing-category-id-snake-case',
        'createPet.missing-name-in-query',
        'createPet.missing-category-id-in-query',
        'createPet.wrapped-body',
        'createPet.malformed-json',
        'createPet.trailing-content',
        'createPet.empty-body',
        'createPet.blank-body',
        'createPet.body-not-object',
      ],
    },
    {
      section: '§2, §4.2',
      statement: 'createPet refuses a field of another type than the spec’s with 400 and an Error',
      oracle: '400 with an Error',
      inputs:
        'each field as every other JSON type (true and false, null, a number, a string, an array, an object), and in a one-element array; categoryId a fraction, beyond int64 (2^63, 2^64, 10^19 and their negatives), in a string, the empty string; status in other letter case, padded, empty, an index of the enumeration (0, "0", ...), outside the enumeration',
      checks: [
        'createPet.invalid-*',
        'createPet.invalid-category-id-literal',
        'createPet.category-id-beyond-int64-exact',
        'createPet.status-null-rejected',
      ],
    },
    {
      section: '§2, §4.2',
      statement: 'name is a string; limits on it are not shown',
      oracle:
        '201 with the name kept exactly (in the 201 body, getPet and lists), or 400 with an Error; never a 5xx, never a changed name',
      inputs: `empty, whitespace only, padded, holding ", \\ and /, & < > and ', control characters, reading as a date-time, a number or a boolean, long (${LONG_NAME_LENGTHS.join(', ')}), beyond ASCII (2-, 3- and 4-byte UTF-8)`,
      checks: [
        'createPet.string-boundaries',
        'createPet.long-name-kept',
        'createPet.non-ascii-name-kept',
      ],
    },
    {
      section: '§2, §4.2',
      statement: 'categoryId is an int64; categories are not shown',
      oracle:
        'a valid int64 is stored exactly or refused with a 4xx Error (a server may not know the category); never a 5xx',
      inputs: '0, -1, 1, 2^53-1, 2^53+1, int64 minimum and maximum',
      checks: [
        'createPet.integer-boundaries',
        'createPet.category-id-exact',
        'createPet.category-id-beyond-double-exact',
        'createPet.category-id-large-accepted',
      ],
    },
    {
      section: '§2, §4.2',
      statement: 'NewPet has name, categoryId and status; other fields are not shown',
      oracle:
        'an unknown field is refused with 400 or ignored (advisory); a member in another letter case is unknown, never read as the field',
      inputs:
        'a body with "colour"; each field beside a member of its name in another letter case (Name, CategoryId, Status) holding another value',
      checks: ['createPet.unknown-field-rejected', 'createPet.recased-members'],
    },
    {
      section: '§4.2',
      statement: 'createPet answers 201 with the created Pet',
      oracle:
        'whatever shape a client sends the body in: 201; a body sent chunked may instead get 411 with an Error, as HTTP lets a server answer a body without Content-Length (advisory); the next request on the connection of a refused body gets its own answer; a refused body on a connection the request asked to close gets one answer and nothing after it (advisory)',
      inputs:
        'a body with Content-Length and chunked; with Expect: 100-continue (the body sent at once); with and without Cache-Control, Accept */*, an axios Accept, a browser navigation Accept (text/html first), a browser User-Agent, Pragma; Content-Type application/json with charset=utf-8, in other letter case, with white space around ";" and a quoted parameter value; a listPets on the connection of a NewPet without name sent chunked, of a NewPet without a key, sent with Content-Length and chunked; those NewPets with Connection: close, the connection read to its end',
      checks: [
        'createPet.request-shapes',
        'createPet.chunked-accepted',
        'createPet.unread-body',
        'createPet.refused-body-on-close',
        'createPet.media-type-spellings',
        'createPet.location-header',
      ],
    },
  ],
  checks: [
    ...INVALID_BODIES.map(rejectionCheck),
    ...GENERATED_CHECKS,
    check({
      id: 'createPet.category-id-exact',
      title: `never alters categoryId ${ID_MAX} (2^53-1, which every JSON parser holds): it is stored exactly or refused with an Error`,
      run: (ctx) => categoryIdsKept(ctx, EXACT_CATEGORY_IDS),
    }),
    check({
      id: 'createPet.category-id-beyond-double-exact',
      title: `never alters an int64 categoryId beyond 2^53 (${BEYOND_DOUBLE_CATEGORY_IDS.join(', ')}): it is stored exactly or refused with an Error`,
      rule: 'RFC 8259 §6: a parser that holds numbers as doubles rounds these; an int64 is kept exactly',
      run: (ctx) => categoryIdsKept(ctx, BEYOND_DOUBLE_CATEGORY_IDS),
    }),
    check({
      id: 'createPet.category-id-large-accepted',
      title: `accepts categoryId ${ID_MAX} (2^53-1, a valid int64 every client can hold)`,
      rule: 'RFC 8259 §6: integers within ±(2^53-1) are exact in every JSON client',
      async run(ctx) {
        const how = `with categoryId ${ID_MAX}`;
        const res = await createWithCategoryId(ctx, String(ID_MAX));
        expectStatus(res, 201, how);
        return pass(`${described(res, how)} answered 201`);
      },
    }),
    check({
      id: 'createPet.category-id-beyond-int64-exact',
      title:
        'never accepts a categoryId whose JSON text is no int64 integer although a double reads it as one (2^63, -2^63 - 1, 2^63 + n, a fraction a double rounds to an integer) from a server that shows it reads such texts exactly: it takes one and refuses another beyond int64 that a double reads as the same number (2^63 taken, 2^63 + n refused, again right after), or shows the value sent digit for digit, which no double holds, in the 201 or in getPet (generated from the seed)',
      async run(ctx) {
        const field = NEW_PET_FIELDS.find((f) => f.name === 'categoryId') as SpecField;
        const literals = fieldCases(field, fieldSeed(ctx.seed, field)).filter(
          (c) => c.kind === 'literal',
        );
        // Each literal once a run, shared with invalid-category-id-literal; a connection closed
        // instead of an answer is how a server may refuse one, which that check judges.
        const answers = new Map<string, HttpResponse>();
        const seen: string[] = [];
        for (const { literal } of literals) {
          const res = await orLost(createWithCategoryId(ctx, literal));
          if ('lost' in res) seen.push(`${literal}: no answer (${res.lost})`);
          else answers.set(literal, res);
        }
        await everyCase(ctx, literals, async (literal) => {
          const how = `with categoryId ${literal.what}`;
          const res = answers.get(literal.literal);
          // A refusal is createPet.invalid-category-id-literal's to judge (it advises 400).
          if (res === undefined) return;
          if (res.status < 200 || res.status > 299) {
            seen.push(`${literal.literal}: ${res.status}`);
            return;
          }
          const noInt64 = `${literal.literal} is no int64 (§2), an invalid value (§4.2)`;
          const told = await toldApart(ctx, literal.literal, answers);
          if (told !== undefined) {
            fail(
              `${described(res, how)} answered ${res.status}, while categoryId ${told.text}, also beyond int64 and the same number to a double, was refused ${told.status}, again right after, when a valid NewPet was created: the server reads these integers exactly, and ${noInt64}`,
              res,
            );
          }
          const shown = numberText(res.body, 'categoryId');
          if (shown === literal.literal && noDoubleHolds(literal.literal)) {
            fail(
              `${described(res, how)} answered ${res.status} showing categoryId ${shown} digit for digit, which no double holds: ${noInt64}`,
              res,
            );
          }
          const id = idOf(res.body);
          if (id !== undefined && noDoubleHolds(literal.literal)) {
            const read = await ctx.send({ method: 'GET', path: `/pets/${id}` });
            if (read.status === 200 && numberText(read.body, 'categoryId') === literal.literal) {
              fail(
                `${described(read)}, a pet created ${how}, shows categoryId ${literal.literal} digit for digit, which no double holds: ${noInt64}`,
                read,
              );
            }
          }
          seen.push(`${literal.literal}: ${res.status} (categoryId ${shown} shown)`);
        });
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'createPet.trailing-content',
      title:
        'rejects a NewPet followed by more than white space (a second NewPet, a stray "}") with 400 and an Error',
      section: '§4.2',
      rule: "RFC 8259 §2: a JSON text is one value between white space (§9 lets a parser take non-JSON forms, as Go's json.Decoder and Jackson's defaults read the first value, so the spec asks no refusal)",
      async run(ctx) {
        // A reader that stops after the first value (Go's json.Decoder, Jackson's defaults) takes
        // these for a NewPet.
        const pet = () => newPetJson(ctx.fixtures.nextPet('available'));
        const cases = [
          ['a second NewPet after the first', `${pet()}\n${pet()}`],
          ['a stray "}" after the NewPet', `${pet()}}`],
        ] as const;
        await everyCase(ctx, cases, async ([what, body]) => {
          const how = `with ${what}`;
          const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: body });
          expectError(res, 400, how);
        });
        return pass(`${cases.length} bodies with more after the NewPet refused with 400`);
      },
    }),
    check({
      id: 'createPet.body-not-object',
      title:
        'rejects a body whose top level is no object (an array, a string, a number, null, a boolean) with 400 and an Error',
      async run(ctx) {
        const pet = newPetJson(ctx.fixtures.nextPet('available'));
        const cases = notObjectBodies(pet, ctx.seed);
        await everyCase(ctx, cases, async ({ what, body }) => {
          const how = `with ${what} as the body`;
          const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: body });
          expectError(res, 400, how);
        });
        return pass(`${cases.length} bodies that are no object refused with 400`);
      },
    }),
    nameCheck(
      'long-name-kept',
      'keeps a name longer than the kit’s own exactly as sent, or refuses it with 400, or its body with 413 (the spec sets no limit)',
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
      rule: 'the reference: a typo must not be dropped silently',
      async run(ctx) {
        const how = 'with an unknown field "colour"';
        const res = await ctx.send({
          method: 'POST',
          path: '/pets',
          rawBody: bodyWith(ctx, 'colour', '"red"'),
        });
        if (res.status === 201)
          fail(`${described(res, how)} answered 201; a typo went unnoticed`, res);
        expectError(res, 400, how);
        return pass(`${described(res, how)} answered 400 with an Error`);
      },
    }),
    check({
      id: 'createPet.string-boundaries',
      title:
        'keeps a name at the edges of a string (empty, spaces only, padded, holding ", \\, markup (& < >) or control characters, reading as a date-time, a number or a boolean) exactly as sent, or refuses it with 400 and an Error',
      run: (ctx) =>
        namesKept(
          ctx,
          stringBoundaryNames(() => ctx.fixtures.nextName()),
        ),
    }),
    check({
      id: 'createPet.integer-boundaries',
      title: `stores a categoryId at the edges of int64 (${INT64_BOUNDARIES.join(', ')}) as sent, as a client holding doubles sees it, or refuses it with a 4xx Error`,
      run: (ctx) => integersKept(ctx, INT64_BOUNDARIES),
    }),
    check({
      id: 'createPet.request-shapes',
      title:
        'answers 201 to a valid body sent chunked (or 411 with an Error: HTTP lets a server refuse a body without Content-Length), and with the headers ordinary clients add (Expect: 100-continue, Cache-Control, Accept, User-Agent)',
      section: '§4.2',
      async run(ctx) {
        const shapes: [string, Partial<HttpRequest>][] = [
          [CHUNKED, { chunked: true }],
          // curl (for large bodies) and .NET Framework's clients (for every POST) ask for 100
          // Continue; RFC 9110 §10.1.1 lets a client send the body without waiting for it.
          ['with Expect: 100-continue', { headers: { Expect: '100-continue' } }],
          ...ordinaryHeaders(ctx.fixtures.runId)
            .filter((h) => !('If-None-Match' in h))
            .map((h): [string, Partial<HttpRequest>] => [`with ${headerNames(h)}`, { headers: h }]),
        ];
        let lengthRequired = false;
        await everyCase(ctx, shapes, async ([how, shape]) => {
          const res =
            how === CHUNKED
              ? await createdChunked(ctx)
              : await ctx.send({
                  method: 'POST',
                  path: '/pets',
                  rawBody: bodyWith(ctx, 'status', '"available"'),
                  ...shape,
                });
          if (how === CHUNKED && res.status === 411) {
            expectError(res, 411, how);
            lengthRequired = true;
            return;
          }
          expectStatus(res, 201, how);
          expectPet(res, how);
        });
        return pass(
          lengthRequired
            ? `${shapes.length - 1} request shapes answered 201 with a Pet, the chunked body 411 with an Error`
            : `${shapes.length} request shapes answered 201 with a Pet`,
        );
      },
    }),
    check({
      id: 'createPet.unread-body',
      title:
        'answers a listPets that follows a refused createPet on the same connection as a listPets: a body the server refuses unread (sent chunked; sent without a valid key) is read and dropped, or the connection closed, never taken for the next request (RFC 9112 §9.3)',
      section: '§4.1, §4.2',
      async run(ctx) {
        const refused = refusedUnread(ctx);
        // A server may close rather than keep a connection once it holds its most kept-alive
        // connections: the kit's own idle ones must not be what it holds.
        await ctx.closeIdleConnections();
        await everyCase(ctx, refused, async ([how, shape]) => {
          // Each answer is read off the connection in turn: the bytes after the first are the
          // second's, whatever the server meant them for.
          const connection = new RawConnection();
          try {
            const first = await ctx.send({ method: 'POST', path: '/pets', ...shape, connection });
            const after = `after POST /pets with ${how} (answered ${first.status}) on its connection`;
            const next = await ctx.send({ method: 'GET', path: '/pets?limit=1', connection });
            expectStatus(next, 200, after);
            if (!Array.isArray(next.body)) {
              fail(`${described(next, after)} answered 200 without a Pet array`, next);
            }
          } finally {
            connection.close();
          }
        });
        return pass(
          `a listPets after each of ${refused.length} refused NewPets, on the same connection, answered 200`,
        );
      },
    }),
    check({
      id: 'createPet.refused-body-on-close',
      title:
        'answers a refused createPet whose request asks to close the connection (Connection: close) once: a body it refuses unread (sent chunked; sent without a valid key) is never taken for another request, and nothing follows the answer before the close',
      section: '§4.1, §4.2',
      rule: 'RFC 9112 §9.6: a server that receives the close option processes no further request on that connection',
      async run(ctx) {
        const refused = refusedUnread(ctx);
        let keptOpen = 0;
        await everyCase(ctx, refused, async ([how, shape]) => {
          const connection = new RawConnection();
          try {
            const first = await ctx.send({
              method: 'POST',
              path: '/pets',
              ...shape,
              headers: { Connection: 'close' },
              connection,
            });
            // The kit half-closes once the answer has come, so that a server that keeps the
            // connection open still ends it, after whatever it makes of the body.
            const { bytes, closed } = await connection.afterLastAnswer();
            if (!closed) keptOpen += 1;
            if (bytes.length > 0) {
              const firstLine = bytes.toString('latin1').split('\r\n')[0] ?? '';
              fail(
                `${described(first, `with ${how} and Connection: close`)} answered ${first.status}, then sent ${bytes.length} bytes more before closing the connection, as if the body were another request: ${JSON.stringify(firstLine.slice(0, 80))}`,
                first,
              );
            }
          } finally {
            connection.close();
          }
        });
        const open = keptOpen === 0 ? '' : ` (${keptOpen} kept the connection open after it)`;
        return pass(
          `each of ${refused.length} refused NewPets sent with Connection: close got one answer and nothing after it${open}`,
        );
      },
    }),
    check({
      id: 'createPet.chunked-accepted',
      title:
        'answers 201 to a valid body sent chunked, without Content-Length, as clients that stream a body send it',
      section: '§4.2',
      rule: 'RFC 9112 §6.3 lets a server refuse a body without Content-Length (411); a client that streams its body (fetch with a stream, a body piped from elsewhere) cannot send one',
      async run(ctx) {
        const res = await createdChunked(ctx);
        expectStatus(res, 201, CHUNKED);
        expectPet(res, CHUNKED);
        return pass(`${described(res, CHUNKED)} answered 201 with a Pet`);
      },
    }),
    check({
      id: 'createPet.recased-members',
      title:
        'keeps each field’s own value when the body also holds a member of the same name in another letter case (Name, CategoryId, Status): 201 with the field’s value, or a 4xx Error',
      section: '§2, §4.2',
      async run(ctx) {
        // Member names are compared code unit by code unit (RFC 8259 §8.3): `Name` is not `name`.
        const seen: string[] = [];
        await everyCase(ctx, NEW_PET_FIELDS, async (field) => {
          const sent = ctx.fixtures.nextPet('available');
          const other = ctx.fixtures.nextPet('sold');
          const members = membersOf(sent);
          // After the field: a binder that matches names in any case and lets the last one win
          // (Go's encoding/json, System.Text.Json) takes this value.
          const otherValues = membersOf({
            ...other,
            categoryId: String(BigInt(sent.categoryId) + 1n),
          });
          members.set(capitalised(field.name), otherValues.get(field.name) ?? 'null');
          const how = `with ${capitalised(field.name)} beside ${field.name}`;
          const res = await ctx.send({
            method: 'POST',
            path: '/pets',
            rawBody: objectText(members),
          });
          expectCreatedOrRefused(res, how, sent);
          seen.push(`${capitalised(field.name)}: ${res.status}`);
        });
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'createPet.media-type-spellings',
      title: `answers 201 with the pet as sent to a NewPet whose Content-Type is application/json in every legal spelling (${MEDIA_TYPE_SPELLINGS.map((m) => JSON.stringify(m)).join(', ')})`,
      section: '§1, §4.2',
      async run(ctx) {
        await everyCase(ctx, MEDIA_TYPE_SPELLINGS, async (mediaType) => {
          const how = `with Content-Type: ${mediaType}`;
          const sent = ctx.fixtures.nextPet('pending');
          const res = await ctx.send({
            method: 'POST',
            path: '/pets',
            rawBody: newPetJson(sent),
            headers: { 'Content-Type': mediaType },
          });
          expectStatus(res, 201, how);
          const problem = difference(expectPet(res, how), sentFields(sent));
          if (problem !== undefined) fail(`${described(res, how)}: ${problem}`, res);
        });
        return pass(
          `${MEDIA_TYPE_SPELLINGS.length} spellings of application/json answered 201 with the pet as sent`,
        );
      },
    }),
  ],
};
