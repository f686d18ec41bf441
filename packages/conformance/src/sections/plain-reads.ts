// The spec's reads that the checks of how a read is sent (HEAD, pipelined, a target in absolute
// form) send: listPets and getPet, with the key and without it, each a GET a conforming server
// answers in its own way (a list, a pet, 401, 404), so that answers can be told apart.
import { ID_MAX } from '@animal-store/contract';
import type { CheckContext } from '../context.js';
import { type HttpRequest, type HttpResponse, RequestError } from '../http/client.js';
import { andMore } from '../plural.js';
import { CheckFailed, described, idOf } from './support.js';

/** One read: its path, and how it is sent, in the check's words. */
export interface Read {
  readonly what: string;
  readonly path: string;
  /** `null`: sent without a key. */
  readonly authorization?: null;
}

/** listPets' reads: a page, with the key and without it. */
export function listReads(): Read[] {
  return [
    { what: 'with the key', path: '/pets?limit=1' },
    { what: 'without a key', path: '/pets?limit=1', authorization: null },
  ];
}

/**
 * getPet's reads: a pet the server lists (when it lists one; listPets' own checks judge the
 * list, which `--only getPet` reads without creating anything), one that may not exist
 * (2^53−1), and a pet without a key.
 */
export async function petReads(ctx: CheckContext): Promise<Read[]> {
  const list = (await ctx.list('?limit=1')).body;
  const listed = Array.isArray(list) ? idOf(list[0]) : undefined;
  const missing = String(ID_MAX);
  return [
    ...(listed === undefined ? [] : [{ what: 'with the key', path: `/pets/${listed}` }]),
    { what: 'with the key, a pet that may not exist', path: `/pets/${missing}` },
    { what: 'without a key', path: `/pets/${listed ?? missing}`, authorization: null },
  ];
}

/** listPets' reads, then getPet's. */
export async function everyRead(ctx: CheckContext): Promise<Read[]> {
  return [...listReads(), ...(await petReads(ctx))];
}

/** The request of `read` with `method`, and `more` (the connection it goes on, how it is sent). */
export function readRequest(
  read: Read,
  method: HttpRequest['method'],
  more: Pick<HttpRequest, 'connection' | 'absoluteForm' | 'pipelined'> = {},
): HttpRequest {
  return {
    method,
    path: read.path,
    ...(read.authorization === null ? { authorization: null } : {}),
    ...more,
  };
}

/** An answer as these checks tell answers apart: its status, and the JSON type of its body. */
function kindOf(res: HttpResponse): string {
  const { body } = res;
  const type = Array.isArray(body)
    ? 'a JSON array'
    : typeof body === 'object' && body !== null
      ? 'a JSON object'
      : 'no JSON array or object';
  return `${res.status} with ${type}`;
}

/**
 * Judges each read's `answers` (sent as `how` says, given the plain one) against the answer it
 * got sent plainly (`plain`, as `plainly` says): each must have come, with the same status and
 * JSON type. Every read is judged; the first that went wrong ends the check, saying `why` of a
 * changed answer, with the request to replay.
 */
export function judgedAgainstPlain(
  reads: readonly Read[],
  plain: readonly HttpResponse[],
  answers: readonly PromiseSettledResult<HttpResponse>[],
  words: {
    readonly how: (plain: HttpResponse) => string;
    readonly plainly: string;
    readonly why: string;
  },
): void {
  const problems: { message: string; end: (message: string) => Error }[] = [];
  reads.forEach((read, i) => {
    const answer = answers[i] as PromiseSettledResult<HttpResponse>;
    const before = plain[i] as HttpResponse;
    if (answer.status === 'rejected') {
      const error: unknown = answer.reason;
      if (!(error instanceof RequestError)) throw error;
      problems.push({
        message: `GET ${before.path} ${read.what}, ${words.how(before)}: ${error.reason}`,
        end: (message) => new RequestError(error.kind, message, error.reason, error.sent),
      });
    } else if (kindOf(answer.value) !== kindOf(before)) {
      const res = answer.value;
      problems.push({
        message: `${described(res, read.what)}, ${words.how(before)}, answered ${kindOf(res)} where ${words.plainly} it answered ${kindOf(before)}: ${words.why}`,
        end: (message) => new CheckFailed(message, res),
      });
    }
  });
  const [first] = problems;
  if (first !== undefined) throw first.end(`${first.message}${andMore(problems.length)}`);
}
