// createPet with bodies the spec gives no answer to (spec §1, §4.2, §7, §8): another media type
// than JSON, bytes that are no UTF-8, a name escaping a surrogate that has no pair, a body larger
// than proxies and frameworks take by default, JSON nested deeper than parsers go.
// Each is answered with a 4xx Error or with the pet: never a server error, never a body of its own.
import type { CheckContext } from '../context.js';
import { newPetJson, type SentPet } from '../fixtures.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import {
  answerOrLost,
  declarer,
  described,
  difference,
  expectCreatedOrRefused,
  expectError,
  expectPet,
  fail,
  pass,
  type SpecSection,
  sentFields,
  skip,
} from './support.js';

const check = declarer('§1, §4.2');

/** A NewPet sent as another media type than JSON, and how to describe it. */
interface OtherMediaType {
  readonly what: string;
  readonly shape: Partial<HttpRequest>;
  readonly body: (sent: SentPet) => string;
}

/** The NewPet's fields as form fields: name, categoryId and, when sent, status. */
const formFields = (sent: SentPet): Record<string, string> => ({
  name: sent.name,
  categoryId: sent.categoryId,
  ...(sent.status === undefined ? {} : { status: sent.status }),
});

/** The boundary of the kit's multipart bodies (RFC 2046 §5.1.1). */
const BOUNDARY = 'animal-store-kit-form';

/** The NewPet's fields as a multipart/form-data body (RFC 7578) between BOUNDARY lines. */
const multipartForm = (sent: SentPet): string =>
  `${Object.entries(formFields(sent))
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('')}--${BOUNDARY}--\r\n`;

/**
 * Bodies the spec does not define (its bodies are `application/json`): JSON text with no
 * Content-Type or named text, and the NewPet's fields as a form and as a multipart form, which
 * many frameworks read; and that multipart form with a Content-Type that names no boundary, as a
 * client sends it that sets the header itself (a multipart parser cannot read it: a 4xx).
 */
