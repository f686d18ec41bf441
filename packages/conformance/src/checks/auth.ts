import { ID_MAX } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import type { Check } from '../types.js';
import { check, described, expectError, expectStatus, fail, idOf, pass, skip } from './support.js';

/** One operation as the auth checks drive it. */
interface Operation {
  readonly name: 'listPets' | 'createPet' | 'getPet';
  readonly section: string;
  readonly writes: boolean;
  /** Sends the operation with the given `Authorization` (null: none, undefined: the valid key). */
  send(ctx: CheckContext, authorization?: string | null): Promise<HttpResponse>;
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
    send: (ctx, authorization) => ctx.send({ method: 'GET', path: '/pets?limit=1', authorization }),
    success: async () => 200,
  },
  {
    name: 'createPet',
    section: '§4.2, §5',
    writes: true,
    send: (ctx, authorization) =>
      ctx.send({
        method: 'POST',
        path: '/pets',
        authorization,
        json: { name: ctx.fixtures.nextName(), categoryId: ctx.fixtures.nextCategoryId() },
      }),
    success: async () => 201,
  },
  {
    name: 'getPet',
    section: '§4.3, §5',
    writes: false,
    send: async (ctx, authorization) => {
      const id = (await knownPetId(ctx)) ?? String(ID_MAX);
      return ctx.send({ method: 'GET', path: `/pets/${id}`, authorization });
    },
    success: async (ctx) => ((await knownPetId(ctx)) === undefined ? undefined : 200),
  },
];

/** The ways a request can fail to carry a valid bearer key, each of which must get 401. */
const BAD_CREDENTIALS: readonly {
  readonly id: string;
  readonly title: string;
  readonly how: string;
  readonly authorization: (ctx: CheckContext) => string | null;
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
    authorization: () => 'Bearer ',
  },
  {
    id: 'wrong-scheme',
    title: 'answers 401 with an Error body to the valid key under another scheme',
    how: 'with "Basic <valid key>"',
    authorization: (ctx) => `Basic ${ctx.apiKey}`,
  },
  {
    id: 'unknown-key',
    title: 'answers 401 with an Error body to an unknown key',
    how: 'with an unknown bearer key',
    authorization: (ctx) => `Bearer conformance-unknown-${ctx.fixtures.runId}`,
  },
];

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
      id: `auth.${op.name}.www-authenticate`,
      title: `${op.name} sends a Bearer WWW-Authenticate challenge with 401 (RFC 6750)`,
      section: op.section,
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
    title: 'accepts the scheme name in any case ("bearer <key>"; RFC 9110 §11.1)',
    section: '§5',
    level: 'should',
    group: 'auth',
    writes: false,
    async run(ctx) {
      const how = 'with "bearer <valid key>"';
      const res = await ctx.send({
        method: 'GET',
        path: '/pets?limit=1',
        authorization: `bearer ${ctx.apiKey}`,
      });
      expectStatus(res, 200, how);
      return pass(`${described(res, how)} answered 200`);
    },
  }),
];
