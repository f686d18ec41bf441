// Every operation requires `Authorization: Bearer <key>` (spec §5): each way of failing to send
// a valid key gets 401 and an Error, on every operation and on every request shape the run sent.
import { ID_MAX } from '@animal-store/contract';
import {
  basicCredentialsOf,
  keyAppended,
  keysOneCharacterOff,
  keysWithWildcard,
  keyTruncated,
  PATTERN_KEYS,
} from '../cases/key-variants.js';
import type { CheckContext } from '../context.js';
import { newPetJson } from '../fixtures.js';
import {
  BEARER_TOKEN,
  type Credential,
  comeBackLater,
  type HttpRequest,
  type HttpResponse,
  KEY_VARIABLE,
  SharedConnection,
} from '../http/client.js';
import { RawConnection } from '../http/raw-connection.js';
import { keyBetween, keyCredential, literalCredential } from '../http/replay.js';
import { petProblem, routeOf } from '../oracles.js';
import type { Verdict } from '../types.js';
import {
  answerOrLost,
  answerTo,
  type DeclaredCheck,
  declarer,
  described,
  everyCase,
  expectError,
  expectNoPetsShown,
  expectStatus,
  fail,
  firstListedId,
  idOf,
  inStage,
  notApplicable,
  pass,
  type SpecSection,
  skip,
} from './support.js';

const check = declarer('§5');

/** One operation as the auth checks drive it. */
interface Operation {
  readonly name: 'listPets' | 'createPet' | 'getPet';
  readonly section: string;
  /**
   * Sends the operation with the given `Authorization` (null: none, undefined: the valid key),
   * and `how` it goes: a key in the query parameters, a connection of the check's own.
   */
  send(ctx: CheckContext, authorization?: Credential | null, how?: SentWith): Promise<HttpResponse>;
  /** The success status a valid key must get, or undefined when no existing pet is known. */
  success(ctx: CheckContext): Promise<number | undefined>;
}

/** How the auth checks may send an operation beside its `Authorization`. */
type SentWith = Pick<
  HttpRequest,
  'keyInQuery' | 'realKeyInQuery' | 'headers' | 'keyHeaders' | 'connection' | 'rawBody' | 'keyBody'
>;

/** An id to fetch: a pet this run created, else one the server lists, else none. */
async function knownPetId(ctx: CheckContext): Promise<string | undefined> {
  const samples = await ctx.fixtures.samples();
  const own = samples.pets[0]?.id;
  if (own !== undefined) return own;
  return firstListedId(await ctx.list('?limit=1'));
}

