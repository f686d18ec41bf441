import { ID_MAX } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import { newPetJson } from '../fixtures.js';
import { type Credential, type HttpResponse, KEY_VARIABLE } from '../http/client.js';
import { keyCredential, literalCredential } from '../http/replay.js';
import type { Check } from '../types.js';
import {
  check,
  described,
  expectError,
  expectStatus,
  fail,
  idOf,
  notApplicable,
  pass,
  skip,
} from './support.js';

/** One operation as the auth checks drive it. */
interface Operation {
  readonly name: 'listPets' | 'createPet' | 'getPet';
  readonly section: string;
  readonly writes: boolean;
  /**
   * Sends the operation with the given `Authorization` (null: none, undefined: the valid key),
   * and the valid key in the query parameters `keyInQuery` when given.
   */
  send(
    ctx: CheckContext,
    authorization?: Credential | null,
    keyInQuery?: readonly string[],
  ): Promise<HttpResponse>;
  /** The success status a valid key must get, or undefined when no existing pet is known. */
  success(ctx: CheckContext): Promise<number | undefined>;
}

/** An id to fetch: a pet this run created, else one the server lists, else none. */
async function knownPetId(ctx: CheckContext): Promise<string | undefined> {
  const samples = await ctx.fixtures.samples();
  const own = samples.pets[0]?.id;
  if (own !== undefined) return own;
  const listed = await ctx.list('?limit=1');
  return Array.isArray(listed.body) ? idOf(listed.body[0]) : undefined;
}

const OPERATIONS: readonly Operation[] = [
  {
    name: 'listPets',
    section: '§4.1, §5',
    writes: false,
    send: (ctx, authorization, keyInQuery) =>
      ctx.send({ method: 'GET', path: '/pets?limit=1', authorization, keyInQuery }),
    success: async () => 200,
  },
  {
    name: 'createPet',
    section: '§4.2, §5',
    writes: true,
    send: (ctx, authorization, keyInQuery) =>
      ctx.send({
        method: 'POST',
        path: '/pets',
        authorization,
        keyInQuery,
        rawBody: newPetJson(ctx.fixtures.nextPet()),
      }),
    success: async () => 201,
  },
  {
    name: 'getPet',
    section: '§4.3, §5',
    writes: false,
    send: async (ctx, authorization, keyInQuery) => {
      const id = (await knownPetId(ctx)) ?? String(ID_MAX);
      return ctx.send({ method: 'GET', path: `/pets/${id}`, authorization, keyInQuery });
    },
    success: async (ctx) => ((await knownPetId(ctx)) === undefined ? undefined : 200),
  },
];

/** The valid key with the case of every ASCII letter swapped, or undefined when it has none. */
function swapCase(key: string): string | undefined {
  const swapped = key.replace(/[a-zA-Z]/g, (c) =>
    c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
  );
  return swapped === key ? undefined : swapped;
}

/** The ways a request can fail to carry a valid bearer key, each of which must get 401. */
const BAD_CREDENTIALS: readonly {
  readonly id: string;
  readonly title: string;
  readonly how: string;
  /** The credential to send; null sends none; undefined means this key allows no such variant. */
  readonly authorization: (ctx: CheckContext) => Credential | null | undefined;
}[] = [
  {
    id: 'missing-header',
    title: 'answers 401 with an Error body when Authorization is missing',
    how: 'without Authorization',
    authorization: () => null,
  },
  {
    id: 'empty-token',
    title: 'answers 401 with an Error body to a Bearer scheme with no token',
    how: 'with "Bearer" and no token',
    authorization: () => literalCredential('Bearer '),
  },
  {
    id: 'wrong-scheme',
    title: 'answers 401 with an Error body to the valid key under another scheme',
    how: 'with "Basic <valid key>"',
    authorization: (ctx) => keyCredential('Basic ', ctx.apiKey),
  },
  {
    id: 'empty-header',
    title: 'answers 401 with an Error body to an empty Authorization header',
    how: 'with an empty Authorization header',
    authorization: () => literalCredential(''),
  },
  {
    id: 'scheme-prefixed',
    title: 'answers 401 with an Error body to the valid key under the scheme "XBearer"',
    how: 'with "XBearer <valid key>"',
    authorization: (ctx) => keyCredential('XBearer ', ctx.apiKey),
  },
  {
    id: 'word-after-key',
    title: 'answers 401 with an Error body to the valid key followed by a word ("Bearer <key> x")',
    how: 'with "Bearer <valid key> x"',
    authorization: (ctx) => keyCredential('Bearer ', ctx.apiKey, ' x'),
  },
  {
    id: 'unknown-key',
    title: 'answers 401 with an Error body to an unknown key',
    how: 'with an unknown bearer key',
    authorization: (ctx) => literalCredential(`Bearer conformance-unknown-${ctx.fixtures.runId}`),
  },
  {
    id: 'key-case-changed',
    title: 'answers 401 to the valid key with its letters in the other case (keys are exact)',
    how: 'with the valid key in the other letter case',
    authorization: (ctx) => {
      const swapped = swapCase(ctx.apiKey);
      return swapped === undefined
        ? undefined
        : {
            value: `Bearer ${swapped}`,
            shell: `Bearer $(printf %s "$${KEY_VARIABLE}" | tr a-zA-Z A-Za-z)`,
          };
    },
  },
  {
    id: 'key-appended',
    title: 'answers 401 to the valid key with one character appended',
    how: 'with the valid key plus one character',
    authorization: (ctx) => keyCredential('Bearer ', ctx.apiKey, 'x'),
  },
  {
    id: 'key-truncated',
    title: 'answers 401 to the valid key with its last character removed',
    how: 'with the valid key less its last character',
    authorization: (ctx) => ({
      value: `Bearer ${ctx.apiKey.slice(0, -1)}`,
      shell: `Bearer \${${KEY_VARIABLE}%?}`,
    }),
  },
];

