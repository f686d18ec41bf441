import { describe, expect, it } from 'vitest';
import type { ConformanceOptions, RunVerdict } from '../src/index.js';
import {
  GAP_CHOICES,
  type GapChoice,
  KNOWN_CATEGORY_IDS,
  READ_LAG_MS,
} from './support/fake-server.js';
import { notPassed, resultOf, runAgainst } from './support/run-kit.js';

// Conforming servers that fill the spec's gaps otherwise than we do: never a failure, at most the
// named advisories (a `should` finding) and skips, and nothing else. A row may need kit options
// (the categories such a server knows, how long its reads lag).
type Row = readonly [
  behaviour: string,
  choices: GapChoice | readonly GapChoice[],
  advisories: readonly string[],
  more?: {
    readonly kit?: Partial<ConformanceOptions>;
    readonly skipped?: readonly string[];
    /** PASS unless said otherwise. */
    readonly verdict?: RunVerdict;
  },
];

const HEADER_FORMATS = ['getPet.sunset-day', 'getPet.sunset-date', 'getPet.deprecation-date'];
/** What a server that refuses the kit's long names and its name beyond ASCII leaves unjudged. */
const SKIPPED_WITHOUT_NAMES_BEYOND_ASCII = [
  'listPets.large-answer',
  'createPet.body-in-pieces-accepted',
];
const SKIPPED_WITHOUT_HEADERS = [...HEADER_FORMATS, 'getPet.sunset-after-deprecation'];

