import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { CHECKS } from '../src/index.js';
import type { FakeServerOptions, Fault } from './support/fake-server.js';
import { notPassed, resultOf, runAgainst } from './support/run-kit.js';

// What the kit catches follows from the boundaries it always sends, never from the seed: each
// faulty server below (one per oracle and per boundary class) is caught on every seed, with the
// same verdicts; `--seed` only adds random values on top.
const SEEDS = [1, 7, 4242, 1234567, 2147483646] as const;

type Row = readonly [
  what: string,
  fault: Fault,
  /** The `must` checks that fail on every seed. */
  caught: readonly string[],
  /** The checks that send what shows the fault, besides `caught`. */
  also?: readonly string[],
  /** How the server fills the gaps (a store holding pets before the run). */
  server?: FakeServerOptions,
];

const FAULTY: readonly Row[] = [
  // One per oracle: each judges every answer, whichever check sent the request.
  [
    'oracle strict JSON: a byte-order mark',
    'json-bom-on-lists',
    ['errors.strict-json'],
    ['listPets.returns-pet-array'],
  ],
  [
    'oracle Pet fields: categoryId beyond int64',
    'list-category-id-beyond-int64',
    ['errors.pet-fields'],
    ['listPets.returns-pet-array'],
  ],
  ['oracle Error body: no JSON', 'get-404-as-html', ['errors.json-body'], ['getPet.not-found']],
  [
    'oracle Error status: another status',
    'get-404-status-mismatch',
    ['errors.status-matches'],
    ['getPet.not-found'],
  ],
  [
    'oracle no 5xx',
    'list-500-on-other-case-status',
    ['errors.no-server-errors'],
    ['listPets.status-boundaries'],
  ],
  [
    'oracle pet model: a default status that changes',
    'default-status-differs-on-read',
    ['errors.created-pets-agree'],
    ['createPet.without-status', 'getPet.returns-pet'],
  ],
  [
    'oracle pet model: names changed in lists',
    'list-shows-name-trimmed',
    ['errors.created-pets-agree'],
    ['createPet.listed'],
  ],
  // One per boundary class.
  ['string edges: a padded name trimmed', 'create-trims-names', ['createPet.string-boundaries']],
  [
    'int64 edges: categoryId kept in 32 bits',
    'create-category-id-as-int32',
    ['createPet.integer-boundaries'],
  ],
  [
    'beyond int64: unsigned 64-bit categoryIds',
    'create-accepts-unsigned-category-id',
    ['createPet.invalid-category-id'],
  ],
  [
    'other JSON types: categoryId false',
    'create-accepts-false-category-id',
    ['createPet.invalid-category-id'],
  ],
  ['enum letter case: "Sold"', 'create-accepts-capitalised-status', ['createPet.invalid-status']],
  ['enum empty: status ""', 'create-empty-status-as-default', ['createPet.invalid-status']],
  ['body JSON types: an array unwrapped', 'create-unwraps-body', ['createPet.body-not-object']],
  [
    'path ids: 0 answered with a pet',
    'get-returns-a-pet-for-0',
    ['getPet.path-boundaries'],
    ['createPet.created'],
  ],
  ['path ids: 500 beyond 2^53', 'get-500-beyond-double', ['getPet.path-boundaries']],
  [
    'query: status without limit unbounded',
    'list-status-filter-unbounded',
    ['listPets.status-default-limit'],
    [],
    // More than 20 pets of one status only exist on a store that held pets before the run.
    { choices: ['preloaded-store'] },
  ],
  [
    'query: status with limit ignored',
    'list-ignores-limit-with-status',
    ['listPets.status-with-limit'],
  ],
  ['query: 500 to limit=0', 'list-500-on-limit-0', ['listPets.limit-out-of-range']],
  [
    'Authorization: a word after the key',
    'auth-ignores-words-after-key',
    ['auth.listPets.word-after-key'],
  ],
  ['Authorization: XBearer', 'auth-accepts-prefixed-scheme', ['auth.listPets.scheme-prefixed']],
  ['Authorization: an empty token', 'auth-accepts-empty-token', ['auth.listPets.empty-token']],
  [
    'request shapes: a chunked body refused',
    'create-refuses-chunked',
    ['createPet.request-shapes'],
  ],
  [
    'request shapes: If-None-Match answered 304',
    'read-304-on-if-none-match',
    ['listPets.request-shapes'],
  ],
  [
    'request shapes: Cache-Control refused',
    'auth-refuses-with-cache-control',
    ['listPets.request-shapes'],
  ],
  // Authentication on every request shape the run sends, and every spelling of a path.
  [
    'oracle success status: 204 for an empty list',
    'list-204-when-empty',
    ['errors.success-status'],
  ],
  [
    'auth shapes: the key skipped with a status filter',
    'auth-skipped-with-status-filter',
    ['auth.every-read-shape'],
    ['listPets.status-filter.sold'],
  ],
  [
    'auth shapes: the key skipped at /pets/',
    'auth-skipped-on-path-spellings',
    ['auth.every-read-shape'],
  ],
  [
    'auth shapes: the key skipped for a chunked body',
    'auth-skipped-on-chunked-create',
    ['auth.every-write-shape'],
    ['createPet.request-shapes'],
  ],
  // Other RFC 8259 spellings of a NewPet the server accepted.
  [
    'spellings: \\u escapes refused',
    'create-refuses-unicode-escapes',
    ['createPet.json-spellings'],
  ],
  [
    'spellings: \\/ refused',
    'create-refuses-escaped-slash',
    ['createPet.json-spellings'],
    ['createPet.string-boundaries'],
  ],
  ['spellings: white space refused', 'create-refuses-whitespace', ['createPet.json-spellings']],
  ['spellings: member order fixed', 'create-needs-name-first', ['createPet.json-spellings']],
  [
    'spellings: surrogate pairs split',
    'create-splits-surrogate-escapes',
    ['createPet.json-spellings'],
    ['createPet.non-ascii-name-kept'],
  ],
];