const OPERATIONS: readonly Operation[] = [
  {
    name: 'listPets',
    section: '§4.1, §5',
    send: (ctx, authorization, how) =>
      ctx.send({ method: 'GET', path: '/pets?limit=1', authorization, ...how }),
    success: async () => 200,
  },
  {
    name: 'createPet',
    section: '§4.2, §5',
    send: (ctx, authorization, how) =>
      ctx.send({
        method: 'POST',
        path: '/pets',
        authorization,
        rawBody: newPetJson(ctx.fixtures.nextPet()),
        ...how,
      }),
    success: async () => 201,
  },
  {
    name: 'getPet',
    section: '§4.3, §5',
    send: async (ctx, authorization, how) => {
      const id = (await knownPetId(ctx)) ?? String(ID_MAX);
      return ctx.send({ method: 'GET', path: `/pets/${id}`, authorization, ...how });
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

/** One way to send a credential that is no valid bearer key: `how` for messages, and the value. */
interface BadCase {
  readonly how: string;
  /** The credential to send; null sends none. */
  readonly authorization: Credential | null;
  /**
   * True for a token of characters no bearer token holds (`%`, `*`, RFC 6750 §2.1), which a server
   * may refuse as a malformed request with `400` (§3.1) before it looks the key up: what it probes
   * is that the key is refused, so any 4xx with an Error passes.
   */
  readonly malformed?: boolean;
}

/**
 * The ways a request can fail to carry a valid bearer key, each of which must get 401; a check
 * sends every case it holds.
 */
const BAD_CREDENTIALS: readonly {
  readonly id: string;
  readonly title: string;
  readonly cases: (ctx: CheckContext) => readonly BadCase[];
}[] = [
  {
    id: 'missing-header',
    title: 'answers 401 with an Error body when Authorization is missing',
    cases: () => [{ how: 'without Authorization', authorization: null }],
  },
  {
    id: 'empty-token',
    title: 'answers 401 with an Error body to a Bearer scheme with no token',
    cases: () => [
      { how: 'with "Bearer" and no token', authorization: literalCredential('Bearer ') },
    ],
  },
  {
    id: 'wrong-scheme',
    title: 'answers 401 with an Error body to the valid key under another scheme',
    cases: (ctx) => [
      { how: 'with "Basic <valid key>"', authorization: keyCredential('Basic ', ctx.apiKey) },
      { how: 'with "Token <valid key>"', authorization: keyCredential('Token ', ctx.apiKey) },
      {
        how: 'with Basic credentials of the valid key as user name',
        authorization: basicCredentialsOf(ctx.apiKey),
      },
      ...['', 'apikey'].map((user) => ({
        how: `with Basic credentials of the valid key as password (user "${user}")`,
        authorization: basicCredentialsOf(ctx.apiKey, user),
      })),
    ],
  },
  {
    id: 'no-scheme',
    title: 'answers 401 with an Error body to the valid key alone, with no scheme',
    cases: (ctx) => [
      { how: 'with "<valid key>" and no scheme', authorization: keyCredential('', ctx.apiKey) },
    ],
  },
  {
    id: 'empty-header',
    title: 'answers 401 with an Error body to an empty Authorization header',
    cases: () => [
      { how: 'with an empty Authorization header', authorization: literalCredential('') },
    ],
  },
  {
    id: 'scheme-prefixed',
    title: 'answers 401 with an Error body to the valid key under the scheme "XBearer"',
    cases: (ctx) => [
      { how: 'with "XBearer <valid key>"', authorization: keyCredential('XBearer ', ctx.apiKey) },
    ],
  },
  {
    id: 'word-after-key',
    title: 'answers 401 with an Error body to the valid key followed by a word ("Bearer <key> x")',
    cases: (ctx) => [
      {
        how: 'with "Bearer <valid key> x"',
        authorization: keyCredential('Bearer ', ctx.apiKey, ' x'),
      },
    ],
  },
  {
    id: 'word-before-key',
    title:
      'answers 401 with an Error body to a word between the scheme and the valid key ("Bearer x <key>")',
    cases: (ctx) => [
      {
        how: 'with "Bearer x <valid key>"',
        authorization: keyCredential('Bearer x ', ctx.apiKey, ''),
      },
    ],
  },
  {
    id: 'unknown-key',
    title:
      'answers 401 with an Error body to an unknown key (any 4xx with an Error to a pattern that matches any key, %, * or .*: no bearer token holds those characters)',
    cases: (ctx) => [
      {
        how: 'with an unknown bearer key',
        authorization: literalCredential(`Bearer conformance-unknown-${ctx.fixtures.runId}`),
      },
      ...PATTERN_KEYS.map((pattern) => ({
        how: `with "Bearer ${pattern}", a pattern that matches any key`,
        authorization: literalCredential(`Bearer ${pattern}`),
        malformed: true,
      })),
    ],
  },
  {
    id: 'key-appended',
    title: 'answers 401 to the valid key with one character appended',
    cases: (ctx) => [
      { how: 'with the valid key plus one character', authorization: keyAppended(ctx.apiKey) },
    ],
  },
  {
    id: 'key-truncated',
    title: 'answers 401 to the valid key with its last character removed',
    cases: (ctx) => [
      {
        how: 'with the valid key less its last character',
        authorization: keyTruncated(ctx.apiKey),
      },
    ],
  },
  {
    id: 'key-character-changed',
    title:
      'answers 401 to the valid key with its first or its last character changed (to another, to "_"; any 4xx with an Error to "%", which no bearer token holds)',
    cases: (ctx) => [
      ...keysOneCharacterOff(ctx.apiKey),
      ...keysWithWildcard(ctx.apiKey).map((bad) => ({
        ...bad,
        malformed: !BEARER_TOKEN.test(bad.authorization.value),
      })),
    ],
  },
];

/**
 * Query parameters servers take keys from (`api_key` in Swagger's Petstore, `access_token` in
 * RFC 6750 §2.3, ...), and the same names as members of a body (RFC 6750 §2.2's `access_token`,
 * which passport-http-bearer reads from any parsed body; Rails' and Laravel's params, which merge
 * the body's members with the query's): the spec's key travels in `Authorization` alone, so each
 * is sent at once.
 */
export const KEY_QUERY_PARAMETERS = [
  'api_key',
  'apiKey',
  'apikey',
  'access_token',
  'key',
  'token',
  'auth',
] as const;

/**
 * Header fields servers and gateways take keys from (`X-API-Key` in AWS API Gateway, `Api-Key`
 * in Azure's services, `apikey` in Kong's key-auth, `X-Auth-Token` in OpenStack): the spec's key
 * travels in `Authorization` alone, so each is sent at once. `KEY_CREDENTIAL_HEADERS` take the
 * whole credential, scheme and all.
 */
export const KEY_HEADERS = [
  'X-API-Key',
  'Api-Key',
  'apikey',
  'X-Auth-Token',
  'X-Access-Token',
] as const;

/**
 * Header fields servers take a whole `Authorization` value from (`Bearer <key>`): a gateway's copy
 * of the client's (`X-Forwarded-Authorization`, which Google's ESPv2 and Envoy set, and backends
 * behind them read first), and `X-Authorization`, which apps behind a front that drops
 * `Authorization` (Apache with PHP) read.
 */
export const KEY_CREDENTIAL_HEADERS = ['X-Forwarded-Authorization', 'X-Authorization'] as const;

/** Cookies servers read a key or token from when `Authorization` is missing. */
export const KEY_COOKIES = ['access_token', 'api_key', 'token'] as const;

/**
 * The header fields `key-in-header` sends, each as the texts the key goes between: the key alone
 * in each of `KEY_HEADERS`, `Bearer <key>` in each of `KEY_CREDENTIAL_HEADERS`, and a `Cookie`
 * with the key in each of `KEY_COOKIES`.
 */
const KEY_HEADER_PARTS: readonly (readonly [string, readonly string[]])[] = [
  ...KEY_HEADERS.map((name) => [name, ['', '']] as const),
  ...KEY_CREDENTIAL_HEADERS.map((name) => [name, ['Bearer ', '']] as const),
  ['Cookie', [...KEY_COOKIES.map((name, i) => `${i === 0 ? '' : '; '}${name}=`), '']],
];

/**
 * The places outside `Authorization` a key is sent to, each a check on every operation: a
 * look-alike of the key there, and the key itself with `--disposable-key` (both places are
 * logged by servers and gateways).
 */
const KEY_PLACES: readonly {
  readonly id: 'key-in-query' | 'key-in-header' | 'key-in-body';
  /** The operations whose requests have the place (all when not given). */
  readonly ops?: readonly Op[];
  /** Where, in a check's title. */
  readonly words: string;
  /** Where, in a case's description. */
  readonly where: string;
  sentWith(ctx: CheckContext, real: boolean): SentWith;
}[] = [
  {
    id: 'key-in-query',
    words: `in the query string (${KEY_QUERY_PARAMETERS.slice(0, 2).join(', ')}, ...)`,
    where: 'in the query',
    sentWith: (_ctx, real) => ({ keyInQuery: KEY_QUERY_PARAMETERS, realKeyInQuery: real }),
  },
  {
    id: 'key-in-header',
    words: `in another header field (${KEY_HEADERS.slice(0, 2).join(', ')}, ..., a cookie)`,
    where: 'in other header fields',
    sentWith: (ctx, real) =>
      real
        ? {
            keyHeaders: Object.fromEntries(
              KEY_HEADER_PARTS.map(([name, parts]) => [name, keyBetween(parts, ctx.apiKey)]),
            ),
          }
        : {
            headers: Object.fromEntries(
              KEY_HEADER_PARTS.map(([name, parts]) => [name, parts.join(ctx.lookAlikeKey)]),
            ),
          },
  },
  {
    id: 'key-in-body',
    ops: ['createPet'],
    words: `in a member of the body (${KEY_QUERY_PARAMETERS.slice(0, 2).join(', ')}, ..., access_token, ...)`,
    where: 'in members of the NewPet',
    sentWith: (ctx, real) => {
      const parts = keyMemberParts(ctx);
      return real
        ? { keyBody: keyBetween(parts, ctx.apiKey) }
        : { rawBody: parts.join(ctx.lookAlikeKey) };
    },
  },
];

/**
 * A NewPet of the run with each of `KEY_QUERY_PARAMETERS` as a member at its end, as the texts a
 * key goes between (`{…,"api_key":"` … `"}`).
 */
function keyMemberParts(ctx: CheckContext): string[] {
  const pet = newPetJson(ctx.fixtures.nextPet());
  const [first, ...others] = KEY_QUERY_PARAMETERS.map((name) => `${JSON.stringify(name)}:"`);
  return [`${pet.slice(0, -1)},${first}`, ...others.map((member) => `",${member}`), '"}'];
}

/** `swapCase`'s key as a credential, with its shell form for replay lines. */
function otherCaseKey(ctx: CheckContext): Credential | undefined {
  const swapped = swapCase(ctx.apiKey);
  return swapped === undefined
    ? undefined
    : {
        value: `Bearer ${swapped}`,
        shell: `Bearer $(printf %s "$${KEY_VARIABLE}" | tr a-zA-Z A-Za-z)`,
      };
}

/** Which key a request of `OTHER_CASE_SEQUENCES` carries. */
type KeyCase = 'valid' | 'other case';

/**
 * The valid key and the key in the other letter case, sent in these orders, each order on one
 * new kept-alive connection: the other case first and alone, then the valid key; and the valid
 * key on either side of it. Requests on one connection are independent (RFC 9112 §9.3): what
 * came before on the connection changes no answer. A server that matches a header value to the
 * one before it on the connection in any letter case (Jetty's header cache, by default) takes
 * the one for the other.
 */
const OTHER_CASE_SEQUENCES: readonly (readonly KeyCase[])[] = [
  ['other case', 'valid'],
  ['valid', 'other case', 'valid'],
];

/** The answers to `sequence` on one new kept-alive connection, shared by two checks. */
function onOneConnection(
  ctx: CheckContext,
  op: Operation,
  sequence: readonly KeyCase[],
  other: Credential,
): Promise<HttpResponse[]> {
  return ctx.memo(`auth ${op.name} ${sequence.join(', ')}`, async () => {
    const connection = new SharedConnection();
    try {
      const answers: HttpResponse[] = [];
      for (const key of sequence) {
        answers.push(await op.send(ctx, key === 'valid' ? undefined : other, { connection }));
      }
      return answers;
    } finally {
      connection.close();
    }
  });
}

/** How the request at `at` of `sequence` went, for messages. */
function inSequence(sequence: readonly KeyCase[], at: number): string {
  const key =
    sequence[at] === 'valid' ? 'with the valid key' : 'with the valid key in the other letter case';
  if (at === 0) return `${key}, first on a new connection`;
  const before = sequence[at - 1] === 'valid' ? 'the valid key' : 'it in the other letter case';
  return `${key}, on a connection that had just carried ${before}`;
}

/**
 * The checks of the key in the other letter case on `op`. The spec leaves how keys compare open
 * (§5: how keys are issued is not shown), so that such a key gets 401 is advised; that the valid
 * key gets no 401 whatever came before it on the connection is a `must`.
 */
function otherCaseChecks(op: Operation): DeclaredCheck[] {
  return [
    check({
      id: `auth.${op.name}.key-case-changed`,
      title: `${op.name} answers 401 to the valid key with its letters in the other case, first on a new connection and right after the valid key on a kept-alive one (keys compared exactly)`,
      section: op.section,
      rule: 'the spec leaves how keys compare open (§5); a key compared in any letter case has fewer keys to guess',
      async run(ctx) {
        const other = otherCaseKey(ctx);
        if (other === undefined) notApplicable('the key given has no letters');
        const probes = OTHER_CASE_SEQUENCES.map((sequence) => ({
          sequence,
          at: sequence.indexOf('other case'),
        }));
        await everyCase(ctx, probes, async ({ sequence, at }) => {
          const res = (await onOneConnection(ctx, op, sequence, other))[at] as HttpResponse;
          expectError(res, 401, inSequence(sequence, at));
        });
        return pass(
          `${probes.map(({ sequence, at }) => inSequence(sequence, at)).join(', and ')}: 401 with an Error body`,
        );
      },
    }),
    check({
      id: `auth.${op.name}.valid-key-after-other-case`,
      title: `${op.name} answers no 401 to the valid key on a kept-alive connection that has just carried the key in the other letter case (requests on one connection are independent)`,
      section: op.section,
      async run(ctx) {
        const other = otherCaseKey(ctx);
        if (other === undefined) notApplicable('the key given has no letters');
        const seen: string[] = [];
        await everyCase(ctx, OTHER_CASE_SEQUENCES, async (sequence) => {
          const answers = await onOneConnection(ctx, op, sequence, other);
          for (const [at, res] of answers.entries()) {
            if (sequence[at] !== 'valid') continue;
            const how = inSequence(sequence, at);
            if (res.status === 401) fail(`${described(res, how)} answered 401`, res);
            seen.push(`${described(res, how)} answered ${res.status}`);
          }
        });
        return pass(seen.join('; '));
      },
    }),
  ];
}

/**
 * Fails unless `res` is a 4xx with an Error: 401 is what §5 names, and a server that refuses what
 * it does not know first (a malformed token, a field it does not take) may say 400.
 */
function expectRefused(res: HttpResponse, how: string): void {
  if (res.status < 400 || res.status > 499) {
    fail(`${described(res, how)} answered ${res.status}, expected 401`, res);
  }
  expectError(res, res.status, how);
}

/** The answer to `op` without Authorization, shared by two checks. */
function withoutKey(ctx: CheckContext, op: Operation): Promise<HttpResponse> {
  return ctx.memo(`auth ${op.name} without key`, () => op.send(ctx, null));
}

function checksFor(op: Operation): DeclaredCheck[] {
  const rejections = BAD_CREDENTIALS.map((bad) =>
    check({
      id: `auth.${op.name}.${bad.id}`,
      title: `${op.name} ${bad.title}`,
      section: op.section,
      async run(ctx) {
        const seen: string[] = [];
        await everyCase(ctx, bad.cases(ctx), async ({ how, authorization, malformed }) => {
          const res =
            authorization === null ? await withoutKey(ctx, op) : await op.send(ctx, authorization);
          // With no pet known to read, getPet asks for one no one has: a server may look it up
          // before it asks for the key, as the spec orders neither (`auth.getPet.before-lookup`).
          if (res.status === 404 && (await op.success(ctx)) === undefined) {
            skip(
              `${described(res, how)} answered 404: with no pet to read, a server may look the pet up before the key`,
            );
          }
          if (malformed === true) expectRefused(res, how);
          else expectError(res, 401, how);
          seen.push(`${described(res, how)} answered ${res.status} with an Error body`);
        });
        return pass(seen.join('; '));
      },
    }),
  );
  return [
    ...rejections,
    ...otherCaseChecks(op),
    check({
      id: `auth.${op.name}.valid-key`,
      title: `${op.name} accepts the valid bearer key`,
      section: op.section,
      async run(ctx) {
        const res = await op.send(ctx);
        const expected = await op.success(ctx);
        if (expected !== undefined) expectStatus(res, expected, 'with the valid key');
        else if (res.status === 401) fail(`${described(res)} answered 401 to the valid key`, res);
        return pass(`${described(res)} answered ${res.status} to the valid key`);
      },
    }),
    ...KEY_PLACES.filter((place) => place.ops?.includes(op.name) ?? true).map((place) =>
      check({
        id: `auth.${op.name}.${place.id}`,
        title: `${op.name} answers 401 to a key sent ${place.words} without Authorization: the key is missing (a look-alike key; the valid key itself too with --disposable-key)`,
        section: op.section,
        async run(ctx) {
          const probes: [string, boolean][] = [
            [`without Authorization, with a look-alike key ${place.where}`, false],
          ];
          // Only a key revoked after the run may go where it is logged.
          if (ctx.disposableKey) {
            probes.push([`without Authorization, with the valid key itself ${place.where}`, true]);
          }
          const seen: string[] = [];
          await everyCase(ctx, probes, async ([how, real]) => {
            const res = await op.send(ctx, null, place.sentWith(ctx, real));
            expectRefused(res, how);
            seen.push(`${described(res, how)} answered ${res.status} with an Error body`);
          });
          if (!ctx.disposableKey) {
            seen.push(
              `the valid key itself was not sent ${place.where}: it goes there only with --disposable-key`,
            );
          }
          return pass(seen.join('; '));
        },
      }),
    ),
    check({
      id: `auth.${op.name}.www-authenticate`,
      title: `${op.name} sends a Bearer WWW-Authenticate challenge with 401 (RFC 6750)`,
      section: op.section,
      rule: 'RFC 9110 §11.6.1, RFC 6750 §3',
      async run(ctx) {
        const res = await withoutKey(ctx, op);
        if (res.status !== 401) skip(`${described(res)} answered ${res.status}, not 401`);
        const challenge = res.headers.get('www-authenticate');
        if (challenge === null)
          fail(`${described(res)} answered 401 without WWW-Authenticate`, res);
        if (!/(^|,)\s*bearer(\s|,|$)/i.test(challenge)) {
          fail(`WWW-Authenticate "${challenge}" offers no Bearer challenge`);
        }
        return pass(`WWW-Authenticate: ${challenge}`);
      },
    }),
  ];
}

/** Authentication on every operation (spec §5). */
/**
 * Lists with the valid key after each prefix (a spelling of the scheme and the spaces after it),
 * named in words: each must answer 200.
 */
async function listsWithKeyAfter(
  ctx: CheckContext,
  prefixes: readonly (readonly [prefix: string, words: string, suffix?: string])[],
): Promise<Verdict> {
  await everyCase(ctx, prefixes, async ([prefix, words, suffix]) => {
    // fetch takes white space off the ends of a field value (the Fetch standard normalizes it):
    // a value with a suffix goes on a raw connection of its own, as written.
    const connection = suffix === undefined ? undefined : new RawConnection();
    try {
      const res = await answerTo(
        `with ${words}`,
        ctx.send({
          method: 'GET',
          path: '/pets?limit=1',
          authorization: keyCredential(prefix, ctx.apiKey, suffix),
          ...(connection === undefined ? {} : { connection, asWritten: true }),
        }),
      );
      expectStatus(res, 200, `with ${words}`);
    } finally {
      connection?.close();
    }
  });
  return pass(`${prefixes.map(([, words]) => words).join(' and ')} answered 200`);
}

const operationChecks: readonly DeclaredCheck[] = [
  ...OPERATIONS.flatMap(checksFor),
  check({
    id: 'auth.scheme-case-insensitive',
    title: 'accepts the scheme name in any case ("bearer <key>", "BEARER <key>"; RFC 9110 §11.1)',
    rule: 'RFC 9110 §11.1',
    run: (ctx) =>
      listsWithKeyAfter(ctx, [
        ['bearer ', '"bearer <valid key>"'],
        ['BEARER ', '"BEARER <valid key>"'],
      ]),
  }),
  check({
    id: 'auth.spaces-after-scheme',
    title:
      'accepts the valid key after two spaces ("Bearer", two spaces, the key; RFC 6750 §2.1: "Bearer" 1*SP b64token)',
    rule: 'RFC 6750 §2.1',
    run: (ctx) => listsWithKeyAfter(ctx, [['Bearer  ', '"Bearer", two spaces and the valid key']]),
  }),
  check({
    id: 'auth.white-space-around-value',
    title:
      'accepts the valid Authorization with white space around it (spaces or a tab before "Bearer", a space and a tab after the key): RFC 9112 §5.1 makes it no part of the value',
    rule: 'RFC 9112 §5.1: white space around a field value is no part of it',
    run: (ctx) =>
      listsWithKeyAfter(ctx, [
        ['   Bearer ', 'spaces before "Bearer" and a space and a tab after the valid key', ' \t'],
        ['\tBearer ', 'a tab before "Bearer" and after the valid key', '\t'],
      ]),
  }),
  check({
    id: 'auth.createPet.before-validation',
    title: 'answers 401, not 400, to a request with no key and an invalid body',
    section: '§4.2, §5',
    rule: 'authentication before validation: a caller without a key learns nothing about bodies',
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
  check({
    id: 'auth.getPet.before-lookup',
    title: 'answers 401, not 404, to a request with no key for a pet that does not exist',
    section: '§4.3, §5',
    rule: 'authentication before lookup: a caller without a key learns nothing about which pets exist',
    async run(ctx) {
      const how = 'without Authorization, for a pet no one has';
      const res = await ctx.send({ method: 'GET', path: `/pets/${ID_MAX}`, authorization: null });
      expectError(res, 401, how);
      return pass(`${described(res, how)} answered 401`);
    },
  }),
];

/**
 * The probes every request shape of the run is sent with again: no key, no token, a wrong key
 * (the first of `unknown-key`'s; the patterns go to each operation once).
 */
function shapeProbes(ctx: CheckContext): BadCase[] {
  return BAD_CREDENTIALS.filter((bad) =>
    ['missing-header', 'empty-token', 'unknown-key'].includes(bad.id),
  ).flatMap((bad) => bad.cases(ctx).slice(0, 1));
}

type Op = Operation['name'];

/**
 * What makes two requests one shape to the server: the method, the operation's path, the names
 * of the query parameters (repeats kept) and of the headers added, and a chunked body
 * (`GET /pets?limit&status`, `POST /pets chunked`). Values are not part of it. A request with a
 * `Connection` line is none: that line is about its connection (RFC 9110 §7.6.1), which the check
 * that sent it judges.
 */
function shapeOf(res: HttpResponse): { op: Op; key: string } | undefined {
  const route = routeOf(res);
  if (route.op === 'other' || res.request.authorization !== undefined) return undefined;
  if (res.request.keyInQuery !== undefined || res.request.keyHeaders !== undefined) {
    return undefined;
  }
  const headerNames = Object.keys(res.request.headers ?? {}).map((h) => h.toLowerCase());
  if (headerNames.includes('connection')) return undefined;
  const names = [...new URL(res.url).searchParams.keys()].sort().join('&');
  const headers = headerNames.sort().join(', ');
  const path = route.op === 'getPet' ? '/pets/{petId}' : '/pets';
  const key = `${res.method} ${path}${names === '' ? '' : `?${names}`}${headers === '' ? '' : ` with ${headers}`}${res.request.chunked ? ' chunked' : ''}`;
  return { op: route.op, key };
}

/** One answer to the valid key per request shape the run sent so far, a 2xx where there is one. */
function shapesSent(ctx: CheckContext, ops: readonly Op[]): HttpResponse[] {
  const byShape = new Map<string, HttpResponse>();
  for (const res of ctx.responses) {
    if (comeBackLater(res)) continue;
    const shape = shapeOf(res);
    if (shape === undefined || !ops.includes(shape.op)) continue;
    const held = byShape.get(shape.key);
    const success = (r: HttpResponse) => r.status >= 200 && r.status <= 299;
    if (held === undefined || (!success(held) && success(res))) byShape.set(shape.key, res);
  }
  return [...byShape.values()];
}

/**
 * Sends the request of `sample` again with the probe `bad`; it must get 401 with an Error, or,
 * where the valid key itself got a 4xx (a query the server refuses), that status.
 */
async function probeShape(ctx: CheckContext, sample: HttpResponse, bad: BadCase): Promise<void> {
  const { request } = sample;
  const { authorization } = bad;
  const res = await ctx.send({
    method: request.method,
    path: request.path,
    authorization,
    ...(request.headers === undefined ? {} : { headers: request.headers }),
    ...(request.chunked ? { chunked: true } : {}),
    // A body that would create a pet: a server that skips the key for this shape shows it.
    ...(request.method === 'POST' ? { rawBody: newPetJson(ctx.fixtures.nextPet()) } : {}),
  });
  const refusedAnyway = sample.status >= 400 && sample.status <= 499 && sample.status !== 401;
  const expected = refusedAnyway && res.status === sample.status ? sample.status : 401;
  expectError(res, expected, `${bad.how} (the run sent this shape with the key)`);
}

/**
 * Spellings of the spec's paths a server may answer as the same resource: a trailing or doubled
 * slash, another letter case, the base's `/v1` in capitals (an absolute URL: a router that folds
 * case behind a guard that matches `/v1/` as written), a letter percent-encoded (the same URI,
 * RFC 3986 §6.2.2.2: a guard on the target as sent in front of a router on the decoded path), a
 * segment parameter (`;x=1`, which servlet containers take off before routing), the target in
 * absolute form (`GET http://host/v1/pets`, RFC 9112 §3.2.2: a guard that looks only at targets
 * starting with `/`), and for the list a format suffix (Rails' and Spring MVC's `.json`;
 * `/pets/7.json` is getPet's path with a petId that is no integer, `getPet.path-boundaries`').
 */
function spellings(op: Op, id: string | undefined, base: string): Spelling[] {
  const recased = base.endsWith('/v1') ? [`${base.slice(0, -'/v1'.length)}/V1`] : [];
  const paths =
    op !== 'getPet'
      ? [
          '/pets/',
          '/PETS',
          '//pets',
          '/pets.json',
          '/%70ets',
          '/pets;x=1',
          ...recased.map((b) => `${b}/pets`),
        ]
      : id === undefined
        ? []
        : [
            `/pets/${id}/`,
            `/PETS/${id}`,
            `//pets/${id}`,
            `/%70ets/${id}`,
            `/pets/${id};x=1`,
            ...recased.map((b) => `${b}/pets/${id}`),
          ];
  const plain = op === 'getPet' ? (id === undefined ? undefined : `/pets/${id}`) : '/pets';
  return [
    ...paths.map((path) => ({ path })),
    ...(plain === undefined ? [] : [{ path: plain, absoluteForm: true }]),
  ];
}

/** A spelling of an operation's path: the path, and whether the target goes in absolute form. */
interface Spelling {
  readonly path: string;
  readonly absoluteForm?: boolean;
}

/** A spelling as a report shows it: below the base, or the absolute URL's path. */
function shownSpelling({ path, absoluteForm }: Spelling): string {
  const shown = URL.parse(path)?.pathname ?? path;
  return absoluteForm === true ? `${shown} in absolute form` : shown;
}

/**
 * Sends `request` at `spelling`: a target in absolute form on a new connection of its own, closed
 * after the answer. A connection closed unanswered (a server or its front may drop a request at a
 * path it does not serve) gives no answer, which shows nothing.
 */
async function sendAt(
  ctx: CheckContext,
  spelling: Spelling,
  request: Omit<HttpRequest, 'path'>,
): Promise<HttpResponse | { lost: string }> {
  if (spelling.absoluteForm !== true) {
    return answerOrLost(ctx, { ...request, path: spelling.path, pathSpelling: true });
  }
  const connection = new RawConnection();
  try {
    return await answerOrLost(ctx, {
      ...request,
      path: spelling.path,
      pathSpelling: true,
      connection,
      absoluteForm: true,
    });
  } finally {
    connection.close();
  }
}

/**
 * `op` sent with the valid key at `path`, another spelling of its path: the same resource when it
 * answers as the operation would (a Pet array, the pet asked for, the pet sent created).
 */
async function withKeyAt(
  ctx: CheckContext,
  op: Op,
  spelling: Spelling,
  id: string | undefined,
): Promise<{ status: number | string; same: boolean }> {
  if (op === 'createPet') {
    const pet = ctx.fixtures.nextPet();
    const res = await sendAt(ctx, spelling, { method: 'POST', rawBody: newPetJson(pet) });
    if ('lost' in res) return { status: `no answer (${res.lost})`, same: false };
    const named =
      petProblem(res.body) === undefined && (res.body as { name?: unknown }).name === pet.name;
    return { status: res.status, same: res.status === 201 && named };
  }
  const res = await sendAt(ctx, spelling, { method: 'GET' });
  if ('lost' in res) return { status: `no answer (${res.lost})`, same: false };
  const asked = op === 'listPets' ? Array.isArray(res.body) : idOf(res.body) === id;
  return { status: res.status, same: res.status === 200 && asked };
}

/**
 * Probes each spelling of `op`'s path. It is first sent with the valid key: when it answers as the
 * operation would (`withKeyAt`), it is that operation, and every probe must get 401 with an
 * Error. Any spelling, whatever it is, must not show pets or create one without a valid key.
 * Sends each spelling with the valid key; gives what each answered it, and the probes to send.
 */
async function probeSpellings(
  ctx: CheckContext,
  op: Op,
): Promise<{ seen: string[]; probes: (() => Promise<void>)[] }> {
  const id = op === 'getPet' ? await knownPetId(ctx) : undefined;
  const seen: string[] = [];
  const probes: (() => Promise<void>)[] = [];
  for (const spelling of spellings(op, id, ctx.baseUrl)) {
    const { status, same } = await withKeyAt(ctx, op, spelling, id);
    seen.push(`${shownSpelling(spelling)}: ${status}${same ? ' (the same resource)' : ''}`);
    for (const bad of shapeProbes(ctx)) {
      probes.push(async () => {
        const { authorization } = bad;
        const res = await sendAt(ctx, spelling, {
          method: op === 'createPet' ? 'POST' : 'GET',
          authorization,
          ...(op === 'createPet' ? { rawBody: newPetJson(ctx.fixtures.nextPet()) } : {}),
        });
        const how = `${bad.how} (another spelling of ${op}'s path)`;
        if ('lost' in res) return;
        if (same) expectError(res, 401, how);
        else expectNoPetsShown(res, how);
      });
    }
  }
  return { seen, probes };
}

function everyShape(ops: readonly Op[], writes: boolean, what: string): DeclaredCheck {
  return check({
    id: writes ? 'auth.every-write-shape' : 'auth.every-read-shape',
    title: `${what} answers 401 with an Error without a valid key (none, "Bearer" alone, an unknown key) in every request shape the run sent with the key (each query parameter and combination, added headers, a chunked body) and every spelling of the path the server answers as the same resource (/pets/, /PETS, //pets, /pets.json, /%70ets, /pets;x=1, /V1/pets, the target in absolute form)`,
    section: ops.map((op) => OPERATIONS.find((o) => o.name === op)?.section).join(', '),
    writes,
    async run(ctx) {
      const samples = shapesSent(ctx, ops);
      const probes = samples.flatMap((sample) => shapeProbes(ctx).map((bad) => ({ sample, bad })));
      const tasks = probes.map(
        ({ sample, bad }) =>
          () =>
            probeShape(ctx, sample, bad),
      );
      const spelled: string[] = [];
      for (const op of ops) {
        const { seen, probes: spellingProbes } = await probeSpellings(ctx, op);
        spelled.push(...seen);
        tasks.push(...spellingProbes);
      }
      // Every probe of every shape and spelling, whatever the ones before them showed.
      await everyCase(ctx, tasks, (task) => task());
      const sent = probes.length;
      return pass(
        `${samples.length} request shapes (${samples.map((s) => shapeOf(s)?.key).join('; ')}) refused ${sent} probes without a valid key${spelled.length > 0 ? `; spellings with the key: ${spelled.join(', ')}` : ''}`,
      );
    },
  });
}

/**
 * Authentication on every request shape the run sends (spec §5: every operation requires the
 * key): they run after every other check but the oracles, so they see every shape.
 */
const everyShapeChecks: readonly DeclaredCheck[] = [
  everyShape(['listPets', 'getPet'], false, 'listPets and getPet each'),
  everyShape(['createPet'], true, 'createPet'),
];

/**
 * Every operation requires the key (spec §5). A key refused explains every other failure, so the
 * checks of each operation run first.
 */
export const authSection: SpecSection = {
  rows: [
    {
      section: '§5',
      statement: `Every operation requires Authorization: Bearer <key>; a missing or invalid key gets 401 and an Error`,
      oracle: '401 with an Error on listPets, createPet and getPet; the valid key is accepted',
      inputs:
        'no header, an empty header, "Bearer" alone, another scheme (Basic <key>, Token <key>, Basic credentials of the key), the key alone, XBearer <key>, Bearer <key> x, Bearer x <key>, an unknown key, a pattern matching any key (%, *, .*), the key with a character more or less, the key with its first or last character changed (to another, to _ or %), a look-alike of the key in the query string, in other header fields, in cookies and in members of a NewPet (access_token, ...) (the key itself with --disposable-key); no key, "Bearer" alone and an unknown key again on every request shape the run sent (each query parameter and combination, added headers, a chunked body) and on other spellings of each path (/pets/, /PETS, //pets, /pets.json, /%70ets, /pets;x=1, /V1/pets, the target in absolute form)',
      checks: [
        'auth.*.missing-header',
        'auth.*.empty-token',
        'auth.*.wrong-scheme',
        'auth.*.no-scheme',
        'auth.*.unknown-key',
        'auth.*.key-appended',
        'auth.*.key-truncated',
        'auth.*.key-character-changed',
        'auth.*.valid-key',
        'auth.*.key-in-query',
        'auth.*.key-in-header',
        'auth.createPet.key-in-body',
        'auth.*.empty-header',
        'auth.*.scheme-prefixed',
        'auth.*.word-after-key',
        'auth.*.word-before-key',
        'auth.every-read-shape',
        'auth.every-write-shape',
      ],
    },
    {
      section: '§5',
      statement:
        'How keys are issued is not shown, so neither is how they compare; requests on one connection are independent (RFC 9112 §9.3)',
      oracle:
        'the valid key gets no 401 on a kept-alive connection after the key in the other letter case; that key gets 401 (advisory: keys compared exactly)',
      inputs:
        'the key in the other letter case first on a new connection, then the valid key; the valid key, the key in the other letter case and the valid key again on one connection',
      checks: ['auth.*.valid-key-after-other-case', 'auth.*.key-case-changed'],
    },
    {
      section: '§5',
      statement: 'The scheme is HTTP bearer (its name is case-insensitive in HTTP)',
      oracle:
        'bearer and BEARER are accepted, and the key after two spaces or with white space around the value (advisory: the spec writes Bearer and one space)',
      inputs:
        '"bearer <key>", "BEARER <key>", "Bearer" and two spaces before the key, spaces and tabs around "Bearer <key>"',
      checks: [
        'auth.scheme-case-insensitive',
        'auth.spaces-after-scheme',
        'auth.white-space-around-value',
      ],
    },
    {
      section: '§5',
      statement:
        'A refused request says how to authenticate; no key means 401 whatever the body and whichever the pet',
      oracle: 'WWW-Authenticate offers Bearer; 401 before 400 and before 404 (advisories)',
      inputs:
        'a request without Authorization, with and without a valid body; a getPet without Authorization for a pet no one has',
      checks: [
        'auth.*.www-authenticate',
        'auth.createPet.before-validation',
        'auth.getPet.before-lookup',
      ],
    },
  ],
  checks: [...inStage('first', operationChecks), ...inStage('last', everyShapeChecks)],
};
