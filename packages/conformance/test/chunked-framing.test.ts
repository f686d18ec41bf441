import { describe, expect, it } from 'vitest';
import { SharedConnection } from '../src/http/client.js';
import { testClient } from './support/client.js';
import { writtenFor } from './support/recording-server.js';
import { rawAnswer, runBehindRefusingFront } from './support/refusing-front.js';
import { notPassed, resultOf, runAgainst } from './support/run-kit.js';

// A NewPet chunked with extensions after the chunk sizes and a trailer field: what the kit writes,
// and how `createPet.chunk-extensions` and `createPet.trailer-fields` judge a server's answers
// against the same body chunked without them.

const CHECKS = ['createPet.chunk-extensions', 'createPet.trailer-fields'];

describe('a chunked framing beyond the plain, on the wire', () => {
  const body = '{"name":"Rex","categoryId":1}';

  async function sent(framing: { extension?: string; trailer?: string[] }) {
    const written = await writtenFor(
      { method: 'POST', path: '/pets', rawBody: body, chunked: true, chunkedFraming: framing },
      { raw: true },
    );
    expect(written.status).toBe(201);
    return written;
  }

  it('writes the body in two chunks, the extension after each size and the last', async () => {
    const { head, body: framed } = await sent({ extension: ';note="a b"' });
    expect(head).toContain('transfer-encoding: chunked');
    expect(head).not.toContain('content-length');
    expect(framed.toString('latin1')).toBe(
      `e;note="a b"\r\n${body.slice(0, 14)}\r\nf;note="a b"\r\n${body.slice(14)}\r\n0;note="a b"\r\n\r\n`,
    );
  });

  it('writes the trailer field lines after the last chunk', async () => {
    const { body: framed } = await sent({ trailer: ['X-Checksum: 1'] });
    expect(framed.toString('latin1')).toBe(
      `e\r\n${body.slice(0, 14)}\r\nf\r\n${body.slice(14)}\r\n0\r\nX-Checksum: 1\r\n\r\n`,
    );
  });

  it('is refused by a connection of node:http, which writes the chunked coding its own way', async () => {
    const connection = new SharedConnection();
    try {
      const http = testClient('http://127.0.0.1:9/v1');
      await expect(
        http.send({
          method: 'POST',
          path: '/pets',
          rawBody: body,
          chunked: true,
          chunkedFraming: { extension: ';a' },
          connection,
        }),
      ).rejects.toThrow('a chunked framing needs a RawConnection');
    } finally {
      connection.close();
    }
  });
});

const runBehind = (refuse: (text: string) => string | undefined) =>
  runBehindRefusingFront(CHECKS, refuse);

const EXTENSION = /\r\n[0-9a-f]+;note=/;
/** The trailer field after the last chunk, of a request whose head names it in `Trailer`. */
const TRAILER = /\r\ntrailer: X-Checksum\r\n[\s\S]*\r\n0\r\nX-Checksum: 1\r\n/i;

describe('the checks of a chunked framing', () => {
  it('pass a server that reads both as the plain chunked body', async () => {
    const { report } = await runAgainst({}, { only: CHECKS });
    expect(CHECKS.map((id) => resultOf(report, id).outcome)).toEqual(['pass', 'pass']);
    expect(resultOf(report, 'createPet.chunk-extensions').message).toBe(
      '2 bodies answered 201, as the body chunked without them',
    );
  });

  it('pass a server that answers a chunked body 411, with or without them', async () => {
    const { report } = await runAgainst({ choices: ['chunked-length-required'] }, { only: CHECKS });
    expect(CHECKS.map((id) => resultOf(report, id).outcome)).toEqual(['pass', 'pass']);
    expect(resultOf(report, 'createPet.trailer-fields').message).toBe(
      '1 body answered 411, as the body chunked without them',
    );
  });

  it('advise a refusal of chunk extensions, which the checks of every answer leave alone', async () => {
    const { report, refused } = await runBehind((text) =>
      EXTENSION.test(text) ? rawAnswer(400) : undefined,
    );
    expect(refused).toBe(2);
    expect(resultOf(report, 'createPet.chunk-extensions')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^POST \/pets chunked with a chunk extension after each size \(;note=1\) \(chunked without it: 201\) answered 400, expected 201 \(and 1 more\)/,
      ),
    });
    expect(resultOf(report, 'createPet.trailer-fields').outcome).toBe('pass');
    // A 400 with no Error body: a server whose HTTP layer refuses these still conforms.
    expect(notPassed(report)).toEqual([expect.stringMatching(/^createPet\.chunk-extensions/)]);
  });

  it('advise a 201 that holds no Pet', async () => {
    const { report } = await runBehind((text) =>
      EXTENSION.test(text) ? rawAnswer(201, { created: true }) : undefined,
    );
    expect(resultOf(report, 'createPet.chunk-extensions')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^POST \/pets chunked with a chunk extension after each size \(;note=1\) \(chunked without it: 201\): /,
      ),
    });
  });

  it('advise a trailer left unanswered, naming how the connection ended', async () => {
    const { report, refused } = await runBehind((text) => (TRAILER.test(text) ? '' : undefined));
    expect(refused).toBe(1);
    expect(resultOf(report, 'createPet.trailer-fields')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^POST \/pets failed: .+ \(chunked with a trailer field after the last chunk \(X-Checksum: 1, named in Trailer\) \(chunked without it: 201\)\)\nreplay: curl /,
      ),
    });
  });

  it('leave a 5xx to the checks of every answer, which fail it', async () => {
    const error = { code: 'internal', message: 'trailer', status: 500 };
    const { report } = await runBehind((text) =>
      TRAILER.test(text) ? rawAnswer(500, error) : undefined,
    );
    expect(resultOf(report, 'createPet.trailer-fields').outcome).toBe('advisory');
    expect(resultOf(report, 'errors.no-server-errors')).toMatchObject({
      outcome: 'fail',
      message: expect.stringContaining('POST /pets'),
    });
  });
});