/** Each check's outcome, by id: what must not change with the seed. */
function verdicts(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
}

describe.concurrent('faulty servers, on every seed', () => {
  const rows = FAULTY.map(([what, fault, caught, also = [], server = {}]) => ({
    what,
    fault,
    caught,
    also,
    server,
  }));
  it.each(rows)('catches $what on every seed, with the same verdicts', async ({
    fault,
    caught,
    also,
    server,
  }) => {
    const only = [...caught, ...also];
    const reports = await Promise.all(
      SEEDS.map(
        async (seed) => (await runAgainst({ ...server, faults: [fault] }, { seed, only })).report,
      ),
    );
    for (const [i, report] of reports.entries()) {
      for (const id of caught) {
        const result = resultOf(report, id);
        expect(result.level, id).toBe('must');
        expect(result.outcome, `seed ${SEEDS[i]}: ${id}: ${result.message}`).toBe('fail');
      }
    }
    const first = verdicts(reports[0] as ConformanceReport);
    for (const report of reports) expect(verdicts(report)).toEqual(first);
  });
});

const CORRECT: readonly [what: string, server: FakeServerOptions][] = [
  ['names that start with a capital letter only', { choices: ['capitalised-names-only'] }],
  ['refusing empty and blank names', { choices: ['refuses-empty-names'] }],
  [
    'a status filter read without regard to letter case',
    { choices: ['case-insensitive-status-filter'] },
  ],
  ['numbers held as doubles (a JavaScript server)', { choices: ['javascript-json'] }],
  ['a plain-text 404 for other spellings of a path', { choices: ['path-spellings-404-text'] }],
  ['other spellings of a path as the same resource', { choices: ['path-spellings-same-resource'] }],
  ['a 308 redirect from other spellings of a path', { choices: ['path-spellings-redirect'] }],
  ['names unique, a repeat refused with 409', { choices: ['unique-names'] }],
];

describe.concurrent('correct servers that fill the gaps differently, on every seed', () => {
  it.each(CORRECT)('passes a server with %s on every seed', async (_, server) => {
    for (const seed of SEEDS) {
      const { report } = await runAgainst(server, { seed });
      const failed = report.results.filter((r) => r.outcome === 'fail');
      expect(failed.length, `seed ${seed}:\n${notPassed(report).join('\n')}`).toBe(0);
    }
  });
});

describe('the seed table', () => {
  it('names only must checks that exist', () => {
    const ids = new Map(CHECKS.map((c) => [c.id, c.level]));
    for (const [, , caught, also = []] of FAULTY) {
      for (const id of caught) expect(ids.get(id), id).toBe('must');
      for (const id of also) expect(ids.has(id), id).toBe(true);
    }
  });
});
