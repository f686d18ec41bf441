import { describe, expect, it } from 'vitest';
import { GAP_CHOICES, type GapChoice } from './support/fake-server.js';
import { notPassed, resultOf, runAgainst } from './support/run-kit.js';

// Conforming servers that fill the spec's gaps otherwise than we do: never a failure, at most the
// named advisories (a `should` finding), and nothing else.
const ADVISED: readonly [behaviour: string, choice: GapChoice, advisories: readonly string[]][] = [
  [
    'clamps limit instead of answering 400',
    'clamps-limit',
    ['listPets.limit-out-of-range-rejected'],
  ],
  ['omits status in Pets', 'omits-status', []],
  ['adds fields of its own to Pets', 'extra-pet-fields', []],
  ['sends no Location', 'no-location', ['createPet.location-header']],
  [
    'sends no deprecation headers',
    'no-deprecation-headers',
    ['getPet.deprecation-headers', 'getPet.successor-link'],
  ],
  [
    'sends no WWW-Authenticate',
    'no-www-authenticate',
    [
      'auth.listPets.www-authenticate',
      'auth.createPet.www-authenticate',
      'auth.getPet.www-authenticate',
    ],
  ],
  ['lists others’ pets first, in descending order', 'others-pets-descending', []],
  ['uses int64 ids beyond 2^53', 'huge-ids', []],
  ['uses error codes of its own', 'own-error-codes', []],
  ['ignores unknown fields', 'ignores-unknown-fields', ['createPet.unknown-field-rejected']],
  [
    'answers an unknown status filter with []',
    'unknown-status-filter-empty',
    ['listPets.unknown-status-rejected'],
  ],
  ['sends no Link to the next page', 'no-next-link', ['listPets.next-link']],
  ['answers 404 to a malformed petId', 'malformed-id-404', ['getPet.malformed-id-rejected']],
  ['validates a body before authenticating', 'validates-before-auth', []],
  ['stores categoryIds beyond 2^53 exactly', 'exact-big-category-ids', []],
  ['marks listPets deprecated too', 'deprecation-on-list', ['getPet.deprecation-only-on-get-pet']],
];

const SKIPPED_WITHOUT_HEADERS = [
  'getPet.sunset-date',
  'getPet.deprecation-date',
  'getPet.sunset-after-deprecation',
];

describe.concurrent('against a conforming server that fills a gap differently', () => {
  it.each(ADVISED)('raises no failure when it %s', async (_, choice, advisories) => {
    const { report } = await runAgainst({ choices: [choice] });
    const skipped = choice === 'no-deprecation-headers' ? SKIPPED_WITHOUT_HEADERS : [];
    const ids = report.results.filter((r) => r.outcome !== 'pass').map((r) => r.id);
    expect(ids.sort(), notPassed(report).join('\n')).toEqual([...advisories, ...skipped].sort());
    for (const id of advisories) expect(resultOf(report, id).outcome).toBe('advisory');
    expect(report.ok).toBe(true);
  });

  it('passes a server that does all of these at once, with advisories only', async () => {
    const { report } = await runAgainst({ lenient: true });
    const failed = report.results.filter((r) => r.outcome === 'fail');
    expect(failed.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(report.summary.advisories).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('turns those advisories into failures with strict', async () => {
    const { report } = await runAgainst({ lenient: true }, { strict: true });
    expect(report.summary.advisories).toBe(0);
    expect(resultOf(report, 'createPet.location-header').outcome).toBe('fail');
    expect(report.results.filter((r) => r.level === 'must' && r.outcome === 'fail')).toEqual([]);
    expect(report.ok).toBe(false);
  });

  it('passes the reference server with no advisory and nothing skipped', async () => {
    const { report } = await runAgainst();
    expect(notPassed(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('the gap table', () => {
  it('covers every gap choice the fake server has', () => {
    expect(ADVISED.map(([, choice]) => choice).sort()).toEqual([...GAP_CHOICES].sort());
  });
});
