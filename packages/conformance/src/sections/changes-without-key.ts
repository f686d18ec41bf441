// Every operation requires the key (spec §1, §5), the ones the spec has but does not show too
// (§4: updates and deletes). The kit cannot know their paths or bodies, but it can try the ones
// HTTP APIs and the Petstore use on a pet of its own, each without a key, and read the pet back:
// a pet changed or gone shows an operation that ran without authentication.
import type { CheckContext } from '../context.js';
import { newPetJson, type SentPet } from '../fixtures.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { readBackDifference } from './read-back.js';
import {
  answerOrLost,
  declarer,
  described,
  fail,
  idOf,
  inStage,
  pass,
  type SpecSection,
  skip,
} from './support.js';

const check = declarer('§1, §4, §5');

/** A request that would change pet `id` were it carried out, named in words. */
interface Change {
  readonly what: string;
  readonly request: (id: string, sent: SentPet) => HttpRequest;
}

/** The name a change gives the pet: the one it was sent with, and a word more. */
const changedName = (sent: SentPet) => `${sent.name}x`;

/** The changes tried, each without `Authorization`. */
const CHANGES: readonly Change[] = [
  {
    what: 'with another name',
    request: (id, sent) => ({
      method: 'PATCH',
      path: `/pets/${id}`,
      authorization: null,
      json: { name: changedName(sent) },
    }),
  },
  {
    what: 'with another name and status',
    request: (id, sent) => ({
      method: 'PUT',
      path: `/pets/${id}`,
      authorization: null,
      // The categoryId as sent, an integer however large.
      rawBody: newPetJson({ ...sent, name: changedName(sent), status: 'sold' }),
    }),
  },
  {
    // Swagger's Petstore updates a pet from a form posted to its path.
    what: "as the Petstore's form of another name and status",
    request: (id, sent) => ({
      method: 'POST',
      path: `/pets/${id}`,
      authorization: null,
      rawBody: new URLSearchParams({ name: changedName(sent), status: 'sold' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    }),
  },
  {
    what: '',
    request: (id) => ({ method: 'DELETE', path: `/pets/${id}`, authorization: null }),
  },
];

/** Why pet `id`, as read back with the key, is not the pet sent; undefined when it is. */
async function readBackProblem(
  ctx: CheckContext,
  id: string,
  sent: SentPet,
): Promise<{ read: HttpResponse; problem: string | undefined }> {
  const read = await ctx.send({ method: 'GET', path: `/pets/${id}` });
  if (read.status === 404) return { read, problem: 'it is gone' };
  if (read.status !== 200) return { read, problem: `getPet answered ${read.status}` };
  return { read, problem: readBackDifference({ id, sent, res: read }) };
}

/** Creates a pet for this check alone; skips the check when none can be created. */
async function ownPet(ctx: CheckContext): Promise<{ id: string; sent: SentPet }> {
  const sent = ctx.fixtures.nextPet('available');
  const res = await ctx.send({ method: 'POST', path: '/pets', rawBody: newPetJson(sent) });
  const id = res.status === 201 ? idOf(res.body) : undefined;
  if (id === undefined) skip(`${described(res)} answered ${res.status}: no pet to try changes on`);
  return { id, sent };
}

/** Changes tried without a key on a pet of the run's own. */
export const changesWithoutKeySection: SpecSection = {
  rows: [
    {
      section: '§1, §4, §5',
      statement:
        'Every operation requires the key, those the spec has without showing them (updates, deletes) too',
      oracle:
        'a pet the run created reads back unchanged (getPet, with the key) after each change of it sent without a key',
      inputs:
        "PATCH and PUT of /pets/{id} with another name, the Petstore's form POST to it, DELETE of it",
      checks: ['auth.changes-need-key'],
    },
  ],
  checks: inStage('late', [
    check({
      id: 'auth.changes-need-key',
      title:
        "changes no pet for a request without a key: a pet the run created reads back unchanged after a PATCH, a PUT, the Petstore's form POST and a DELETE of it, each without Authorization",
      writes: true,
      async run(ctx) {
        const { id, sent } = await ownPet(ctx);
        // Read back first: a server whose reads lag its writes is no server changed by a request.
        const before = await readBackProblem(ctx, id, sent);
        if (before.problem !== undefined) {
          skip(`pet ${id}, just created, does not read back as sent: ${before.problem}`);
        }
        const seen: string[] = [];
        for (const change of CHANGES) {
          const how = `${change.what}${change.what === '' ? '' : ', '}without a key`;
          const request = change.request(id, sent);
          // A server may drop a method it does not serve (nginx's `return 444`): the pet read
          // back still tells whether the request ran.
          const res = await answerOrLost(ctx, request);
          const answered =
            'lost' in res
              ? `${request.method} ${request.path} ${how} got no answer (${res.lost})`
              : `${described(res, how)} answered ${res.status}`;
          seen.push(`${request.method} ${'lost' in res ? 'unanswered' : res.status}`);
          const { read, problem } = await readBackProblem(ctx, id, sent);
          if (problem !== undefined) fail(`pet ${id} changed after ${answered}: ${problem}`, read);
        }
        return pass(`pet ${id} unchanged after ${seen.join(', ')} without a key`);
      },
    }),
  ]),
};
