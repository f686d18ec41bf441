// The spec matrix: every statement of the spec the kit holds a server to, with the oracle that
// judges an answer and the inputs that exercise it. The checks implement the rows; a test fails
// when a row has no check or a check no row, and the README's table is rendered from the rows.

/** One statement of the spec, how it is judged and what is sent to judge it. */
export interface MatrixRow {
  /** The spec section(s) stating it, e.g. `§4.1, §8`. */
  readonly section: string;
  /** What the spec says, in a sentence. */
  readonly statement: string;
  /** What judges an answer: the rule an answer must meet (and which answers it accepts). */
  readonly oracle: string;
  /** What the kit sends to exercise it: every boundary class, on every run. */
  readonly inputs: string;
  /**
   * The checks that hold the row: check ids, where `*` stands for one dot-free part
   * (`auth.*.missing-header` is that check on every operation).
   */
  readonly checks: readonly string[];
}

const OPERATIONS = 'listPets, createPet and getPet';

/** The rows, in the spec's order. */
export const SPEC_MATRIX: readonly MatrixRow[] = [
  {
    section: '§1, §7',
    statement: 'Every body is JSON',
    oracle:
      'every body the kit receives with a JSON media type is strict RFC 8259 JSON (UTF-8, no byte-order mark, no unescaped control character); every error answer has a JSON body',
    inputs: 'every request of the run, whichever check sent it',
    checks: ['errors.strict-json', 'errors.json-body'],
  },
  {
    section: '§2, §7',
    statement: 'An error answer carries an Error: code, message and status, status the HTTP status',
    oracle: 'every 4xx and 5xx JSON body is an Error whose status equals the HTTP status',
    inputs: 'every request of the run, whichever check sent it',
    checks: ['errors.error-schema', 'errors.status-matches'],
  },
  {
    section: '§7',
    statement: 'Each operation answers with the statuses the spec names',
    oracle:
      'no 5xx, to any request the kit sends; every 2xx is the success the spec names (200 for listPets and getPet, 201 for createPet)',
    inputs:
      'every request of the run, whichever check sent it, the preflight and the reads before the first pet included',
    checks: ['errors.no-server-errors', 'errors.success-status'],
  },
  {
    section: '§2',
    statement: 'A Pet has id and categoryId (int64), name (string), status (PetStatus, optional)',
    oracle:
      'every Pet the kit receives (201 bodies, getPet bodies, list entries) has each spec field of its type; integers within int64 as a parser holding doubles sees them',
    inputs: 'every answer of the run that carries a Pet',
    checks: ['errors.pet-fields', 'listPets.returns-pet-array'],
  },
  {
    section: '§2, §4.2, §4.3',
    statement: 'A created pet is the pet sent, with the id assigned on creation',
    oracle:
      'the 201 body, every later getPet and every list entry of that id agree on every spec field; a name accepted is returned exactly as sent; a status shown is the one sent, or one default for every pet sent without',
    inputs: 'every pet the run creates, whichever check created it',
    checks: [
      'errors.created-pets-agree',
      'createPet.created',
      'createPet.without-status',
      'createPet.readable-by-id',
      'getPet.returns-pet',
    ],
  },
  {
    section: '§2',
    statement: 'The id is unique and assigned by the service',
    oracle: 'no two created pets share an id; an id sent in the body never overwrites a pet',
    inputs: 'the run’s pets; a body carrying an existing pet’s id',
    checks: ['createPet.distinct-ids', 'listPets.unique-ids', 'createPet.id-assigned-by-service'],
  },
  {
    section: '§2, §3, §4.1',
    statement: 'A pet has one status: the status filter lists it under that one and no other',
    oracle:
      'a pet the run created is listed under the status it shows (when the list can reach it) and under no other',
    inputs: 'status=available, pending, sold with limit=100, and without limit',
    checks: [
      'listPets.status-filter.*',
      'listPets.status-filter.*.includes-created',
      'listPets.one-status-per-pet',
      'createPet.listed',
    ],
  },
  {
    section: '§4.1, §8',
    statement: 'limit: 1 to 100, default 20, the most pets returned; the default applies filtered',
    oracle:
      'exactly limit pets when more exist, never more; fewer only when they are every match (a store empty before the run, or no next page)',
    inputs:
      'limit=1, 100, none; each status with limit=1, 2, 100 and with no limit (on the run’s pets, and on a store that held more before the run)',
    checks: [
      'listPets.default-limit',
      'listPets.limit-1',
      'listPets.limit-100',
      'listPets.status-with-limit',
      'listPets.status-default-limit',
    ],
  },
  {
    section: '§4.1, §8',
    statement: 'The answer to limit outside 1..100 is not shown',
    oracle: 'an Error with a 4xx, or a Pet array of at most 100 pets; never a 5xx',
    inputs: 'limit=0, 101, -1, 1000, a word, a fraction, empty; with and without status',
    checks: [
      'listPets.limit-out-of-range',
      'listPets.limit-out-of-range-rejected',
      'listPets.limit-above-max-capped',
    ],
  },
  {
    section: '§4.1',
    statement: 'status filters by a PetStatus value',
    oracle:
      'a value outside the enumeration gets a 4xx Error or a Pet array; every listed pet carries the filter’s status or none',
    inputs: 'an unknown word, empty, other letter case, padded',
    checks: ['listPets.status-boundaries', 'listPets.unknown-status-rejected'],
  },
  {
    section: '§4.2',
    statement: 'createPet refuses a body missing required fields or not JSON with 400 and an Error',
    oracle: '400 with an Error',
    inputs:
      'without name, without categoryId, malformed JSON, an empty body, every JSON type but an object at the top level',
    checks: [
      'createPet.missing-name',
      'createPet.missing-category-id',
      'createPet.malformed-json',
      'createPet.empty-body',
      'createPet.body-not-object',
    ],
  },
  {
    section: '§2, §4.2',
    statement: 'createPet refuses a field of another type than the spec’s with 400 and an Error',
    oracle: '400 with an Error',
    inputs:
      'each field as every other JSON type (true and false, null, a number, a string, an array, an object); categoryId a fraction, beyond int64 (2^63, 2^64, 10^19 and their negatives), in a string; status in other letter case, padded, empty, outside the enumeration',
    checks: [
      'createPet.invalid-*',
      'createPet.invalid-category-id-literal',
      'createPet.status-null-rejected',
    ],
  },
  {
    section: '§2, §4.2',
    statement: 'name is a string; limits on it are not shown',
    oracle:
      '201 with the name kept exactly (in the 201 body, getPet and lists), or 400 with an Error; never a 5xx, never a changed name',
    inputs:
      'empty, whitespace only, padded, holding ", \\ and /, control characters, long (17, 64, 256), beyond ASCII (2-, 3- and 4-byte UTF-8)',
    checks: [
      'createPet.string-boundaries',
      'createPet.long-name-kept',
      'createPet.non-ascii-name-kept',
    ],
  },
  {
    section: '§1, §4.2',
    statement: 'A request body is JSON (RFC 8259): any valid spelling of one NewPet is that NewPet',
    oracle:
      'a NewPet accepted once is accepted again, with the same answer, in other spellings; a number is never respelled (many correct parsers refuse 1E2 or 7.0 for an int64)',
    inputs:
      'each accepted NewPet worth it (a plain one, names beyond the BMP, with /, beyond ASCII) with every character a \\u escape (surrogate pairs beyond the BMP), / as \\/, white space between tokens, members in reverse order',
    checks: ['createPet.json-spellings'],
  },
  {
    section: '§2, §4.2',
    statement: 'categoryId is an int64; categories are not shown',
    oracle:
      'a valid int64 is stored exactly or refused with a 4xx Error (a server may not know the category); never a 5xx',
    inputs: '0, -1, 1, 2^53-1, 2^53+1, int64 minimum and maximum',
    checks: [
      'createPet.integer-boundaries',
      'createPet.category-id-exact',
      'createPet.category-id-beyond-double-exact',
      'createPet.category-id-large-accepted',
    ],
  },
  {
    section: '§2, §4.2',
    statement: 'status, when sent, is one of the PetStatus values',
    oracle: 'each value is accepted with 201 and shown as sent (or not shown)',
    inputs: 'available, pending, sold, and no status',
    checks: ['createPet.created', 'createPet.without-status'],
  },
  {
    section: '§2, §4.2',
    statement: 'NewPet has name, categoryId and status; other fields are not shown',
    oracle: 'an unknown field is refused with 400 or ignored (advisory)',
    inputs: 'a body with "colour"',
    checks: ['createPet.unknown-field-rejected'],
  },
  {
    section: '§4.2',
    statement: 'createPet answers 201 with the created Pet',
    oracle: 'whatever shape a client sends the body in: 201',
    inputs:
      'a body with Content-Length and chunked; with and without Cache-Control, Accept */*, an axios Accept, a browser User-Agent, Pragma',
    checks: ['createPet.request-shapes', 'createPet.location-header'],
  },
  {
    section: '§4.3, §7',
    statement: 'getPet answers 200 with the pet, 404 with an Error when it cannot be found',
    oracle: 'an id no pet has: 404 (or 400 where the server does not take it as an id), an Error',
    inputs: 'an existing id, absent ids, 0, -1, int64 maximum, beyond int64, a word, a fraction',
    checks: ['getPet.not-found', 'getPet.path-boundaries', 'getPet.malformed-id-rejected'],
  },
  {
    section: '§4.1, §4.3',
    statement: 'A read answers with the spec’s answer whatever ordinary headers a client adds',
    oracle: '200 with the Pet array or the Pet, as without them',
    inputs:
      'Cache-Control: no-cache, If-None-Match, Accept */*, an axios Accept, a browser User-Agent, Pragma, all at once',
    checks: ['listPets.request-shapes'],
  },
  {
    section: '§4.3, §9',
    statement: 'getPet is deprecated, to be removed on 5 December 2030',
    oracle: 'a readable Sunset names that day; the headers are advised',
    inputs: 'every getPet answer of the run',
    checks: [
      'getPet.sunset-day',
      'getPet.sunset-date',
      'getPet.deprecation-date',
      'getPet.sunset-after-deprecation',
      'getPet.deprecation-headers',
      'getPet.successor-link',
      'getPet.deprecation-only-on-get-pet',
    ],
  },
  {
    section: '§5',
    statement: `Every operation requires Authorization: Bearer <key>; a missing or invalid key gets 401 and an Error`,
    oracle: `401 with an Error on ${OPERATIONS}; the valid key is accepted`,
    inputs:
      'no header, an empty header, "Bearer" alone, another scheme, XBearer <key>, Bearer <key> x, an unknown key, the key in other letter case, with a character more or less, a look-alike of the key in the query string (the key itself with --disposable-key); no key, "Bearer" alone and an unknown key again on every request shape the run sent (each query parameter and combination, added headers, a chunked body) and on other spellings of each path (/pets/, /PETS, //pets)',
    checks: [
      'auth.*.missing-header',
      'auth.*.empty-token',
      'auth.*.wrong-scheme',
      'auth.*.unknown-key',
      'auth.*.key-case-changed',
      'auth.*.key-appended',
      'auth.*.key-truncated',
      'auth.*.valid-key',
      'auth.*.key-in-query',
      'auth.*.empty-header',
      'auth.*.scheme-prefixed',
      'auth.*.word-after-key',
      'auth.every-read-shape',
      'auth.every-write-shape',
    ],
  },
  {
    section: '§5',
    statement: 'The scheme is HTTP bearer (its name is case-insensitive in HTTP)',
    oracle: 'bearer and BEARER are accepted (advisory: the spec writes Bearer)',
    inputs: '"bearer <key>", "BEARER <key>"',
    checks: ['auth.scheme-case-insensitive'],
  },
  {
    section: '§5',
    statement: 'A refused request says how to authenticate; no key means 401 whatever the body',
    oracle: 'WWW-Authenticate offers Bearer; 401 before 400 (advisories)',
    inputs: 'a request without Authorization, with and without a valid body',
    checks: ['auth.*.www-authenticate', 'auth.createPet.before-validation'],
  },
  {
    section: '§4.1, §4.3',
    statement: 'On a known pet set: filters, limits and getPet (with --fixtures)',
    oracle: 'the set’s pets listed under their status, exactly limit pets, each fetched as listed',
    inputs: 'the operator’s pet set',
    checks: [
      'listPets.fixtures.status-filter',
      'listPets.fixtures.limits',
      'listPets.fixtures.status-with-limit',
      'getPet.fixtures.by-id',
    ],
  },
  {
    section: '§4.1',
    statement: 'More than limit pets: paging is not shown',
    oracle: 'a Link rel="next" leads to the rest (advisory)',
    inputs: 'limit=1 with more pets',
    checks: ['listPets.next-link'],
  },
];

/** True when `pattern` (a check id, `*` standing for one dot-free part) names `id`. */
export function namesCheck(pattern: string, id: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]+');
  return new RegExp(`^${source}$`).test(id);
}

/** The rows that name a check. */
export function rowsOf(id: string, matrix: readonly MatrixRow[] = SPEC_MATRIX): MatrixRow[] {
  return matrix.filter((row) => row.checks.some((pattern) => namesCheck(pattern, id)));
}
