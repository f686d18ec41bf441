// Reads pipelined on one connection (spec §4.1, §4.3, §5): HTTP/1.1 lets a client send its next
// requests on a connection before the answers to those before them have come, and has the server
// answer them in the order they came (RFC 9112 §9.3.2). The spec says nothing of connections, so a
// server that answers pipelined reads in another order, reads them wrong or leaves them unanswered
// is advised. One that closes the connection after an answer does what HTTP lets it: the reads it
// left go again, each on a connection of its own.
import type { CheckContext } from '../context.js';
import type { HttpResponse } from '../http/client.js';
import { RawConnection } from '../http/raw-connection.js';
import { plural } from '../plural.js';
import { everyRead, judgedAgainstPlain, readRequest } from './plain-reads.js';
import { type DeclaredCheck, declarer, pass, type SpecSection } from './support.js';

const check = declarer('§4.1, §4.3');

/** Each read sent alone, then all of them pipelined on one connection, each answer judged. */
async function pipelined(ctx: CheckContext): Promise<string> {
  const reads = await everyRead(ctx);
  const alone: HttpResponse[] = [];
  for (const read of reads) alone.push(await ctx.send(readRequest(read, 'GET')));
  const connection = new RawConnection();
  connection.pipeline(reads.length);
  const answers = await Promise.allSettled(
    reads.map((read) => ctx.send(readRequest(read, 'GET', { connection, pipelined: true }))),
  );
  connection.close();
  const how = `pipelined with ${plural(reads.length - 1, 'other read')} on one connection`;
  judgedAgainstPlain(reads, alone, answers, {
    how: () => how,
    plainly: 'alone',
    why: 'the answers came in another order than the requests, or a request was read wrong',
  });
  return `${reads.length} reads pipelined on one connection, each answered as alone (${alone.map((res) => res.status).join(', ')})`;
}

const pipelinedReads: DeclaredCheck = check({
  id: 'listPets.pipelined',
  title:
    'answers listPets and getPet requests pipelined on one connection in the order sent, each as it answers it alone (with the key and without it)',
  rule: 'RFC 9112 §9.3.2: a server answers pipelined requests in the order they came',
  async run(ctx) {
    return pass(await pipelined(ctx));
  },
});

/** Pipelined reads of listPets and getPet. */
export const pipelinedReadsSection: SpecSection = {
  rows: [
    {
      section: '§4.1, §4.3',
      statement:
        'listPets and getPet are HTTP/1.1 requests: a client may pipeline them on one connection',
      oracle:
        'the status and JSON type each read gets alone, in the order sent (advisory: the spec says nothing of connections)',
      inputs:
        'a list and a pet with the key and without, and a missing pet: each alone, then all in one write on one connection',
      checks: ['listPets.pipelined'],
    },
  ],
  checks: [pipelinedReads],
};
