// A create the server refuses creates nothing: a request without a valid key is refused with 401
// (spec §5: every operation requires the key) and a body that is no NewPet with 400 (§4.2). A
// server that checks the key after its handler ran (Koa middleware after `await next()`, an
// after-filter) or validates a pet it already saved stores the pet and answers the refusal. The
// run's names are its own, so a name sent only in refused creates, found in the store, was stored
// by one of them.
import { LIMIT_MAX } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import { type HttpResponse, sentText } from '../http/client.js';
import { parseJson } from '../http/json.js';
import { laterPages } from '../http/pages.js';
import { routeOf } from '../oracles.js';
import { plural } from '../plural.js';
import {
  declarer,
  described,
  fail,
  idOf,
  inStage,
  pass,
  type SpecSection,
  skip,
} from './support.js';

const check = declarer('§4.2, §5');

/** The most ids between the run's own pets the check reads one by one. */
const GAP_READS_MAX = 200;

/** The name of the NewPet `res`'s request carried, when it is one of the run's. */
function sentName(ctx: CheckContext, res: HttpResponse): string | undefined {
  if (res.request.method !== 'POST') return undefined;
  const text = sentText(res.request);
  if (text === undefined) return undefined;
  let name: unknown;
  try {
    name = (parseJson(text) as { name?: unknown } | null)?.name;
  } catch {
    return undefined;
  }
  // Whatever shape the names take (capitals, words): the run id is in them, spaces aside.
  const runName = (text: string) => text.toLowerCase().replace(/\s+/g, '');
  return typeof name === 'string' && runName(name).includes(runName(ctx.fixtures.runId))
    ? name
    : undefined;
}

/**
 * The run's names sent only in creates refused with 401 or 400, each with the answer that
 * refused it: a name also sent in a create answered otherwise (a success, a 5xx, no answer) may
 * have been stored by that one. A request the spec's oracles leave alone (a framing beyond the
 * plain, pipelined, at another spelling of the path: `routeOf`) counts as answered otherwise: a
 * server that gets HTTP wrong there still conforms to the spec.
 */
function refusedOnly(ctx: CheckContext): Map<string, HttpResponse> {
  const refused = new Map<string, HttpResponse>();
  const perhapsStored = new Set<string>();
  for (const res of ctx.responses) {
    const name = sentName(ctx, res);
    if (name === undefined) continue;
    if ((res.status === 400 || res.status === 401) && routeOf(res).op === 'createPet') {
      if (!refused.has(name)) refused.set(name, res);
    } else perhapsStored.add(name);
  }
  for (const name of perhapsStored) refused.delete(name);
  return refused;
}

/**
 * Ids between the least and the greatest of the run's own pets that are none of them, the lowest
 * first: where a server that numbers pets in turn put a pet a refused create stored.
 */
function gapIds(ctx: CheckContext): string[] {
  const own = [...ctx.fixtures.createdIds].filter((id) => /^\d+$/.test(id)).map(BigInt);
  if (own.length === 0) return [];
  own.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const known = new Set(own);
  const gaps: string[] = [];
  const last = own[own.length - 1] as bigint;
  for (let id = own[0] as bigint; id < last && gaps.length < GAP_READS_MAX; id++) {
    if (!known.has(id)) gaps.push(String(id));
  }
  return gaps;
}

/** How the refused request `res` answered went, beyond its method and path, for a report. */
function howSent(res: HttpResponse): string {
  const { request } = res;
  const framing = request.chunkedFraming;
  const keyElsewhere =
    request.keyInQuery !== undefined ||
    request.keyHeaders !== undefined ||
    request.keyBody !== undefined;
  return [
    request.authorization === null ? 'without Authorization' : '',
    request.authorization ? 'with an Authorization other than the valid key' : '',
    keyElsewhere ? 'with a key outside Authorization' : '',
    request.chunked ? 'chunked' : '',
    framing?.extension === undefined ? '' : `with the chunk extension ${framing.extension}`,
    framing?.trailer === undefined ? '' : `with the trailer field ${framing.trailer.join(', ')}`,
    request.inPieces ? 'in pieces' : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
}

/** The creates the server refused, and whether the store holds what they sent. */
export const refusedCreatesSection: SpecSection = {
  rows: [
    {
      section: '§4.2, §5',
      statement:
        'createPet requires the key, and refuses a body that is no NewPet with 400: a refused create creates nothing',
      oracle:
        'no pet listed (the first list and the pages it links) or read (the ids between the run’s own pets) has a name the run sent only in creates answered 401 or 400',
      inputs:
        'every create of the run answered 401 (no key, an unknown key, a key elsewhere) or 400, whose name was sent in no create answered otherwise',
      checks: ['createPet.refused-stores-nothing'],
    },
  ],
  // Last: after the creates without a key that the probes of every request shape send.
  checks: inStage('last', [
    check({
      id: 'createPet.refused-stores-nothing',
      title:
        'stores no pet from a create it refused (401 without a valid key, 400 to an invalid body): no name sent only in such creates is listed, or read at the ids between the run’s own pets',
      // It creates nothing, but judges only what creates did: a read-only run sends none.
      async run(ctx) {
        // The list first (shared with other checks): a server that answers nothing fails here
        // rather than pass with nothing refused.
        const first = await ctx.list(`?limit=${LIMIT_MAX}`);
        const refused = refusedOnly(ctx);
        if (refused.size === 0)
          skip('no create of the run was refused with 401 or 400: nothing to look for');
        const found = (pet: unknown, where: HttpResponse) => {
          const name = (pet as { name?: unknown } | null)?.name;
          const by = typeof name === 'string' ? refused.get(name) : undefined;
          if (by === undefined) return;
          fail(
            `${described(where)} shows pet ${idOf(pet) ?? '?'} named ${JSON.stringify(name)}, sent only in creates refused, as ${described(by, howSent(by))} answered ${by.status}`,
            where,
          );
        };
        let listed = 0;
        if (first.status === 200 && Array.isArray(first.body)) {
          for (const pet of first.body) found(pet, first);
          listed += first.body.length;
          for await (const page of laterPages(ctx, first)) {
            for (const pet of page.items) found(pet, page.res);
            listed += page.items.length;
          }
        }
        const gaps = gapIds(ctx);
        for (const id of gaps) {
          const res = await ctx.send({ method: 'GET', path: `/pets/${id}` });
          if (res.status === 200) found(res.body, res);
        }
        return pass(
          `${plural(refused.size, 'name')} sent only in refused creates: none among ${listed} pets listed, nor at ${gaps.length} ids between the run's own`,
        );
      },
    }),
  ]),
};
