// createPet bodies that come in pieces (spec §2, §4.2): a client that streams its body, or a slow
// network, delivers a NewPet in pieces, and where they break carries no meaning in HTTP (RFC 9112
// §6, §7.1). Each body here holds a name beyond ASCII and breaks inside its characters: a server
// that decodes each piece as text on its own alters the name, which fails as a name not kept
// does; one that reads only the first piece refuses a body it takes whole, which is advised.
import type { SpecPet } from '@animal-store/contract';
import { NON_ASCII_TEXT } from '../cases/names.js';
import type { CheckContext } from '../context.js';
import { newPetJson, type SentPet } from '../fixtures.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { petProblem } from '../oracles.js';
import {
  type DeclaredCheck,
  declarer,
  described,
  difference,
  everyCase,
  expectError,
  expectPet,
  expectStatus,
  fail,
  idOf,
  notApplicable,
  pass,
  type SpecSection,
  sentFields,
} from './support.js';

const check = declarer('§2, §4.2');

/** The ways a body comes in pieces, each with how a message names it. */
const PIECES: readonly (readonly [how: string, shape: Partial<HttpRequest>])[] = [
  ['with Content-Length, in writes cut inside each character', { inPieces: true }],
  ['chunked, one byte a chunk', { inPieces: true, chunked: true }],
];

/** A NewPet the run sent, with its answer and how it went. */
interface Sent {
  readonly how: string;
  readonly sent: SentPet;
  readonly res: HttpResponse;
  readonly chunked: boolean;
}

/** Sends a fresh NewPet whose name goes beyond ASCII, shaped by `shape`. */
async function sendNonAscii(
  ctx: CheckContext,
  how: string,
  shape: Partial<HttpRequest>,
): Promise<Sent> {
  const sent: SentPet = {
    ...ctx.fixtures.nextPet('available'),
    name: `${ctx.fixtures.nextName()}${NON_ASCII_TEXT}`,
  };
  const res = await ctx.send({
    method: 'POST',
    path: '/pets',
    rawBody: newPetJson(sent),
    ...shape,
  });
  return { how, sent, res, chunked: shape.chunked === true };
}

/** The body sent whole, once a run. */
const sentWhole = (ctx: CheckContext): Promise<Sent> =>
  ctx.memo('createPet non-ASCII whole', () => sendNonAscii(ctx, 'whole', {}));

/** The bodies sent in pieces, once a run: both checks judge the same answers. */
const sentInPieces = (ctx: CheckContext): Promise<Sent[]> =>
  ctx.memo('createPet in pieces', async () => {
    const sent: Sent[] = [];
    for (const [how, shape] of PIECES) sent.push(await sendNonAscii(ctx, how, shape));
    return sent;
  });

/** What the body sent whole showed, to say why a name in pieces came back altered. */
function wholeSaid({ sent, res }: Sent): string {
  if (res.status !== 201 || petProblem(res.body) !== undefined) {
    return `sent whole, the same name got ${res.status} and no Pet`;
  }
  return difference(res.body as SpecPet, sentFields(sent)) === undefined
    ? 'sent whole, the same name is kept: a server that decodes each piece of a body as text on its own alters a character cut between two'
    : 'sent whole, the same name comes back altered too';
}

/** Fails unless `res` and the pet read back hold the fields of `sent`. */
async function expectKept(ctx: CheckContext, { how, sent, res }: Sent): Promise<void> {
  const created = expectPet(res, how);
  const answered = difference(created, sentFields(sent));
  if (answered !== undefined) {
    fail(`${described(res, how)}: ${answered} (${wholeSaid(await sentWhole(ctx))})`, res);
  }
  const read = await ctx.send({ method: 'GET', path: `/pets/${idOf(created)}` });
  expectStatus(read, 200, `for the pet created ${how}`);
  const stored = difference(expectPet(read), sentFields(sent));
  if (stored !== undefined) {
    const why = wholeSaid(await sentWhole(ctx));
    fail(`${described(read)} (the pet created ${how}): ${stored} (${why})`, read);
  }
}

const namesKeptInPieces: DeclaredCheck = check({
  id: 'createPet.body-in-pieces',
  title:
    'keeps a name beyond ASCII exactly as sent when the body comes in pieces that break inside its characters (with Content-Length, in writes of their own; chunked, one byte a chunk), or refuses the body with a 4xx Error',
  async run(ctx) {
    const seen: string[] = [];
    await everyCase(ctx, await sentInPieces(ctx), async (piece) => {
      const { how, res } = piece;
      if (res.status >= 400 && res.status <= 499) {
        expectError(res, res.status, how);
        seen.push(`${how}: ${res.status}`);
        return;
      }
      expectStatus(res, 201, how);
      await expectKept(ctx, piece);
      seen.push(`${how}: kept`);
    });
    return pass(seen.join(', '));
  },
});

const acceptedInPieces: DeclaredCheck = check({
  id: 'createPet.body-in-pieces-accepted',
  title:
    'answers 201 to a NewPet whose body comes in pieces, as it answers the same body sent whole (the chunked one may get 411 with an Error)',
  rule: 'RFC 9112 §6, §7.1: where a body’s bytes break carries no meaning; a server that reads only what came first refuses a body it takes whole',
  async run(ctx) {
    const whole = await sentWhole(ctx);
    if (whole.res.status !== 201) {
      notApplicable(
        `${described(whole.res, 'with a name beyond ASCII, whole')} answered ${whole.res.status}: there is no acceptance to compare with`,
      );
    }
    await everyCase(ctx, await sentInPieces(ctx), async ({ how, res, chunked }) => {
      if (chunked && res.status === 411) {
        expectError(res, 411, how);
        return;
      }
      expectStatus(res, 201, `${how} (whole, the same body got 201)`);
    });
    return pass(`${PIECES.length} bodies in pieces answered as the body whole (201)`);
  },
});

/** NewPet bodies that come in pieces. */
export const bodyInPiecesSection: SpecSection = {
  rows: [
    {
      section: '§2, §4.2',
      statement:
        'name is kept as sent, however the body’s bytes come: HTTP gives where they break no meaning',
      oracle:
        'the name back as sent, in the answer and read back, or a 4xx Error; 201 where the body whole got 201 (advisory: the chunked one may get 411)',
      inputs:
        'a NewPet whose name goes beyond ASCII: whole; with Content-Length in writes cut inside each character; chunked, one byte a chunk',
      checks: ['createPet.body-in-pieces', 'createPet.body-in-pieces-accepted'],
    },
  ],
  checks: [namesKeptInPieces, acceptedInPieces],
};