const OTHER_MEDIA_TYPES: readonly OtherMediaType[] = [
  { what: 'no Content-Type', shape: { withoutContentType: true }, body: newPetJson },
  {
    what: 'Content-Type: text/plain',
    shape: { headers: { 'Content-Type': 'text/plain' } },
    body: newPetJson,
  },
  {
    what: 'a form (application/x-www-form-urlencoded)',
    shape: { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    body: (sent) => String(new URLSearchParams(formFields(sent))),
  },
  {
    what: 'a multipart form (multipart/form-data)',
    shape: { headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` } },
    body: multipartForm,
  },
  {
    what: 'a multipart form under Content-Type: multipart/form-data with no boundary',
    shape: { headers: { 'Content-Type': 'multipart/form-data' } },
    body: multipartForm,
  },
];

/** The answers to a NewPet sent as each of OTHER_MEDIA_TYPES, sent once per run. */
function otherMediaTypeAnswers(
  ctx: CheckContext,
): Promise<{ type: OtherMediaType; sent: SentPet; res: HttpResponse }[]> {
  return ctx.memo('createPet: other media types', async () => {
    const answers = [];
    for (const type of OTHER_MEDIA_TYPES) {
      const sent = ctx.fixtures.nextPet('sold');
      const res = await ctx.send({
        method: 'POST',
        path: '/pets',
        rawBody: type.body(sent),
        ...type.shape,
      });
      answers.push({ type, sent, res });
    }
    return answers;
  });
}

/**
 * Byte sequences that are no UTF-8 (RFC 3629), each put inside a name: a lead byte without its
 * continuation, a lone continuation byte, an overlong `/`, an encoded surrogate (CESU-8), a byte
 * UTF-8 never uses.
 */
const NOT_UTF8: readonly [what: string, bytes: readonly number[]][] = [
  ['a lead byte without its continuation (C3 28)', [0xc3, 0x28]],
  ['a lone continuation byte (80)', [0x80]],
  ['an overlong "/" (C0 AF)', [0xc0, 0xaf]],
  ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['a byte UTF-8 never uses (FF)', [0xff]],
];

/** The answers to a NewPet whose name holds each of NOT_UTF8, sent once per run. */
function notUtf8Answers(ctx: CheckContext): Promise<{ what: string; res: HttpResponse }[]> {
  return ctx.memo('createPet: not UTF-8', async () => {
    const answers = [];
    for (const [what, bytes] of NOT_UTF8) {
      const pet = ctx.fixtures.nextPet('available');
      const head = new TextEncoder().encode(`{"name":${JSON.stringify(pet.name).slice(0, -1)}`);
      const tail = new TextEncoder().encode(`","categoryId":${pet.categoryId}}`);
      const rawBytes = new Uint8Array([...head, ...bytes, ...tail]);
      answers.push({ what, res: await ctx.send({ method: 'POST', path: '/pets', rawBytes }) });
    }
    return answers;
  });
}

/**
 * Escapes that end a name with a surrogate that has no pair: JSON text whose string no Unicode
 * text holds (RFC 8259 §8.2 leaves what a receiver makes of it open). Stacks that read it into a
 * string and write it out as UTF-8 fail only when the answer is encoded.
 */
const UNPAIRED_SURROGATES: readonly [what: string, escaped: string][] = [
  ['a high surrogate alone (\\uD800)', '\\uD800'],
  ['a low surrogate alone (\\uDC00)', '\\uDC00'],
  ['a high surrogate before a letter (\\uDBFFx)', '\\uDBFFx'],
  ['a pair in the wrong order (\\uDC00\\uD800)', '\\uDC00\\uD800'],
];

/** The answers to a NewPet whose name ends with each of UNPAIRED_SURROGATES, sent once per run. */
function unpairedSurrogateAnswers(
  ctx: CheckContext,
): Promise<{ what: string; sent: SentPet; res: HttpResponse }[]> {
  return ctx.memo('createPet: unpaired surrogates', async () => {
    const answers = [];
    for (const [what, escaped] of UNPAIRED_SURROGATES) {
      const sent = ctx.fixtures.nextPet('pending');
      const name = JSON.stringify(sent.name);
      const rest = newPetJson(sent).slice(`{"name":${name}`.length);
      const rawBody = `{"name":${name.slice(0, -1)}${escaped}"${rest}`;
      answers.push({ what, sent, res: await ctx.send({ method: 'POST', path: '/pets', rawBody }) });
    }
    return answers;
  });
}

/**
 * White space a NewPet is padded with for `createPet.large-body`: 2 MiB, above what proxies and
 * frameworks take by default (nginx and Fastify 1 MiB, Express 100 KiB).
 */
const LARGE_BODY_PADDING = 2 * 1024 * 1024;

/**
 * How deep `createPet.deep-nesting` nests arrays: past the depth limits parsers set (RFC 8259 §9:
 * Jackson's and CPython's 1,000, Go's 10,000), and past what a recursive parser's stack holds.
 */
const NESTING_DEPTHS = [1_001, 10_001, 100_001] as const;

/**
 * The answer to `request`, or why none came when the server closed the connection instead: HTTP
 * lets a server refuse a body so (RFC 9110 §15.5.14), which leaves nothing to judge, so long as
 * it still serves. A listPets follows to tell: no answer to it either (nothing listens) means the
 * body took the server down, and every client with it (`stopped`, its reason).
 */
async function answerOrClosed(
  ctx: CheckContext,
  request: HttpRequest,
): Promise<HttpResponse | { closed: string; stopped?: string }> {
  const res = await answerOrLost(ctx, request);
  if (!('lost' in res)) return res;
  const closed = `the connection closed before an answer came (${res.lost})`;
  const next = await answerOrLost(ctx, { method: 'GET', path: '/pets?limit=1' });
  return 'lost' in next ? { closed, stopped: next.lost } : { closed };
}

/** Fails when the server stopped serving after `how` got no answer. */
function expectStillServing(res: { closed: string; stopped?: string }, how: string): void {
  if (res.stopped === undefined) return;
  fail(
    `POST /pets ${how} got no answer (${res.closed}), and a listPets sent next none either (${res.stopped}): the body took the server down`,
  );
}

/** A NewPet sent with arrays nested `depth` deep, where `where` says, and what came of it. */
interface NestedBody {
  readonly depth: number;
  readonly where: 'in a member of its own' | 'as the name';
  readonly sent: SentPet;
  readonly res: HttpResponse | { closed: string };
}

/** The answers to NewPets nested each of NESTING_DEPTHS deep, sent once per run. */
function nestedBodyAnswers(ctx: CheckContext): Promise<NestedBody[]> {
  return ctx.memo('createPet: deep nesting', async () => {
    const answers: NestedBody[] = [];
    const send = (rawBody: string, nesting: number) =>
      answerOrClosed(ctx, { method: 'POST', path: '/pets', rawBody, nesting });
    for (const depth of NESTING_DEPTHS) {
      // The nested member comes first: its `[]` is the one the client nests.
      const sent = ctx.fixtures.nextPet('pending');
      const res = await send(`{"nested":[],${newPetJson(sent).slice(1)}`, depth);
      answers.push({ depth, where: 'in a member of its own', sent, res });
    }
    for (const depth of NESTING_DEPTHS) {
      const sent = ctx.fixtures.nextPet('sold');
      const res = await send(`{"name":[],"categoryId":${sent.categoryId}}`, depth);
      answers.push({ depth, where: 'as the name', sent, res });
    }
    return answers;
  });
}

/** `createPet` with bodies the spec leaves open: their answers are held to an Error or a pet. */
export const unspecifiedBodiesSection: SpecSection = {
  rows: [
    {
      section: '§4.2, §7, §8',
      statement: 'Request-size limits are not shown; error responses carry the Error body',
      oracle: '201 with the pet as sent, or a 4xx Error (413); never a 5xx nor a body of its own',
      inputs: 'a NewPet padded with 2 MiB of white space between its members',
      checks: ['createPet.large-body'],
    },
    {
      section: '§1, §4.2',
      statement:
        'All request bodies are JSON (application/json); the spec gives no answer to others',
      oracle:
        'a 4xx Error, or 201 with the pet as sent (a server may read them); never a 5xx (advisory: 415)',
      inputs:
        'a NewPet as JSON with no Content-Type and with text/plain, as a form, and as a multipart form with and without its boundary',
      checks: ['createPet.other-media-types', 'createPet.other-media-types-rejected'],
    },
    {
      section: '§1, §4.2',
      statement: 'A request body is JSON, which is UTF-8 text (RFC 8259 §8.1)',
      oracle:
        'a body holding bytes that are no UTF-8: a 4xx Error, or 201 (a parser may read them); never a 5xx (advisory: 400)',
      inputs: 'a name holding C3 28, 80, C0 AF, ED A0 80 (an encoded surrogate), FF',
      checks: ['createPet.not-utf8', 'createPet.not-utf8-rejected'],
    },
    {
      section: '§1, §2, §4.2',
      statement:
        'A name is a string; a JSON escape may name a surrogate that has no pair, which no Unicode text holds (RFC 8259 §8.2 leaves the reading to the receiver)',
      oracle:
        'a 4xx Error, or 201 with the categoryId and status sent (the name is the server’s reading); never a 5xx (advisory: 400)',
      inputs: `a name ending in ${UNPAIRED_SURROGATES.map(([, escaped]) => escaped).join(', ')}`,
      checks: ['createPet.unpaired-surrogate', 'createPet.unpaired-surrogate-rejected'],
    },
    {
      section: '§2, §4.2, §7',
      statement:
        'Invalid values are answered 400 with an Error; JSON sets no nesting depth (RFC 8259 §9 lets a parser limit it)',
      oracle:
        'arrays nested as the name: 400 (or 413) with an Error; in a member of its own: 201 with the pet as sent, or a 4xx Error; never a 5xx',
      inputs: `arrays nested ${NESTING_DEPTHS.map((d) => d.toLocaleString('en')).join(', ')} deep, in a member of their own and as the name`,
      checks: ['createPet.deep-nesting'],
    },
  ],
  checks: [
    check({
      id: 'createPet.large-body',
      title: `answers a NewPet padded with ${LARGE_BODY_PADDING / 1024 / 1024} MiB of white space (larger than proxies and frameworks take by default) with 201 and the pet as sent, or a 4xx Error such as 413; never a server error nor another body (a connection closed with no answer is not judged while the server still answers a listPets)`,
      section: '§4.2, §7, §8',
      async run(ctx) {
        // The spec sets no request-size limit, and every error carries an Error: a proxy's own
        // 413 page is no answer of the spec's. The pet itself is small: only white space grows.
        const sent = ctx.fixtures.nextPet('pending');
        const res = await answerOrClosed(ctx, {
          method: 'POST',
          path: '/pets',
          rawBody: newPetJson(sent),
          padding: LARGE_BODY_PADDING,
        });
        if ('closed' in res) {
          expectStillServing(res, `padded with ${LARGE_BODY_PADDING} bytes of white space`);
          skip(`${res.closed}: HTTP lets a server refuse a body so`);
        }
        const how = `padded to ${res.request.padding} bytes of white space`;
        expectCreatedOrRefused(res, how, sent);
        return pass(`${described(res, how)} answered ${res.status}`);
      },
    }),
    check({
      id: 'createPet.deep-nesting',
      title: `answers a NewPet holding arrays nested ${NESTING_DEPTHS.map((d) => d.toLocaleString('en')).join(', ')} deep (past parsers' depth limits and stacks) in a member of its own with 201 and the pet as sent or a 4xx Error, and as its name with 400 (or 413) and an Error; never a server error`,
      section: '§2, §4.2, §7',
      async run(ctx) {
        const seen: string[] = [];
        const answers = await nestedBodyAnswers(ctx);
        for (const { depth, where, sent, res } of answers) {
          const how = `with arrays nested ${depth} deep ${where}`;
          if ('closed' in res) {
            expectStillServing(res, how);
            seen.push(`${depth} ${where}: no answer, ${res.closed}`);
            continue;
          }
          if (where === 'as the name') {
            // An invalid value (§4.2: 400), or a body past a size limit the spec leaves open.
            expectError(res, res.status === 413 ? 413 : 400, how);
          } else {
            expectCreatedOrRefused(res, how, sent);
          }
          seen.push(`${depth} ${where}: ${res.status}`);
        }
        // HTTP lets a server refuse a body by closing the connection: nothing came to judge.
        if (answers.every(({ res }) => 'closed' in res)) skip(seen.join(', '));
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'createPet.not-utf8',
      title: `answers a NewPet whose name holds bytes that are no UTF-8 (${NOT_UTF8.map(([what]) => what).join(', ')}) with a 4xx Error or 201; never a server error`,
      section: '§1, §4.2',
      async run(ctx) {
        const seen: string[] = [];
        for (const { what, res } of await notUtf8Answers(ctx)) {
          // The name a 201 shows is the server's reading of bytes that are no text: not judged.
          expectCreatedOrRefused(res, `with ${what} in the name`);
          seen.push(`${what}: ${res.status}`);
        }
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'createPet.not-utf8-rejected',
      title: 'refuses a body that is no UTF-8 with 400 and an Error (the spec leaves it open)',
      rule: 'RFC 8259 §8.1: JSON text is UTF-8; the reference refuses other bytes rather than alter the name',
      async run(ctx) {
        for (const { what, res } of await notUtf8Answers(ctx)) {
          expectError(res, 400, `with ${what} in the name`);
        }
        return pass(`${NOT_UTF8.length} bodies that are no UTF-8 answered 400 with an Error`);
      },
    }),
    check({
      id: 'createPet.unpaired-surrogate',
      title: `answers a NewPet whose name ends with a surrogate that has no pair (${UNPAIRED_SURROGATES.map(([what]) => what).join(', ')}) with a 4xx Error, or with 201 and the categoryId and status sent; never a server error`,
      section: '§1, §2, §4.2',
      async run(ctx) {
        const seen: string[] = [];
        for (const { what, sent, res } of await unpairedSurrogateAnswers(ctx)) {
          const how = `with ${what} in the name`;
          expectCreatedOrRefused(res, how);
          if (res.status === 201) {
            // RFC 8259 §8.2: the name a 201 shows is the server's reading of the escape.
            const pet = expectPet(res, how);
            const problem = difference(pet, { ...sentFields(sent), name: pet.name });
            if (problem !== undefined) fail(`${described(res, how)}: ${problem}`, res);
          }
          seen.push(`${what}: ${res.status}`);
        }
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'createPet.unpaired-surrogate-rejected',
      title:
        'refuses a name ending with a surrogate that has no pair with 400 and an Error (the spec leaves it open)',
      rule: 'RFC 8259 §8.2: such a string is no Unicode text; the reference refuses it rather than alter the name',
      async run(ctx) {
        for (const { what, res } of await unpairedSurrogateAnswers(ctx)) {
          expectError(res, 400, `with ${what} in the name`);
        }
        return pass(
          `${UNPAIRED_SURROGATES.length} names with an unpaired surrogate answered 400 with an Error`,
        );
      },
    }),
    check({
      id: 'createPet.other-media-types',
      title: `answers a NewPet sent with ${OTHER_MEDIA_TYPES.map((t) => t.what).join(', ')} with a 4xx Error, or with 201 and the pet as sent; never a server error`,
      section: '§1, §4.2',
      async run(ctx) {
        const seen: string[] = [];
        for (const { type, sent, res } of await otherMediaTypeAnswers(ctx)) {
          expectCreatedOrRefused(res, `with ${type.what}`, sent);
          seen.push(`${type.what}: ${res.status}`);
        }
        return pass(seen.join(', '));
      },
    }),
    check({
      id: 'createPet.other-media-types-rejected',
      title:
        'refuses a body that is not application/json with 415 and an Error (the spec leaves it open)',
      rule: 'the reference: a body of another media type is refused with 415, not guessed at',
      async run(ctx) {
        for (const { type, res } of await otherMediaTypeAnswers(ctx)) {
          expectError(res, 415, `with ${type.what}`);
        }
        return pass(`${OTHER_MEDIA_TYPES.length} other media types answered 415 with an Error`);
      },
    }),
  ],
};
