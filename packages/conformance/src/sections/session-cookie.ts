// Every operation requires the key in Authorization (spec §5). A server may open a session for a
// request that carried it and set a cookie (passport's default `session: true` behind
// express-session, a framework's login): that cookie is no key. The cookies the server set on
// answers to the key, sent back without Authorization, get a 4xx Error (401 is what §5 names).
import type { CheckContext } from '../context.js';
import {
  declarer,
  described,
  everyCase,
  expectError,
  fail,
  inStage,
  listedReads,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§5');

/** `name=value` of every cookie the server set on an answer to the valid key, the last of each name. */
function cookiesSet(ctx: CheckContext): string[] {
  const pairs = new Map<string, string>();
  for (const res of ctx.responses) {
    if (res.request.authorization !== undefined) continue;
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]?.trim() ?? '';
      const at = pair.indexOf('=');
      if (at > 0 && at < pair.length - 1) pairs.set(pair.slice(0, at), pair);
    }
  }
  return [...pairs.values()];
}

/** Cookies the server set, sent back without a key. */
export const sessionCookieSection: SpecSection = {
  rows: [
    {
      section: '§5',
      statement: 'The key travels in Authorization; a request without it gets 401',
      oracle:
        'a 4xx Error (401) to reads sent without Authorization with the cookies the server set',
      inputs:
        'listPets and getPet with Cookie: every cookie the server set on an answer to the valid key',
      checks: ['auth.session-cookie'],
    },
  ],
  checks: inStage('late', [
    check({
      id: 'auth.session-cookie',
      title:
        'answers 401 to a read without Authorization that sends back the cookies the server set on answers to the valid key (a session is no key)',
      async run(ctx) {
        // A list with the key first (shared with other checks): it may set a cookie, and a
        // server that answers nothing fails here rather than pass with nothing sent.
        const listed = await ctx.list('?limit=1');
        const cookies = cookiesSet(ctx);
        // No cookie, no session to send back: the statement holds as it stands.
        if (cookies.length === 0) return pass('the server set no cookie on an answer to the key');
        const paths = listedReads(listed);
        const how = `without Authorization, with the ${cookies.length === 1 ? 'cookie' : `${cookies.length} cookies`} the server set`;
        const seen: string[] = [];
        await everyCase(ctx, paths, async (path) => {
          const res = await ctx.send({
            method: 'GET',
            path,
            authorization: null,
            secretHeaders: { Cookie: cookies.join('; ') },
          });
          if (res.status < 400 || res.status > 499) {
            fail(`${described(res, how)} answered ${res.status}, expected 401`, res);
          }
          expectError(res, res.status, how);
          seen.push(`${described(res, how)} answered ${res.status}`);
        });
        return pass(seen.join('; '));
      },
    }),
  ]),
};
