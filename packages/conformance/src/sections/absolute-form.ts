// Reads whose request target is in absolute form (spec §4.1, §4.3, §5): HTTP/1.1 clients write
// `GET http://host/v1/pets HTTP/1.1` to a proxy, and a server must accept the form too, reading
// the path and query as it reads `GET /v1/pets` (RFC 9112 §3.2.2). The spec says nothing of the
// form, so a server that answers a read in it otherwise (404 for a route it does not match, 400)
// is advised.
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import { RawConnection } from '../http/raw-connection.js';
import { absoluteTarget } from '../http/request-target.js';
import { everyRead, judgedAgainstPlain, readRequest } from './plain-reads.js';
import { type DeclaredCheck, declarer, pass, type SpecSection } from './support.js';

const check = declarer('§4.1, §4.3');

/** Each read sent in origin form, then in absolute form on a connection of its own. */
async function inAbsoluteForm(ctx: CheckContext): Promise<string> {
  const reads = await everyRead(ctx);
  const alone: HttpResponse[] = [];
  const answers: PromiseSettledResult<HttpResponse>[] = [];
  for (const read of reads) {
    alone.push(await ctx.send(readRequest(read, 'GET')));
    // A connection of its own, new: no idle close of a kept one can take the request unanswered.
    const connection = new RawConnection();
    const sent = readRequest(read, 'GET', { connection, absoluteForm: true });
    answers.push(...(await Promise.allSettled([ctx.send(sent).finally(() => connection.close())])));
  }
  judgedAgainstPlain(reads, alone, answers, {
    how: (plain) => `its target in absolute form (${absoluteTarget(new URL(plain.url))})`,
    plainly: 'in origin form',
    why: 'a server reads the path and query of a target in absolute form as in origin form',
  });
  return `${reads.length} reads in absolute form, each answered as in origin form (${alone.map((res) => res.status).join(', ')})`;
}

const absoluteFormReads: DeclaredCheck = check({
  id: 'listPets.absolute-form',
  title:
    'answers listPets and getPet requests whose target is in absolute form (GET http://host/v1/pets) as it answers them in origin form (with the key and without it)',
  rule: 'RFC 9112 §3.2.2: a server accepts a request target in absolute form',
  async run(ctx) {
    return pass(await inAbsoluteForm(ctx));
  },
});

/** listPets and getPet with their target in absolute form. */
export const absoluteFormSection: SpecSection = {
  rows: [
    {
      section: '§4.1, §4.3',
      statement:
        'listPets and getPet are HTTP/1.1 requests: a client may write their target in absolute form',
      oracle:
        'the status and JSON type each read gets in origin form (advisory: the spec says nothing of the form)',
      inputs:
        'a list and a pet with the key and without, and a missing pet: each in origin form, then in absolute form',
      checks: ['listPets.absolute-form'],
    },
  ],
  checks: [absoluteFormReads],
};
