import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytePieces, piecesInsideCharacters } from '../src/http/body-pieces.js';
import { writtenFor } from './support/recording-server.js';
import { runAgainst } from './support/run-kit.js';

// A NewPet whose body comes in pieces that break inside its characters: how the kit cuts it, what
// it puts on the wire, and what `createPet.body-in-pieces` (a name altered) and
// `createPet.body-in-pieces-accepted` (a body refused that is taken whole) make of servers.

const CHECKS = ['createPet.body-in-pieces', 'createPet.body-in-pieces-accepted'];
const utf8 = (text: string) => new TextEncoder().encode(text);
const joined = (pieces: readonly Uint8Array[]) => Buffer.concat(pieces.map((p) => Buffer.from(p)));

describe('a body cut inside its characters', () => {
  it('holds every byte in order, each character beyond ASCII cut before each byte after its first', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), (text) => {
        const body = utf8(text);
        const pieces = piecesInsideCharacters(body);
        expect(joined(pieces)).toEqual(Buffer.from(body));
        const continuations = body.filter((byte) => (byte & 0xc0) === 0x80).length;
        if (continuations > 0) {
          expect(pieces).toHaveLength(continuations + 1);
          for (const piece of pieces.slice(1)) expect((piece[0] as number) & 0xc0).toBe(0x80);
        }
      }),
    );
  });

  it('is cut in halves when it is ASCII, and left whole when it is one byte', () => {
    expect(piecesInsideCharacters(utf8('{"a":1}')).map((p) => Buffer.from(p).toString())).toEqual([
      '{"a',
      '":1}',
    ]);
    expect(piecesInsideCharacters(utf8('1'))).toHaveLength(1);
  });

  it('cuts 猫 (three bytes) into three pieces and 🐈 (four) into four', () => {
    expect(piecesInsideCharacters(utf8('a猫')).map((p) => p.length)).toEqual([2, 1, 1]);
    expect(piecesInsideCharacters(utf8('🐈b')).map((p) => p.length)).toEqual([1, 1, 1, 2]);
  });

  it('goes one byte a chunk when chunked', () => {
    const pieces = bytePieces(utf8('ñ{'));
    expect(pieces.map((p) => [...p])).toEqual([[0xc3], [0xb1], [0x7b]]);
  });
});

describe('a body sent in pieces, on the wire', () => {
  const body = '{"name":"Ñ猫🐈","categoryId":1}';

  it.each([
    ['with Content-Length: the body as it is, after a head that says its length', false],
    ['chunked: each byte a chunk of its own, then the last chunk', true],
  ])('%s', async (_, chunked) => {
    const {
      status,
      head,
      body: sent,
    } = await writtenFor({
      method: 'POST',
      path: '/pets',
      rawBody: body,
      inPieces: true,
      chunked,
    });
    expect(status).toBe(201);
    const expected = Buffer.from(body);
    if (chunked) {
      expect(head).toContain('transfer-encoding: chunked');
      const framed = [...expected].map((byte) =>
        Buffer.concat([Buffer.from('1\r\n'), Buffer.from([byte]), Buffer.from('\r\n')]),
      );
      expect(sent).toEqual(Buffer.concat([...framed, Buffer.from('0\r\n\r\n')]));
    } else {
      expect(head).toContain(`content-length: ${expected.length}`);
      expect(sent).toEqual(expected);
    }
  });
});

describe('the checks of a body in pieces', () => {
  it('pass a server that reads the whole body before it decodes it', async () => {
    const { report } = await runAgainst({}, { only: CHECKS });
    expect(report.results.filter((r) => CHECKS.includes(r.id)).map((r) => r.outcome)).toEqual([
      'pass',
      'pass',
    ]);
  });

  it('pass a server that refuses a body without Content-Length with 411', async () => {
    const { report } = await runAgainst({ choices: ['chunked-length-required'] }, { only: CHECKS });
    const results = report.results.filter((r) => CHECKS.includes(r.id));
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'pass']);
    expect(results[0]?.message).toContain('chunked, one byte a chunk: 411');
  });

  it('leave the comparison to a server that refuses the name sent whole', async () => {
    const { report } = await runAgainst({ choices: ['ascii-names-only'] }, { only: CHECKS });
    const [kept, accepted] = CHECKS.map((id) => report.results.find((r) => r.id === id));
    expect(kept).toMatchObject({ outcome: 'pass', message: expect.stringContaining(': 400') });
    expect(accepted).toMatchObject({
      outcome: 'skip',
      notApplicable: true,
      message: expect.stringMatching(/whole answered 400: there is no acceptance to compare with$/),
    });
  });

  it('fail a server that decodes each piece on its own, naming the name it stored', async () => {
    const { report } = await runAgainst(
      { faults: ['decodes-body-pieces-apart'] },
      { only: CHECKS },
    );
    const kept = report.results.find((r) => r.id === 'createPet.body-in-pieces');
    expect(kept?.outcome).toBe('fail');
    // The chunked body's pieces are chunks, which node:http gives apart whatever the timing; the
    // pieces of the other come apart when the server reads each before the next is written.
    expect(kept?.message).toMatch(/^POST \/pets chunked, one byte a chunk|\(and 1 more\)/);
    expect(kept?.message).toContain('decodes each piece of a body as text on its own');
  });

  it('advise a server that reads only the first piece of a body, which its 400 leaves conforming', async () => {
    const { report } = await runAgainst({ readsFirstBodyPiece: true }, { only: CHECKS });
    const [kept, accepted] = CHECKS.map((id) => report.results.find((r) => r.id === id));
    expect(kept?.outcome).toBe('pass');
    expect(kept?.message).toContain('chunked, one byte a chunk: 400');
    expect(accepted?.level).toBe('should');
    expect(accepted?.outcome).toBe('advisory');
    expect(accepted?.message).toMatch(
      /^POST \/pets chunked, one byte a chunk \(whole, the same body got 201\) answered 400|\(and 1 more\)/,
    );
  });
});
