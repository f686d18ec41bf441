import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { JSON_EXTENSIONS } from '../src/sections/json-extensions.js';
import { resultOf, runAgainst } from './support/run-kit.js';

// A NewPet in each extension of JSON: no JSON text, and the very NewPet to a reader that takes the
// extension. A server that takes them is advised, never failed (RFC 8259 §9 allows it).

describe('a NewPet written in an extension of JSON', () => {
  const pet = { name: `it's "Rex" \\ 🐕 <é>`, categoryId: '42' };

  it.each(
    JSON_EXTENSIONS.map((e) => [e.what, e] as const),
  )('with %s is no JSON text, and a JSON5 reader reads the NewPet sent', (_, extension) => {
    const body = extension.body(pet);
    expect(() => JSON.parse(body)).toThrow(SyntaxError);
    expect(JSON5.parse(body)).toEqual({ name: pet.name, categoryId: 42 });
  });

  it('is each one extension alone: the five differ', () => {
    expect(new Set(JSON_EXTENSIONS.map((e) => e.body(pet))).size).toBe(JSON_EXTENSIONS.length);
  });

  it('is advised on, naming the first the server took and how many more, never failed', async () => {
    const { report } = await runAgainst(
      { choices: ['reads-json5'] },
      { only: ['createPet.json-extensions-rejected'] },
    );
    const result = resultOf(report, 'createPet.json-extensions-rejected');
    expect(result.outcome).toBe('advisory');
    expect(result.message).toMatch(
      /^POST \/pets written with a block comment answered 201, expected 400: it is no JSON text \(and 4 more\)\n/,
    );
    expect(report.ok).toBe(true);
  });

  it('passes on a server that refuses each with 400 and an Error', async () => {
    const { report, server } = await runAgainst(
      {},
      { only: ['createPet.json-extensions-rejected'] },
    );
    expect(resultOf(report, 'createPet.json-extensions-rejected')).toMatchObject({
      outcome: 'pass',
      message: 'each of 5 extensions answered 400 with an Error',
    });
    // Each extension once, each a NewPet to a JSON5 reader.
    const notJson = server.requests
      .filter((r) => r.method === 'POST')
      .map((r) => r.body)
      .filter((body) => {
        try {
          JSON.parse(body);
          return false;
        } catch {
          return true;
        }
      });
    expect(notJson).toHaveLength(JSON_EXTENSIONS.length);
    for (const body of notJson) expect(JSON5.parse(body)).toHaveProperty('categoryId');
  });
});
