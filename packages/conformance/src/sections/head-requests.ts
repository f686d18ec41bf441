// HEAD on the spec's reads (spec §4.1, §4.3, §5): the spec names GET alone, and HTTP has every
// general-purpose server answer HEAD as it answers GET, with the head alone (RFC 9110 §9.1,
// §9.3.2). A server that answers HEAD otherwise (405, or without the key check its GET has), or
// that writes a body after the head, which a client reads as the start of its next answer on the
// connection, is advised.
import type { CheckContext } from '../context.js';
import { type HttpRequest, type HttpResponse, RequestError } from '../http/client.js';
import { NOT_AN_ANSWER, RawConnection } from '../http/raw-connection.js';
import { listReads, petReads, type Read, readRequest } from './plain-reads.js';
import {
  type DeclaredCheck,
  declarer,
  described,
  everyCase,
  fail,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§4.1, §4.3');

const RULE = 'RFC 9110 §9.1 and §9.3.2: HEAD is GET without content in the answer';

/**
 * Sends `read` as HEAD and then as GET on one connection: each answer is read off it in turn, so
 * a body written after HEAD's head is read as the start of GET's answer. Fails the check when the
 * two answers' statuses differ or GET's cannot be read.
 */
async function headThenGet(ctx: CheckContext, read: Read): Promise<string> {
  const connection = new RawConnection();
  const request = (method: HttpRequest['method']) => readRequest(read, method, { connection });
  try {
    const head = await ctx.send(request('HEAD'));
    let get: HttpResponse;
    try {
      get = await ctx.send(request('GET'));
    } catch (error) {
      if (!(error instanceof RequestError) || !error.reason.startsWith(NOT_AN_ANSWER)) throw error;
      fail(
        `${described(head, read.what)} answered ${head.status}, and what followed on its connection was read as the GET's answer: ${error.reason} (a body sent after HEAD's head, which has none)`,
        head,
      );
    }
    if (head.status !== get.status) {
      fail(
        `${described(head, read.what)} answered ${head.status} where GET answered ${get.status}`,
        head,
      );
    }
    return `${read.path}: ${head.status}`;
  } finally {
    connection.close();
  }
}

/** The HEAD check of one read operation, over `reads`. */
function headCheck(
  id: string,
  operation: string,
  reads: (ctx: CheckContext) => Promise<readonly Read[]>,
): DeclaredCheck {
  return check({
    id,
    title: `answers HEAD on ${operation} as it answers GET, with the same status and no body after the head (with the key and without it)`,
    rule: RULE,
    async run(ctx) {
      const seen: string[] = [];
      await everyCase(ctx, await reads(ctx), async (read) => {
        seen.push(await headThenGet(ctx, read));
      });
      return pass(`HEAD answered as GET: ${seen.join(', ')}`);
    },
  });
}

/** HEAD on listPets and getPet. */
export const headRequestsSection: SpecSection = {
  rows: [
    {
      section: '§4.1, §4.3',
      statement: 'listPets and getPet are GET: HTTP answers HEAD as GET, with the head alone',
      oracle:
        'the status GET gets, and the next answer on the connection readable (advisory: the spec names GET alone)',
      inputs:
        'HEAD then GET on one connection: a list, a pet, a missing pet; with the key, without',
      checks: ['listPets.head', 'getPet.head'],
    },
  ],
  checks: [
    headCheck('listPets.head', 'listPets', async () => listReads()),
    headCheck('getPet.head', 'getPet', petReads),
  ],
};
