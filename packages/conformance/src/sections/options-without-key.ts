// Every operation requires the key (spec §5), and OPTIONS is none of the spec's: whatever a server
// answers it (204 and Allow, a CORS preflight's headers, 401, 405, 501), the answer shows no pet.
// A guard that lets OPTIONS through for browsers' preflights, in front of a handler that does not
// look at the method, serves the list or a pet to anyone.
import {
  answerOrLost,
  declarer,
  described,
  everyCase,
  expectNoPetsShown,
  listedReads,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§5');

/** A browser's CORS preflight for a read with the key (the Fetch standard's CORS protocol). */
const PREFLIGHT = {
  Origin: 'https://conformance.invalid',
  'Access-Control-Request-Method': 'GET',
  'Access-Control-Request-Headers': 'authorization',
};

/** OPTIONS on the spec's paths, without a key. */
export const optionsWithoutKeySection: SpecSection = {
  rows: [
    {
      section: '§5',
      statement: 'Every operation requires the key: no request without it is shown pets',
      oracle: 'no pet in the answer, whatever its status',
      inputs:
        'OPTIONS without Authorization on the list and on a listed pet, plain and as a CORS preflight (Origin, Access-Control-Request-Method: GET)',
      checks: ['auth.options-shows-nothing'],
    },
  ],
  checks: [
    check({
      id: 'auth.options-shows-nothing',
      title:
        'shows no pet in an answer to OPTIONS without a key on /pets and /pets/{petId}, plain or as a CORS preflight (a guard that lets preflights through must not let the handler answer them)',
      async run(ctx) {
        // A list with the key first (shared with other checks): the pet it shows is asked for, and
        // a server that answers nothing fails here rather than pass with nothing shown.
        const paths = listedReads(await ctx.list('?limit=1'));
        const cases = paths.flatMap((path) => [
          { path, how: 'without Authorization' },
          { path, how: 'without Authorization, as a CORS preflight', headers: PREFLIGHT },
        ]);
        const seen: string[] = [];
        await everyCase(ctx, cases, async ({ path, how, headers }) => {
          const res = await answerOrLost(ctx, {
            method: 'OPTIONS',
            path,
            authorization: null,
            ...(headers === undefined ? {} : { headers }),
          });
          // A server may drop a method it does not serve (nginx's `return 444`): nothing shown.
          if ('lost' in res) {
            seen.push(`OPTIONS ${path} ${how}: no answer (${res.lost})`);
            return;
          }
          expectNoPetsShown(res, how);
          seen.push(`${described(res, how)} answered ${res.status}`);
        });
        return pass(seen.join('; '));
      },
    }),
  ],
};
