// Rules every answer of the run is held to, whichever check sent the request (spec §1, §2, §7):
// strict JSON, Error bodies, the statuses the spec names, Pets of the spec's types.
import { ID_MAX } from '@animal-store/contract';
import { BROWSER_NAVIGATION_ACCEPT } from '../cases/headers.js';
import type { CheckContext } from '../context.js';
import {
  CLOSED_BEFORE_ANSWER,
  comeBackLater,
  type HttpRequest,
  type HttpResponse,
  RequestError,
  sentBytes,
} from '../http/client.js';
import { ANSWER_ORACLES, type Oracle, routeOf } from '../oracles.js';
import { andMore } from '../plural.js';
import { countPets, listAfterData } from './list-pets.js';
import {
  type DeclaredCheck,
  declarer,
  described,
  expectPetList,
  fail,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§1, §2, §7');

/** What the checks of every answer judge, in the spec matrix's words. */
const EVERY_REQUEST =
  'every request of the run, whichever check sent it, each 429 or 503 the kit waited out included, and the first of each operation and error status again with Accept: */*, a read with a browser navigation Accept (text/html first), and with no Accept';

// These checks report the oracles, which judge every answer the kit received during the run,
// whichever check asked. Run alone (`--only errors`) they first provoke a 401 and a 404 so there
// is something to judge.

/**
 * Every answer of the run so far, each 429 or 503 the kit waited out and retried included, and the
 * answers to `ordinaryAcceptCopies`'s requests.
 */
export async function answers(ctx: CheckContext): Promise<readonly HttpResponse[]> {
  await unansweredCopies(ctx);
  return ctx.responses;
}

/**
 * Statuses that refuse a request before its body is read: no key (`401`), no length (`411`), too
 * large (`413`), a media type not taken (`415`).
 */
const REFUSED_UNREAD: ReadonlySet<number> = new Set([401, 411, 413, 415]);

/**
 * Provokes what there is to judge, once a run, and gives the requests of `ordinaryAcceptCopies` that
 * got no answer: `errors.json-body` fails on them, as an error answer with no body at all. A copy
 * of a body's refusal before reading it (`REFUSED_UNREAD`) whose connection closed before any
 * answer is left out: a server may refuse a body by closing (RFC 9110 §15.5.14), or close after
 * an answer to a body it left unread, which a reset of the unread bytes (or a front still
 * sending them) can take away before it arrives (RFC 9112 §9.6).
 */
function unansweredCopies(ctx: CheckContext): Promise<readonly RequestError[]> {
  return ctx.memo('errors: provoke', async () => {
    await ctx.send({ method: 'GET', path: '/pets?limit=1', authorization: null });
    await ctx.send({ method: 'GET', path: `/pets/${ID_MAX}` });
    const unanswered: RequestError[] = [];
    for (const { request, refused } of ordinaryAcceptCopies(ctx.responses)) {
      try {
        await ctx.send(request);
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        const closed = error.kind === 'network' && CLOSED_BEFORE_ANSWER.test(error.reason);
        if (closed && REFUSED_UNREAD.has(refused) && sentBytes(request) !== undefined) continue;
        unanswered.push(error);
      }
    }
    return unanswered;
  });
}

/** The oracle that fails on a copy of an error request that got no answer. */
const JUDGES_UNANSWERED = 'errors.json-body';

/**
 * The request of the first error answer of each operation and status (one asking to come back
 * later aside) that the kit sent with its own `Accept: application/json`, again with
 * `Accept: *\/*`, as curl, fetch and most clients send it, a read also with a browser
 * navigation's `Accept`, which puts HTML first and takes anything after, and with no `Accept` at
 * all, as Go's and Java's clients send it. The spec's bodies are JSON whatever the client
 * accepts, and some servers choose their error page's media type by `Accept` (Jetty's is HTML
 * for `*\/*`). Each copy comes with the status its first send got (`refused`).
 */
export function ordinaryAcceptCopies(
  responses: readonly HttpResponse[],
): { request: HttpRequest; refused: number }[] {
  const seen = new Set<string>();
  const requests: { request: HttpRequest; refused: number }[] = [];
  for (const res of responses) {
    const { request, status } = res;
    const { op } = routeOf(res);
    if (status < 400 || comeBackLater(res) || op === 'other') continue;
    const own = Object.keys(request.headers ?? {});
    if (own.some((name) => name.toLowerCase() === 'accept') || seen.has(`${op} ${status}`))
      continue;
    seen.add(`${op} ${status}`);
    const { connection: _, ...alone } = request;
    const accepts = request.method === 'GET' ? ['*/*', BROWSER_NAVIGATION_ACCEPT] : ['*/*'];
    for (const accept of accepts) {
      requests.push({
        request: { ...alone, headers: { ...request.headers, Accept: accept } },
        refused: status,
      });
    }
    requests.push({ request: { ...alone, withoutAccept: true }, refused: status });
  }
  return requests;
}

/** Fails with the first offender and how many there were, or passes. */
export function verdict(offenders: readonly { res: HttpResponse; why: string }[], judged: string) {
  const [first] = offenders;
  if (first === undefined) return pass(judged);
  return fail(
    `${described(first.res)} answered ${first.res.status}: ${first.why}${andMore(offenders.length)}`,
    first.res,
  );
}

function oracleCheck(oracle: Oracle): DeclaredCheck {
  return check({
    id: oracle.id,
    title: oracle.title,
    section: oracle.section,
    ...(oracle.rule === undefined ? {} : { rule: oracle.rule }),
    async run(ctx) {
      const all = await answers(ctx);
      const offenders = all.flatMap((res) => {
        const why = oracle.judge(res);
        return why === undefined ? [] : [{ res, why }];
      });
      const [unanswered] = oracle.id === JUDGES_UNANSWERED ? await unansweredCopies(ctx) : [];
      // The run reports a request with no answer as it reports any check's: what was sent, why
      // nothing came back, and the request to replay.
      if (offenders.length === 0 && unanswered !== undefined) throw unanswered;
      return verdict(offenders, `${all.length} answers judged`);
    },
  });
}

/** Every answer of the run, whichever check asked: JSON, Errors, statuses, Pets (spec §1, §2, §7). */
export const everyAnswerSection: SpecSection = {
  rows: [
    {
      section: '§1, §7',
      statement: 'Every body is JSON',
      oracle:
        'every body the kit receives with a JSON media type is strict RFC 8259 JSON (UTF-8, no byte-order mark, no unescaped control character), its Content-Type naming no charset but UTF-8 (advisory), each member name once in an object (advisory); every error answer has a JSON body, and a request sent again with another Accept gets one (or, when its body was refused unread with 401, 411, 413 or 415, a closed connection: HTTP lets a server refuse a body so)',
      inputs: EVERY_REQUEST,
      checks: [
        'errors.strict-json',
        'errors.json-charset',
        'errors.unique-member-names',
        'errors.json-body',
      ],
    },
    {
      section: '§2, §7',
      statement:
        'An error answer carries an Error: code, message and status, status the HTTP status',
      oracle: 'every 4xx and 5xx JSON body is an Error whose status equals the HTTP status',
      inputs: EVERY_REQUEST,
      checks: ['errors.error-schema', 'errors.status-matches'],
    },
    {
      section: '§2',
      statement: 'An Error’s code is machine-readable, its message a human-readable description',
      oracle: 'neither is empty or white space alone (advisory)',
      inputs: EVERY_REQUEST,
      checks: ['errors.error-not-empty'],
    },
    {
      section: '§7',
      statement: 'Each operation answers with the statuses the spec names',
      oracle:
        'no 5xx, to any request the kit sends; every 2xx is the success the spec names (200 for listPets and getPet, 201 for createPet)',
      inputs:
        'every request of the run, whichever check sent it, the preflight and the reads before the first pet included',
      checks: ['errors.no-server-errors', 'errors.success-status'],
    },
    {
      section: '§5',
      statement: 'Every operation requires the key: an answer to it is the key holder’s',
      oracle:
        'no success to a request with Authorization says a shared cache may keep it (Cache-Control public or s-maxage) (advisory)',
      inputs: EVERY_REQUEST,
      checks: ['errors.keyed-answers-private'],
    },
    {
      section: '§2',
      statement: 'A Pet has id and categoryId (int64), name (string), status (PetStatus, optional)',
      oracle:
        'every Pet the kit receives (201 bodies, getPet bodies, list entries) has each spec field of its type; ids within int64 read digit for digit, categoryIds (what a client sent) as a parser holding doubles sees them; its integers, and an Error’s status, written with no fraction or exponent (advisory)',
      inputs: 'every answer of the run that carries a Pet',
      checks: [
        'errors.pet-fields',
        'listPets.returns-pet-array',
        'errors.integers-written-plainly',
      ],
    },
  ],
  checks: [
    ...ANSWER_ORACLES.map(oracleCheck),
    check({
      id: 'listPets.returns-pet-array',
      title: 'answers 200 with a JSON array of valid Pets',
      section: '§4.1, §2',
      async run(ctx) {
        const res = await listAfterData(ctx, '');
        const pets = expectPetList(res);
        return pass(`${described(res)} answered 200 with ${countPets(pets.length)}`);
      },
    }),
  ],
};