const ADVISED: readonly Row[] = [
  [
    'clamps limit instead of answering 400',
    'clamps-limit',
    ['listPets.limit-out-of-range-rejected', 'listPets.repeated-parameter-rejected'],
  ],
  [
    "reads the first limit as Python's int does (1_0, ١٠ and a padded 10 are 10)",
    'python-int-limit',
    ['listPets.limit-out-of-range-rejected', 'listPets.repeated-parameter-rejected'],
  ],
  [
    'refuses a body sent chunked with 411 and an Error, as HTTP lets it, before it reads the key',
    'chunked-length-required',
    ['createPet.chunked-accepted'],
  ],
  [
    'closes a kept-alive connection unanswered when a request comes on it after others were served, as an idle timeout that ends just then does',
    'closes-idle-connections',
    [],
  ],
  [
    'reads a body it refused unread as another request on a connection the request asked to close, as Helidon does',
    'answers-body-after-close',
    ['createPet.refused-body-on-close'],
  ],
  ['gzips every answer, asked or not', 'gzips-every-answer', []],
  [
    'marks every success Cache-Control: public, as ASP.NET’s [ResponseCache] does',
    'public-cache-control',
    ['errors.keyed-answers-private'],
  ],
  [
    "sets a cookie on answers to the key that opens nothing (a balancer's affinity cookie)",
    'sets-affinity-cookie',
    [],
  ],
  [
    'answers HEAD with 405, as a router that adds no HEAD to a GET route does',
    'head-405',
    ['listPets.head', 'getPet.head'],
  ],
  [
    'answers HEAD without the key check its GET has',
    'head-skips-auth',
    ['listPets.head', 'getPet.head'],
  ],
  [
    'writes a body after the head of its answers to HEAD',
    'head-with-body',
    ['listPets.head', 'getPet.head'],
  ],
  [
    'routes the request target as written: one in absolute form (http://host/v1/pets) finds no route',
    'routes-target-as-written',
    ['listPets.absolute-form'],
  ],
  [
    'takes the key after one space alone, as the spec writes it',
    'one-space-after-scheme',
    ['auth.spaces-after-scheme'],
  ],
  ['omits status in Pets', 'omits-status', []],
  ['adds fields of its own to Pets', 'extra-pet-fields', []],
  ['sends no Location', 'no-location', ['createPet.location-header']],
  [
    'sends Location naming the collection rather than the pet',
    'location-of-collection',
    ['createPet.location-header'],
  ],
  [
    'sends no deprecation headers',
    'no-deprecation-headers',
    ['getPet.deprecation-headers', 'getPet.successor-link'],
    { skipped: SKIPPED_WITHOUT_HEADERS },
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
  ['answers a GET of any other path with a web page, 200', 'spa-fallback', []],
  ['takes the scheme only as "Bearer"', 'scheme-case-sensitive', ['auth.scheme-case-insensitive']],
  [
    'takes `;` parameters off a petId as servlet containers do ("7;v=1" is pet 7)',
    'takes-off-segment-parameters',
    ['getPet.segment-parameter-rejected'],
  ],
  [
    'compares keys in any letter case, as a UUID or a column that ignores case does',
    'key-case-insensitive',
    [
      'auth.listPets.key-case-changed',
      'auth.createPet.key-case-changed',
      'auth.getPet.key-case-changed',
    ],
  ],
  [
    'offers a Basic challenge with 401',
    'basic-challenge',
    [
      'auth.listPets.www-authenticate',
      'auth.createPet.www-authenticate',
      'auth.getPet.www-authenticate',
    ],
  ],
  [
    'sends none of the optional headers (Location, deprecation, WWW-Authenticate, Link)',
    ['no-location', 'no-deprecation-headers', 'no-www-authenticate', 'no-next-link'],
    [
      'createPet.location-header',
      'getPet.deprecation-headers',
      'getPet.successor-link',
      'auth.listPets.www-authenticate',
      'auth.createPet.www-authenticate',
      'auth.getPet.www-authenticate',
      'listPets.next-link',
    ],
    { skipped: SKIPPED_WITHOUT_HEADERS },
  ],
  ['lists others’ pets first, in descending order', 'others-pets-descending', []],
  [
    'lists its pets in a new order each time, cut at the limit (as ranging over a Go map does)',
    'lists-in-map-order',
    ['listPets.next-link'],
  ],
  ['uses int64 ids beyond 2^53', 'huge-ids', []],
  ['uses error codes of its own', 'own-error-codes', []],
  ['answers Errors with an empty message', 'empty-error-messages', ['errors.error-not-empty']],
  ['answers Errors with a code of white space', 'blank-error-codes', ['errors.error-not-empty']],
  ['ignores unknown fields', 'ignores-unknown-fields', ['createPet.unknown-field-rejected']],
  [
    'answers an unknown status filter with []',
    'unknown-status-filter-empty',
    ['listPets.unknown-status-rejected'],
  ],
  ['sends no Link to the next page', 'no-next-link', ['listPets.next-link']],
  // The kit sends its key nowhere but below the base URL: nothing listens at the link's origin.
  ['points its next-page Link at another origin', 'next-link-elsewhere', ['listPets.next-link']],
  [
    'points its next-page Link at the same page again (the cursor left out)',
    'next-link-repeats-page',
    ['listPets.next-link'],
  ],
  [
    'points its next-page Link past every pet (an empty page where more pets exist)',
    'next-link-past-the-end',
    ['listPets.next-link'],
  ],
  ['answers 404 to a malformed petId', 'malformed-id-404', ['getPet.malformed-id-rejected']],
  [
    'answers 422 with an Error to a petId that is no integer',
    'malformed-id-422',
    ['getPet.malformed-id-rejected'],
  ],
  [
    'answers 422 with an Error to a query it refuses (a limit out of range or given twice, an unknown status)',
    'query-errors-422',
    [
      'listPets.limit-out-of-range-rejected',
      'listPets.repeated-parameter-rejected',
      'listPets.unknown-status-rejected',
    ],
  ],
  [
    'validates a body before authenticating',
    'validates-before-auth',
    ['auth.createPet.before-validation'],
  ],
  ['looks a pet up before authenticating', 'looks-up-before-auth', ['auth.getPet.before-lookup']],
  ['refuses a body above 1 KiB with 413', 'body-limit-1-kib', []],
  ["refuses a body above 1 KiB with 400 (Django's upload limit)", 'body-limit-1-kib-400', []],
  [
    'writes integers with a fraction (7.0)',
    'integers-as-floats',
    ['errors.integers-written-plainly'],
  ],
  [
    "reads the first JSON value of a body and ignores what follows (Go's json.Decoder)",
    'reads-first-json-value',
    ['createPet.trailing-content'],
  ],
  [
    'writes categoryId twice, first as a string (a property a serializer writes twice)',
    'repeats-categoryid',
    ['errors.unique-member-names'],
  ],
  [
    "names charset=ISO-8859-1 on its JSON (a servlet container's default)",
    'json-charset-latin1',
    ['errors.json-charset'],
  ],
  ['stores categoryIds beyond 2^53 exactly', 'exact-big-category-ids', []],
  ['takes bodies of any size', 'takes-large-bodies', []],
  [
    "reads categoryId as a double cast to int64 as Java's (long) does: 2^63 is 2^63 - 1",
    'saturating-double-category-ids',
    ['createPet.category-id-beyond-double-exact', 'createPet.invalid-category-id-literal'],
  ],
  [
    "reads an integer within int64 exactly and one beyond it as a double (PHP's json_decode)",
    'int64-exact-doubles-beyond',
    ['createPet.invalid-category-id-literal'],
  ],
  [
    'refuses a body above 1 MiB by closing the connection, with no answer',
    'closes-on-large-bodies',
    [],
    // No answer came to judge: INCOMPLETE, never a failure.
    { skipped: ['createPet.large-body'], verdict: 'incomplete' },
  ],
  [
    'refuses a query parameter the operation does not have with 400 (express-openapi-validator)',
    'rejects-unknown-query-parameters',
    [],
  ],
  [
    'refuses a body above 64 KiB by closing the connection: a nested one too',
    'closes-on-bodies-over-64-kib',
    [],
    // createPet.deep-nesting judges the bodies that were answered, and passes.
    { skipped: ['createPet.large-body'], verdict: 'incomplete' },
  ],
  [
    'reads each byte of a body that is no UTF-8 as U+FFFD',
    'replaces-invalid-utf8',
    ['createPet.not-utf8-rejected'],
  ],
  [
    'reads the last value of a query parameter given twice (Rack, PHP)',
    'repeated-parameter-last-wins',
    ['listPets.repeated-parameter-rejected'],
  ],
  [
    'reads a query parameter given twice as not given (the default limit of 20 applies)',
    'repeated-parameter-ignored',
    ['listPets.repeated-parameter-rejected'],
  ],
  [
    "reads each surrogate without its pair in a name as U+FFFD (Go's encoding/json)",
    'replaces-unpaired-surrogates',
    ['createPet.unpaired-surrogate-rejected'],
  ],
  [
    'reads a body as JSON whatever its Content-Type',
    'reads-any-media-type',
    ['createPet.other-media-types-rejected'],
  ],
  [
    'reads a form body as it reads JSON',
    'reads-form-bodies',
    ['createPet.other-media-types-rejected'],
  ],
  [
    'answers 400 to a body that is not application/json',
    'other-media-types-400',
    ['createPet.other-media-types-rejected'],
  ],
  [
    'parses bodies with JSON.parse and validates the parsed value (a JavaScript server)',
    'javascript-json',
    ['createPet.invalid-category-id-literal', 'createPet.category-id-beyond-double-exact'],
  ],
  ['marks listPets deprecated too', 'deprecation-on-list', ['getPet.deprecation-only-on-get-pet']],
  ['writes Sunset in ISO 8601', 'sunset-iso-8601', ['getPet.sunset-date']],
  ['writes Sunset as a date alone (2030-12-05)', 'sunset-date-only', ['getPet.sunset-date']],
  [
    'announces the sunset at midnight of 5 December in Central Europe (23:00 GMT on the 4th)',
    'sunset-central-europe',
    [],
  ],
  [
    'sends "Deprecation: true" (the older draft)',
    'deprecation-true',
    ['getPet.deprecation-date'],
    { skipped: ['getPet.sunset-after-deprecation'] },
  ],
  [
    'dates the deprecation after the sunset',
    'deprecation-after-sunset',
    ['getPet.sunset-after-deprecation'],
  ],
  ['dates the deprecation at the very instant of the sunset', 'deprecation-at-sunset', []],
  [
    'writes white space after the Sunset and Deprecation values (RFC 9110 §5.5: no part of them)',
    'dates-with-white-space',
    [],
  ],
  [
    'dates the deprecation after the sunset, with white space after each value',
    ['dates-with-white-space', 'deprecation-after-sunset'],
    ['getPet.sunset-after-deprecation'],
  ],
  [
    'sends a Sunset no reader can date ("early December 2030")',
    'sunset-unreadable',
    ['getPet.sunset-date'],
    { skipped: ['getPet.sunset-after-deprecation'] },
  ],
  [
    'announces the deprecation on the pets it finds, not on its 404s',
    'deprecation-only-on-found',
    [],
  ],
  [
    'accepts only the categories it knows, given with --category-id',
    'known-categories-only',
    ['createPet.category-id-large-accepted'],
    { kit: { categoryIds: [...KNOWN_CATEGORY_IDS] } },
  ],
  // A server that takes no long name gives no list above 16 KiB: not applicable, not a failure.
  [
    'accepts only names of at most 16 letters or digits',
    'short-names-only',
    [],
    { skipped: SKIPPED_WITHOUT_NAMES_BEYOND_ASCII },
  ],
  [
    'accepts only names of letters',
    'letters-only-names',
    [],
    { skipped: SKIPPED_WITHOUT_NAMES_BEYOND_ASCII },
  ],
  ['accepts names of up to 64 characters, and refuses longer ones', 'names-up-to-64', []],
  [
    'refuses names beyond ASCII with 400',
    'ascii-names-only',
    [],
    { skipped: SKIPPED_WITHOUT_NAMES_BEYOND_ASCII },
  ],
  ['refuses empty and blank names with 400', 'refuses-empty-names', []],
  ['accepts only names that start with a capital letter', 'capitalised-names-only', []],
  [
    'reads the status filter without regard to letter case (the last of two)',
    'case-insensitive-status-filter',
    ['listPets.repeated-parameter-rejected'],
  ],
  [
    'answers other spellings of its paths (/pets/, /PETS, //pets) with a plain-text 404',
    'path-spellings-404-text',
    [],
  ],
  [
    'answers other spellings of its paths as the same resource, keyed alike',
    'path-spellings-same-resource',
    [],
  ],
  ['redirects other spellings of its paths with 308', 'path-spellings-redirect', []],
  ["reads /pets/7.json as pet 7 (Rails' format suffix)", 'format-suffix-ids', []],
  [
    "closes the connection unanswered on a method but GET, HEAD and POST, as nginx's return 444 does",
    'drops-other-methods',
    [],
  ],
  [
    'closes the connection on a target in absolute form, or on a path holding ;, unanswered',
    'drops-odd-targets',
    ['listPets.absolute-form', 'getPet.segment-parameter-rejected'],
  ],
  ['refuses a second pet of the same name with 409', 'unique-names', []],
  ['refuses a second pet of the same name with 400', 'unique-names-400', []],
  ['refuses a petId beyond int64 with 422, as its validator does', 'beyond-int64-422', []],
  [
    "answers 501 to a method it does not implement (HEAD, TRACE, PUT, ...), as Python's http.server without do_HEAD",
    'unknown-methods-501',
    ['listPets.head', 'getPet.head'],
  ],
  ['gives ids from 2^53 - 3 on (2^53 - 1 and its neighbours taken)', 'ids-from-2-53-minus-2', []],
  [
    'holds thousands of pets of others, one at 2^53 - 1, an id the kit tries as absent',
    ['preloaded-store', 'others-pet-at-id-max'],
    [],
    { skipped: ['listPets.large-answer'] },
  ],
  [
    'holds a pet of others at the largest int64, a path id the kit tries',
    'others-pet-at-int64-max',
    [],
  ],
  [
    'shows a write to reads only a moment later, with --settle-ms',
    'lagging-reads',
    [],
    { kit: { settleMs: READ_LAG_MS * 2 } },
  ],
  [
    'already holds thousands of pets of others',
    'preloaded-store',
    // The run's pets lie beyond the first page of each list: the kit follows the next-page Link.
    // The store holds pets enough, so the kit adds no long-named ones: no list above 16 KiB.
    [],
    { skipped: ['listPets.large-answer'] },
  ],
  [
    'already holds thousands of pets of others, and offers no next page',
    ['preloaded-store', 'no-next-link'],
    ['listPets.next-link'],
    {
      // The run's pets lie beyond every page the kit can reach: INCOMPLETE, never a failure.
      skipped: [
        'createPet.listed',
        'listPets.large-answer',
        'listPets.status-filter.available.includes-created',
        'listPets.status-filter.pending.includes-created',
        'listPets.status-filter.sold.includes-created',
      ],
      verdict: 'incomplete',
    },
  ],
  ['takes status: null for no status', 'null-status-absent', ['createPet.status-null-rejected']],
  [
    'reads bodies as JSON5 (comments, trailing commas, single quotes), as RFC 8259 §9 lets a parser',
    'reads-json5',
    ['createPet.json-extensions-rejected'],
  ],
  [
    // The kit tops the store up to 101 pets, so limit=101 shows it.
    'serves any limit it is asked for',
    ['serves-any-limit'],
    [
      'listPets.limit-above-max-capped',
      'listPets.limit-out-of-range-rejected',
      'listPets.repeated-parameter-rejected',
    ],
  ],
];

describe.concurrent('against a conforming server that fills a gap differently', () => {
  const rows = ADVISED.map(([behaviour, choice, advisories, more = {}]) => ({
    behaviour,
    choices: typeof choice === 'string' ? [choice] : choice,
    advisories,
    more,
  }));
  it.each(rows)('raises no failure when it $behaviour', async ({ choices, advisories, more }) => {
    const { report } = await runAgainst({ choices }, more.kit);
    const skipped = more.skipped ?? [];
    const ids = report.results.filter((r) => r.outcome !== 'pass').map((r) => r.id);
    expect(ids.sort(), notPassed(report).join('\n')).toEqual([...advisories, ...skipped].sort());
    for (const id of advisories) expect(resultOf(report, id).outcome).toBe('advisory');
    expect(report.verdict).toBe(more.verdict ?? 'pass');
  });

  it('sends both spellings of the scheme when the first is refused', async () => {
    const { report } = await runAgainst({ choices: ['scheme-case-sensitive'] }, { only: ['auth'] });
    const { outcome, message } = resultOf(report, 'auth.scheme-case-insensitive');
    expect(outcome).toBe('advisory');
    expect(message).toContain('with "bearer <valid key>" answered 401');
    expect(message).toMatch(/ \(and 1 more\)$/m);
  });

  it('skips, never fails, auth.changes-need-key when its pet does not read back before a change', async () => {
    // Reads that lag writes by ten minutes, and no --settle-ms: the pet is not found at first.
    const { report } = await runAgainst(
      { choices: ['lagging-reads'], readLagMs: 600_000 },
      { only: ['auth.changes-need-key'] },
    );
    const { outcome, message } = resultOf(report, 'auth.changes-need-key');
    expect(outcome).toBe('skip');
    expect(message).toMatch(/^pet \d+, just created, does not read back as sent: it is gone/);
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

  it('passes the reference with a key that has no letters, the letter-case check not applicable', async () => {
    const { report } = await runAgainst({ apiKey: '0123-4567-89' });
    expect(report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    for (const op of ['listPets', 'createPet', 'getPet']) {
      for (const id of [`auth.${op}.key-case-changed`, `auth.${op}.valid-key-after-other-case`]) {
        const result = resultOf(report, id);
        expect(result.outcome, id).toBe('skip');
        expect(result.notApplicable, id).toBe(true);
      }
    }
    expect(report.ok).toBe(true);
  });

  it('passes the reference server with no advisory and nothing skipped', async () => {
    const { report } = await runAgainst();
    expect(notPassed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    // A Connection line is about its connection: no request shape to probe without the key
    // (asked to close, a server like Helidon answers a refused body as a request too).
    const shapes = resultOf(report, 'auth.every-write-shape').message;
    expect(shapes).toMatch(/POST \/pets chunked/);
    expect(shapes).not.toMatch(/connection/i);
  });
});

describe('an advisory on answers another check asked for first', () => {
  it('shows the answer its headline names, not the last one of the run', async () => {
    // Both checks send the same lists: the second reads the first's answers again.
    const { report } = await runAgainst(
      { choices: ['clamps-limit'] },
      { only: ['listPets.limit-out-of-range', 'listPets.limit-out-of-range-rejected'] },
    );
    const { outcome, message } = resultOf(report, 'listPets.limit-out-of-range-rejected');
    expect(outcome).toBe('advisory');
    const asked = /^GET \/pets\?limit=(\S+) answered 200/.exec(message)?.[1];
    expect(asked).toBeDefined();
    expect(message).toMatch(new RegExp(`^replay: curl .*/v1/pets\\?limit=${asked}'`, 'm'));
  });
});

describe('NewPets respelled larger than a size limit allows', () => {
  it('passes, naming them as refused for their size, not as accepted', async () => {
    // The store filled first: its pets' long names, respelled with \u escapes, pass 1 KiB.
    const { report } = await runAgainst(
      { choices: ['body-limit-1-kib-400'] },
      { only: ['listPets.limit-100', 'createPet.json-spellings'] },
    );
    const { outcome, message } = resultOf(report, 'createPet.json-spellings');
    expect(outcome, message).toBe('pass');
    expect(message).toMatch(/refused for their size: "[^"]+" \(/);
    expect(message).not.toMatch(/accepted in other spellings[^;]*\(/);
  });
});

describe('the gap table', () => {
  it('covers every gap choice the fake server has', () => {
    const covered = new Set(ADVISED.flatMap(([, choice]) => choice));
    expect([...covered].sort()).toEqual([...GAP_CHOICES].sort());
  });
});
