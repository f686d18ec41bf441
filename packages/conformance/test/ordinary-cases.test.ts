import { describe, expect, it } from 'vitest';
import { headerNames, ordinaryHeaders } from '../src/cases/headers.js';
import { LONG_NAME_LENGTHS, longNames, NON_ASCII_TEXT, nonAsciiNames } from '../src/cases/names.js';
import { NAME_MAX } from '../src/fixtures.js';

// The ordinary headers and unusual names the kit sends, judged by what the spec and HTTP say of
// them rather than by their list.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether an `Accept` value admits `application/json` (RFC 9110 §12.5.1), with q above 0. */
function admitsJson(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return weight > 0 && ['*/*', 'application/*', 'application/json'].includes(type);
  });
}

describe('the headers ordinary clients add', () => {
  // Built in each test, not when the file loads, so that StrykerJS's mutants reach it.
  const runSets = () => ordinaryHeaders('r1a2b3');

  it('are valid HTTP fields, several sets of them', () => {
    const sets = runSets();
    expect(sets.length).toBeGreaterThanOrEqual(5);
    for (const set of sets) {
      for (const [name, value] of Object.entries(set)) {
        expect(name).toMatch(TOKEN);
        expect(value).toMatch(/^[\t\x20-\x7e]+$/);
      }
    }
  });

  it('each admit a JSON answer, so no set gives a server the right to refuse it', () => {
    const sets = runSets();
    const accepts = sets.flatMap((set) => (set.Accept === undefined ? [] : [set.Accept]));
    expect(accepts.length).toBeGreaterThanOrEqual(3);
    for (const accept of accepts) expect(admitsJson(accept), accept).toBe(true);
    // A browser's navigation puts HTML first: JSON only through */*.
    expect(accepts.some((a) => a.startsWith('text/html') && !a.includes('application/json'))).toBe(
      true,
    );
  });

  it("ask caches to revalidate, with an entity tag of the run's own that no server holds", () => {
    const sets = runSets();
    const tags = sets.flatMap((set) =>
      set['If-None-Match'] === undefined ? [] : [set['If-None-Match']],
    );
    expect(tags).toEqual(['"conformance-r1a2b3"']);
    expect(ordinaryHeaders('other')).toContainEqual(
      expect.objectContaining({ 'If-None-Match': '"conformance-other"' }),
    );
    const cacheControls = sets.flatMap((s) =>
      s['Cache-Control'] === undefined ? [] : [s['Cache-Control']],
    );
    expect(cacheControls.sort()).toEqual(['max-age=0', 'no-cache']);
    expect(sets.find((s) => s['Cache-Control'] === 'no-cache')?.Pragma).toBe('no-cache');
    expect(sets.some((s) => /Mozilla\/5\.0 .*Chrome\//.test(s['User-Agent'] ?? ''))).toBe(true);
  });

  it('are named in messages as name and value, comma-separated', () => {
    expect(headerNames({ Accept: '*/*', Pragma: 'no-cache' })).toBe(
      'Accept: */*, Pragma: no-cache',
    );
    expect(headerNames({})).toBe('');
  });
});

describe('the unusual names', () => {
  let n = 0;
  const tagged = () => `cf-r1-${++n}`;

  it('are one past the kit’s own names, two common field sizes and one past a column of 1,000 or 1,024, each a fresh name padded with letters', () => {
    expect([...LONG_NAME_LENGTHS]).toEqual([NAME_MAX + 1, 64, 256, 1025]);
    const names = longNames(tagged);
    expect(names.map((c) => c.name.length)).toEqual([...LONG_NAME_LENGTHS]);
    expect(names.map((c) => c.what)).toEqual(
      LONG_NAME_LENGTHS.map((l) => `a name of ${l} letters`),
    );
    const starts = names.map((c) => /^cf-r1-\d+/.exec(c.name)?.[0]);
    expect(new Set(starts).size).toBe(LONG_NAME_LENGTHS.length);
    for (const { name } of names) {
      const padding = name.replace(/^cf-r1-\d+/, '');
      expect('abcdefghijklmnopqrstuvwxyz'.repeat(40).startsWith(padding)).toBe(true);
    }
  });

  it('carry text beyond ASCII, precomposed as NFC keeps it, in UTF-8 of 2, 3 and 4 bytes', () => {
    for (const form of ['NFC', 'NFKC'] as const) {
      expect(NON_ASCII_TEXT.normalize(form)).toBe(NON_ASCII_TEXT);
    }
    const widths = new Set([...NON_ASCII_TEXT].map((c) => Buffer.byteLength(c)));
    expect([...widths].sort()).toEqual([1, 2, 3, 4]);
    const [one] = nonAsciiNames(() => 'cf-r1-x');
    expect(one).toEqual({
      what: `a name beyond ASCII (${NON_ASCII_TEXT})`,
      name: `cf-r1-x${NON_ASCII_TEXT}`,
    });
    expect(nonAsciiNames(tagged)).toHaveLength(1);
  });
});