/**
 * Query parameters servers take keys from (`api_key` in Swagger's Petstore, `access_token` in
 * RFC 6750 §2.3, ...): the spec's key travels in `Authorization` alone, so each is sent at once.
 */
export const KEY_QUERY_PARAMETERS = [
  'api_key',
  'apiKey',
  'apikey',
  'access_token',
  'key',
  'token',
] as const;

/** The answer to `op` without Authorization, shared by two checks. */
function withoutKey(ctx: CheckContext, op: Operation): Promise<HttpResponse> {
  return ctx.memo(`auth ${op.name} without key`, () => op.send(ctx, null));
}

function checksFor(op: Operation): Check[] {
  const rejections = BAD_CREDENTIALS.map((bad) =>
    check({
      id: `auth.${op.name}.${bad.id}`,
      title: `${op.name} ${bad.title}`,
      section: op.section,
      level: 'must',
      group: 'auth',
      writes: op.writes,
      async run(ctx) {
        const authorization = bad.authorization(ctx);
        if (authorization === undefined) notApplicable('the key given allows no such variant');
        const res =
          authorization === null ? await withoutKey(ctx, op) : await op.send(ctx, authorization);
        expectError(res, 401, bad.how);
        return pass(`${described(res, bad.how)} answered 401 with an Error body`);
      },
    }),
  );
  return [
    ...rejections,
    check({
      id: `auth.${op.name}.valid-key`,
      title: `${op.name} accepts the valid bearer key`,
      section: op.section,
      level: 'must',
      group: 'auth',
      writes: op.writes,
      async run(ctx) {
        const res = await op.send(ctx);
        const expected = await op.success(ctx);
        if (expected !== undefined) expectStatus(res, expected, 'with the valid key');
        else if (res.status === 401) fail(`${described(res)} answered 401 to the valid key`);
        return pass(`${described(res)} answered ${res.status} to the valid key`);
      },
    }),
    check({
      id: `auth.${op.name}.key-in-query`,
      // A look-alike key, never the valid one: proxies and access logs keep URLs.
      title: `${op.name} answers 401 to a key sent in the query string (${KEY_QUERY_PARAMETERS.slice(0, 2).join(', ')}, ...) without Authorization: the key is missing`,
      section: op.section,
      level: 'must',
      group: 'auth',
      writes: op.writes,
      async run(ctx) {
        const how = 'without Authorization, with a look-alike key in the query';
        const res = await op.send(ctx, null, KEY_QUERY_PARAMETERS);
        // 401 is what §5 names; a server that refuses unknown query parameters first may say 400.
        if (res.status < 400 || res.status > 499) {
          fail(`${described(res, how)} answered ${res.status}, expected 401`, res);
        }
        expectError(res, res.status, how);
        return pass(`${described(res, how)} answered ${res.status} with an Error body`);
      },
    }),
    check({
      id: `auth.${op.name}.www-authenticate`,
      title: `${op.name} sends a Bearer WWW-Authenticate challenge with 401 (RFC 6750)`,
      section: op.section,
      rule: 'RFC 9110 §11.6.1, RFC 6750 §3',
      level: 'should',
      group: 'auth',
      writes: op.writes,
      async run(ctx) {
        const res = await withoutKey(ctx, op);
        if (res.status !== 401) skip(`${described(res)} answered ${res.status}, not 401`);
        const challenge = res.headers.get('www-authenticate');
        if (challenge === null) fail(`${described(res)} answered 401 without WWW-Authenticate`);
        if (!/(^|,)\s*bearer(\s|,|$)/i.test(challenge)) {
          fail(`WWW-Authenticate "${challenge}" offers no Bearer challenge`);
        }
        return pass(`WWW-Authenticate: ${challenge}`);
      },
    }),
  ];
}

/** Authentication on every operation (spec §5). */
export const authChecks: readonly Check[] = [
  ...OPERATIONS.flatMap(checksFor),
  check({
    id: 'auth.scheme-case-insensitive',
    title: 'accepts the scheme name in any case ("bearer <key>", "BEARER <key>"; RFC 9110 §11.1)',
    section: '§5',
    rule: 'RFC 9110 §11.1',
    level: 'should',
    group: 'auth',
    writes: false,
    async run(ctx) {
      for (const scheme of ['bearer', 'BEARER']) {
        const how = `with "${scheme} <valid key>"`;
        const res = await ctx.send({
          method: 'GET',
          path: '/pets?limit=1',
          authorization: keyCredential(`${scheme} `, ctx.apiKey),
        });
        expectStatus(res, 200, how);
      }
      return pass('"bearer" and "BEARER" answered 200');
    },
  }),
  check({
    id: 'auth.createPet.before-validation',
    title: 'answers 401, not 400, to a request with no key and an invalid body',
    section: '§4.2, §5',
    rule: 'authentication before validation: a caller without a key learns nothing about bodies',
    level: 'should',
    group: 'auth',
    writes: true,
    async run(ctx) {
      const how = 'without Authorization and with a body lacking name';
      const res = await ctx.send({
        method: 'POST',
        path: '/pets',
        authorization: null,
        rawBody: `{"categoryId":${ctx.fixtures.nextCategoryId()}}`,
      });
      expectError(res, 401, how);
      return pass(`${described(res, how)} answered 401`);
    },
  }),
];
