// createPet asked to be another method (spec §4.2): a POST to /pets is createPet, whatever it
// adds. Stacks that honour a method override (by default: Symfony's Request under Laravel,
// Rack::MethodOverride in Rails; Express's method-override once added) serve such a POST as the
// method it names: a GET lists pets.
import type { CheckContext } from '../context.js';
import { newPetJson, type SentPet } from '../fixtures.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { declarer, expectCreatedOrRefused, pass, type SpecSection } from './support.js';

const check = declarer('§4.2');

/** A way a POST names another method, and the request that carries it for a NewPet's JSON. */
interface MethodOverride {
  readonly what: string;
  readonly request: (json: string) => HttpRequest;
}

/** The overrides frameworks read by default: a header, a query parameter, a body member. */
const METHOD_OVERRIDES: readonly MethodOverride[] = [
  {
    what: 'X-HTTP-Method-Override: GET',
    request: (json) => ({
      method: 'POST',
      path: '/pets',
      rawBody: json,
      headers: { 'X-HTTP-Method-Override': 'GET' },
    }),
  },
  {
    what: '?_method=GET',
    request: (json) => ({ method: 'POST', path: '/pets?_method=GET', rawBody: json }),
  },
  {
    what: 'a member "_method": "GET"',
    request: (json) => ({
      method: 'POST',
      path: '/pets',
      rawBody: `{"_method":"GET",${json.slice(1)}`,
    }),
  },
];

/** The answers to a NewPet sent with each of METHOD_OVERRIDES, sent once per run. */
function overrideAnswers(
  ctx: CheckContext,
): Promise<{ override: MethodOverride; sent: SentPet; res: HttpResponse }[]> {
  return ctx.memo('createPet: method overrides', async () => {
    const answers = [];
    for (const override of METHOD_OVERRIDES) {
      const sent = ctx.fixtures.nextPet('available');
      answers.push({ override, sent, res: await ctx.send(override.request(newPetJson(sent))) });
    }
    return answers;
  });
}

/** `createPet` with a method override: still a create, or refused. */
export const methodOverrideSection: SpecSection = {
  rows: [
    {
      section: '§4.2',
      statement: 'POST /pets is createPet: 201 with the created Pet, or an Error',
      oracle: '201 with the pet as sent, or a 4xx Error; never a list nor another operation',
      inputs: METHOD_OVERRIDES.map((o) => o.what).join(', '),
      checks: ['createPet.method-override'],
    },
  ],
  checks: [
    check({
      id: 'createPet.method-override',
      title: `answers a NewPet whose POST names another method (${METHOD_OVERRIDES.map((o) => o.what).join(', ')}) with 201 and the pet as sent, or a 4xx Error: a POST to /pets is createPet`,
      async run(ctx) {
        const seen: string[] = [];
        for (const { override, sent, res } of await overrideAnswers(ctx)) {
          expectCreatedOrRefused(res, `with ${override.what}`, sent);
          seen.push(`${override.what}: ${res.status}`);
        }
        return pass(seen.join(', '));
      },
    }),
  ],
};
