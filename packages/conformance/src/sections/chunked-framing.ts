// createPet bodies in the chunked coding with what it carries besides data (spec §4.2): an
// extension after a chunk's size, which a recipient ignores when it does not know it (RFC 9112
// §7.1.1), and trailer fields after the last chunk, which a recipient may keep or drop (§7.1.2).
// Neither changes the body. The spec says nothing of either, so a server that answers such a
// body otherwise than the same body chunked without them is advised.
import type { CheckContext } from '../context.js';
import { newPetJson } from '../fixtures.js';
import type { ChunkedFraming } from '../http/client.js';
import { RawConnection } from '../http/raw-connection.js';
import { plural } from '../plural.js';
import { createdChunked } from './create-pet.js';
import {
  answerTo,
  type DeclaredCheck,
  declarer,
  everyCase,
  expectPet,
  expectStatus,
  pass,
  type SpecSection,
} from './support.js';

const check = declarer('§4.2');

/** A way to frame a chunked NewPet: how a message names it, the framing, headers it needs. */
type Framed = readonly [how: string, framing: ChunkedFraming, headers?: Record<string, string>];

const EXTENSIONS: readonly Framed[] = [
  ['with a chunk extension after each size (;note=1)', { extension: ';note=1' }],
  ['with a chunk extension of a quoted value (;note="a b")', { extension: ';note="a b"' }],
];

const TRAILERS: readonly Framed[] = [
  [
    'with a trailer field after the last chunk (X-Checksum: 1, named in Trailer)',
    { trailer: ['X-Checksum: 1'] },
    { Trailer: 'X-Checksum' },
  ],
];

/**
 * Sends a fresh NewPet chunked in each way of `cases`, each on a raw connection of its own (no
 * HTTP client writes these), and fails unless each gets the status the same body chunked without
 * them got, with a Pet when that is 201.
 */
async function answeredAsPlainChunked(ctx: CheckContext, cases: readonly Framed[]) {
  const plain = await createdChunked(ctx);
  await everyCase(ctx, cases, async ([how, chunkedFraming, headers]) => {
    const connection = new RawConnection();
    const told = `chunked ${how} (chunked without it: ${plain.status})`;
    try {
      const res = await answerTo(
        told,
        ctx.send({
          method: 'POST',
          path: '/pets',
          rawBody: newPetJson(ctx.fixtures.nextPet('available')),
          chunked: true,
          chunkedFraming,
          connection,
          ...(headers === undefined ? {} : { headers }),
        }),
      );
      expectStatus(res, plain.status, told);
      if (res.status === 201) expectPet(res, told);
    } finally {
      connection.close();
    }
  });
  const bodies = plural(cases.length, 'body', 'bodies');
  return pass(`${bodies} answered ${plain.status}, as the body chunked without them`);
}

const chunkExtensions: DeclaredCheck = check({
  id: 'createPet.chunk-extensions',
  title:
    'answers a NewPet sent chunked with chunk extensions (;note=1, ;note="a b") as it answers it chunked without them',
  rule: 'RFC 9112 §7.1.1: a recipient ignores a chunk extension it does not know',
  run: (ctx) => answeredAsPlainChunked(ctx, EXTENSIONS),
});

const trailerFields: DeclaredCheck = check({
  id: 'createPet.trailer-fields',
  title: 'answers a NewPet sent chunked with a trailer field as it answers it chunked without one',
  rule: 'RFC 9112 §7.1.2: a recipient keeps or drops trailer fields; the body is the same',
  run: (ctx) => answeredAsPlainChunked(ctx, TRAILERS),
});

/** Chunked NewPets with extensions and trailer fields. */
export const chunkedFramingSection: SpecSection = {
  rows: [
    {
      section: '§4.2',
      statement:
        'createPet takes a NewPet in any HTTP/1.1 framing: the chunked coding may carry extensions and trailer fields',
      oracle:
        'the status the same body gets chunked without them, a Pet with 201 (advisory: the spec says nothing of framing)',
      inputs:
        'a NewPet chunked with ;note=1 and ;note="a b" after each chunk size, and with a trailer field',
      checks: ['createPet.chunk-extensions', 'createPet.trailer-fields'],
    },
  ],
  checks: [chunkExtensions, trailerFields],
};
