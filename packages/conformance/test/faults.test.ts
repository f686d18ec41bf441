import { ID_MAX, PET_STATUSES } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { CHECKS, type ConformanceOptions } from '../src/index.js';
import { FAULTS, type FakeServerOptions, type Fault } from './support/fake-server.js';
import { resultOf, runAgainst } from './support/run-kit.js';

/** The auth check of `check`'s id on each of the three operations. */
const onEveryOperation = (check: string) =>
  ['listPets', 'createPet', 'getPet'].map((op) => `auth.${op}.${check}`);

// One row per fault of the fake server: what the server does wrong, and the `must` checks that
// have to fail because of it (each named check must fail; others may fail too).
const CAUGHT: readonly [
  behaviour: string,
  fault: Fault,
  checks: readonly string[],
  server?: FakeServerOptions,
  kit?: Partial<ConformanceOptions>,
][] = [
  [
    'skips auth on listPets',
    'auth-skipped-on-list',
    ['auth.listPets.missing-header', 'auth.listPets.unknown-key'],
  ],
  [
    'skips auth on createPet',
    'auth-skipped-on-create',
    ['auth.createPet.missing-header', 'auth.createPet.unknown-key'],
  ],
  [
    'skips auth on getPet',
    'auth-skipped-on-get',
    ['auth.getPet.missing-header', 'auth.getPet.unknown-key'],
  ],
  [
    'matches the Authorization of a kept-alive connection to the last one in any letter case',
    'auth-header-cache-case-blind',
    onEveryOperation('valid-key-after-other-case'),
  ],
  [
    'refuses on a kept-alive connection any key equal in any letter case to the last one it refused',
    'auth-refusal-cache-case-blind',
    onEveryOperation('valid-key-after-other-case'),
  ],
  ['accepts the valid key with no scheme', 'auth-accepts-bare-key', onEveryOperation('no-scheme')],
  [
    'accepts the valid key under the scheme Token',
    'auth-accepts-token-scheme',
    onEveryOperation('wrong-scheme'),
  ],
  [
    'accepts the valid key as the user name of Basic credentials',
    'auth-accepts-basic-credentials',
    onEveryOperation('wrong-scheme'),
  ],
  [
    'accepts the valid key as the password of Basic credentials, whatever the user',
    'auth-accepts-basic-password',
    onEveryOperation('wrong-scheme'),
  ],
  [
    "ignores the key's last character",
    'auth-key-last-character-ignored',
    onEveryOperation('key-character-changed'),
  ],
  [
    "ignores the key's first character",
    'auth-key-first-character-ignored',
    onEveryOperation('key-character-changed'),
  ],
  [
    'takes category_id for a missing categoryId',
    'create-takes-snake-case-category-id',
    ['createPet.missing-category-id-snake-case'],
  ],
  [
    'answers text/plain to a request with no Accept',
    'text-plain-without-accept',
    ['errors.json-body', 'listPets.request-shapes'],
  ],
  ['accepts any bearer key', 'auth-accepts-unknown-key', onEveryOperation('unknown-key')],
  ['ignores the auth scheme', 'auth-ignores-scheme', onEveryOperation('wrong-scheme')],
  [
    'accepts an empty bearer token',
    'auth-accepts-empty-token',
    ['auth.listPets.empty-token', 'auth.getPet.empty-token'],
  ],
  [
    'answers 403 instead of 401',
    'auth-answers-403',
    ['auth.listPets.missing-header', 'auth.getPet.unknown-key'],
  ],
  [
    'sends a 401 without an Error body',
    'auth-error-body-malformed',
    ['auth.listPets.missing-header', 'errors.error-schema', 'auth.listPets.key-in-query'],
  ],
  [
    'answers listPets with 203',
    'list-wrong-success-status',
    ['listPets.returns-pet-array', 'auth.listPets.valid-key'],
  ],
  ['wraps the list in an object', 'list-not-array', ['listPets.returns-pet-array']],
  ['serves the list as text/plain', 'list-text-content-type', ['listPets.returns-pet-array']],
  ['lists pets whose status is a number', 'list-status-wrong-type', ['listPets.returns-pet-array']],
  [
    'ignores the status filter',
    'list-ignores-status-filter',
    [
      'listPets.status-filter.available',
      'listPets.status-filter.pending',
      'listPets.status-filter.sold',
      'listPets.percent-encoded-query',
    ],
  ],
  [
    'leaves the newest match out of a filtered list',
    'list-drops-newest-match',
    ['listPets.status-filter.sold.includes-created'],
  ],
  [
    'ignores limit',
    'list-ignores-limit',
    // On a store of the run's pets alone, fewer than 20: limit=1 shows it.
    ['listPets.limit-1', 'listPets.status-with-limit'],
  ],
  ['defaults limit to 10', 'list-default-limit-10', ['listPets.default-limit']],
  // More than 100 pets only exist on a store that held pets before the run.
  ['caps limit at 50', 'list-caps-at-50', ['listPets.limit-100'], { choices: ['preloaded-store'] }],
  ['lists a pet twice', 'list-repeats-a-pet', ['listPets.unique-ids']],
  [
    'answers 500 to limit=0',
    'list-500-on-limit-0',
    ['listPets.limit-out-of-range', 'errors.no-server-errors'],
  ],
  [
    'answers createPet with 200',
    'create-answers-200',
    ['createPet.created', 'auth.createPet.valid-key'],
  ],
  [
    'answers a create 303 See Other to the new pet (Post/Redirect/Get)',
    'create-see-other',
    ['createPet.created', 'auth.createPet.valid-key'],
  ],
  ['creates a pet without name', 'create-accepts-missing-name', ['createPet.missing-name']],
  [
    'creates a pet without categoryId',
    'create-accepts-missing-category-id',
    ['createPet.missing-category-id'],
  ],
  ['turns a numeric name into a string', 'create-coerces-name-number', ['createPet.invalid-name']],
  [
    'turns a string categoryId into a number',
    'create-coerces-category-id-string',
    ['createPet.invalid-category-id'],
  ],
  [
    "answers 500 to categoryId 1e400 (Ruby's JSON reads Infinity, whose to_i raises FloatDomainError)",
    'create-500-on-infinite-category-id',
    ['createPet.invalid-category-id', 'errors.no-server-errors'],
  ],
  [
    'truncates a fractional categoryId',
    'create-truncates-category-id',
    ['createPet.invalid-category-id'],
  ],
  [
    'drops a status of the wrong type',
    'create-accepts-status-number',
    ['createPet.invalid-status'],
  ],
  ['drops an unknown status', 'create-drops-unknown-status', ['createPet.invalid-status']],
  [
    'accepts a status in another letter case and stores it lower-cased',
    'create-folds-status-case',
    ['createPet.invalid-status'],
  ],
  [
    'refuses only the one unknown status word "lost"',
    'create-refuses-only-lost',
    ['createPet.invalid-status'],
  ],
  ['trims spaces around a status', 'create-trims-status', ['createPet.invalid-status']],
  [
    'accepts categoryId: true',
    'create-accepts-boolean-category-id',
    ['createPet.invalid-category-id'],
  ],
  ['accepts name: null', 'create-accepts-null-name', ['createPet.invalid-name']],
  [
    'ignores limit when status is given',
    'list-ignores-limit-with-status',
    ['listPets.status-with-limit'],
  ],
  [
    'accepts any token that starts with the key',
    'auth-key-prefix-match',
    onEveryOperation('key-appended'),
  ],
  ['accepts any start of the key', 'auth-accepts-key-prefix', onEveryOperation('key-truncated')],
  [
    'loses one write in ten on a store that already holds thousands of pets',
    'create-loses-writes-when-full',
    ['createPet.readable-by-id'],
    { choices: ['preloaded-store'] },
  ],
  [
    'answers 500 to malformed JSON',
    'create-500-on-malformed-json',
    ['createPet.malformed-json', 'errors.no-server-errors'],
  ],
  ['creates a pet from an empty body', 'create-accepts-empty-body', ['createPet.empty-body']],
  [
    'creates a pet from a body of white space alone',
    'create-accepts-blank-body',
    ['createPet.blank-body'],
  ],
  [
    'answers 400 with an empty body',
    'create-400-without-error-body',
    [
      'createPet.missing-name',
      'errors.json-body',
      'createPet.string-boundaries',
      'createPet.integer-boundaries',
    ],
  ],
  [
    'stores every pet as available',
    'create-ignores-status',
    ['createPet.created', 'listPets.status-filter.available'],
  ],
  [
    'stores every pet as available, and takes a name escaping a surrogate without its pair',
    'create-ignores-status',
    ['createPet.created', 'createPet.unpaired-surrogate', 'listPets.status-filter.available'],
    { choices: ['replaces-unpaired-surrogates'] },
  ],
  [
    'changes the name it was sent',
    'create-alters-name',
    ['createPet.created', 'getPet.returns-pet'],
  ],
  [
    'does not keep a created pet',
    'create-not-persisted',
    ['createPet.readable-by-id', 'createPet.listed'],
  ],
  ['gives two pets the same id', 'create-reuses-ids', ['createPet.distinct-ids']],
  [
    'returns another pet from getPet',
    'get-returns-other-pet',
    ['getPet.returns-pet', 'createPet.readable-by-id'],
  ],
  ['answers 404 with an HTML body', 'get-404-as-html', ['getPet.not-found', 'errors.json-body']],
  // Reading every int64 as an id, it answers the path boundaries 0, -1 and 2^63 - 1 with 404.
  [
    'answers 404 with an HTML body, its ids int64',
    'get-404-as-html',
    ['getPet.path-boundaries'],
    { choices: ['huge-ids'] },
  ],
  [
    'puts another status in a 404 Error body',
    'get-404-status-mismatch',
    ['getPet.not-found', 'errors.status-matches'],
  ],
  [
    'writes the Error status as a string',
    'get-404-status-as-string',
    ['getPet.not-found', 'errors.error-schema'],
  ],
  ['answers 200 null for an absent pet', 'get-200-null-for-absent', ['getPet.not-found']],
  ['answers 400 for an absent pet', 'get-400-for-absent', ['getPet.not-found']],
  [
    'answers 500 to a malformed petId',
    'get-500-on-malformed-id',
    ['getPet.path-boundaries', 'errors.no-server-errors'],
  ],
  [
    "answers a body above 1 MiB with nginx's own HTML 413 (a proxy in front, as installed)",
    'html-413-from-proxy',
    ['createPet.large-body', 'errors.json-body'],
  ],
  [
    "reads LIMIT=1 as limit=1 (ASP.NET Core's binder takes a parameter's name in any letter case)",
    'list-query-keys-case-insensitive',
    ['listPets.recased-limit'],
  ],
  [
    'reads the query as sent, without decoding %XX (a hand-written reader that splits at & and =)',
    'list-query-not-percent-decoded',
    ['listPets.percent-encoded-query'],
  ],
  [
    'reads status from the query as sent, and lists no pet for a status it does not know',
    'list-status-read-as-sent',
    ['listPets.percent-encoded-query'],
    { choices: ['unknown-status-filter-empty'] },
  ],
  [
    'answers 417 to Expect: 100-continue (a server or proxy that meets no expectation)',
    'expect-417',
    ['createPet.request-shapes'],
  ],
  [
    'reads limit from the query as sent',
    'list-limit-read-as-sent',
    ['listPets.percent-encoded-query'],
  ],
  [
    "lists every pet when limit is given twice (Express 4's qs makes an array, which a handler reading a string passes over)",
    'list-unbounded-on-repeated-limit',
    ['listPets.repeated-parameter'],
  ],
  [
    "reads limit[]=1 and limit[0]=1 as limit=1 (Express 4's qs makes them ['1'], and Number(['1']) is 1)",
    'list-reads-bracketed-limit',
    ['listPets.bracketed-limit'],
  ],
  [
    "answers a browser's Accept (text/html first, */* after) with HTML (DRF's browsable API)",
    'html-for-browsers',
    ['listPets.request-shapes'],
  ],
  [
    "answers 500 to a body that is no UTF-8 (Django's json.loads raises UnicodeDecodeError)",
    'create-500-on-invalid-utf8',
    ['createPet.not-utf8', 'errors.no-server-errors'],
  ],
  [
    'answers 500 to a name escaping a surrogate without its pair (Starlette encodes the answer as UTF-8)',
    'create-500-on-unpaired-surrogate',
    ['createPet.unpaired-surrogate', 'errors.no-server-errors'],
  ],
  [
    "answers 500 to JSON nested 1,000 deep (CPython's json.loads raises RecursionError, no ValueError)",
    'create-500-on-deep-nesting',
    ['createPet.deep-nesting', 'errors.no-server-errors'],
  ],
  [
    "serves a POST as the method X-HTTP-Method-Override names (method-override's default getter; Rack::MethodOverride, Symfony's Request)",
    'honours-method-override-header',
    ['createPet.method-override', 'errors.success-status'],
  ],
  [
    'serves a POST as the method ?_method= names (method-override with the getter _method)',
    'honours-method-override-query',
    ['createPet.method-override', 'errors.success-status'],
  ],
  [
    "serves a POST as the method the body's _method names (method-override with a body getter; Laravel)",
    'honours-method-override-body',
    ['createPet.method-override', 'errors.success-status'],
  ],
  [
    'answers 500 to a NewPet with a member nested past 10,000 levels: after validating, it walks the body recursively and runs out of stack',
    'create-500-walking-deep-bodies',
    ['createPet.deep-nesting', 'errors.no-server-errors'],
    { choices: ['ignores-unknown-fields', 'takes-large-bodies'] },
  ],
  [
    'dies on a body over 1 MiB, closing every connection unanswered and listening no more',
    'dies-on-large-bodies',
    ['createPet.large-body'],
  ],
  [
    'dies on JSON nested 10,000 deep, closing every connection unanswered and listening no more (SBCL, its stack exhausted twice)',
    'dies-on-deep-nesting',
    ['createPet.deep-nesting'],
  ],
  [
    "answers 422 to JSON nested past its parser's 1,000 levels (its depth error taken for a body of the wrong shape)",
    'create-422-on-deep-nesting',
    ['createPet.deep-nesting'],
  ],
  [
    'reads a form body but not its status (a handler that names the fields it reads)',
    'create-form-drops-status',
    ['createPet.other-media-types'],
  ],
  [
    'decodes the path dropping bytes that are no UTF-8 (Bottle): GET /pets/1%FF is pet 1',
    'get-path-drops-bytes-not-utf8',
    ['getPet.path-boundaries'],
  ],
  [
    "answers 500 to a multipart form whose Content-Type names no boundary (Spring MVC's multipart resolver throws)",
    'create-500-on-multipart-without-boundary',
    ['createPet.other-media-types', 'errors.no-server-errors'],
  ],
  [
    'answers 500 to a body that is not JSON (Express 5: no parser ran, the body is undefined)',
    'create-500-without-json-body',
    ['createPet.other-media-types', 'errors.no-server-errors'],
  ],
  [
    "takes a field missing from the body from the query string (Laravel's $request->input())",
    'create-reads-fields-from-query',
    ['createPet.missing-name-in-query', 'createPet.missing-category-id-in-query'],
  ],
  [
    "unwraps a one-element array where a field wants one value (Fastify's default validation)",
    'create-unwraps-one-element-arrays',
    ['createPet.invalid-name', 'createPet.invalid-category-id', 'createPet.invalid-status'],
  ],
  [
    'reads a status given as an index of the enumeration (1, "1") as the value there (Jackson)',
    'create-reads-status-by-index',
    ['createPet.invalid-status'],
  ],
  [
    'reads an empty string in categoryId as 0 (Jackson, a primitive long)',
    'create-reads-empty-category-id-as-0',
    ['createPet.invalid-category-id'],
  ],
  [
    'matches body members to fields in any letter case ("Name" is name)',
    'create-keys-case-insensitive',
    [
      'createPet.missing-name-other-case',
      'createPet.missing-category-id-other-case',
      'createPet.recased-members',
    ],
  ],
  [
    'reads a petId with JavaScript\'s Number ("0x1" is pet 1)',
    'get-reads-id-as-js-number',
    ['getPet.path-boundaries'],
  ],
  [
    'reads a petId with Python\'s int ("0_1" is pet 1)',
    'get-reads-id-as-python-int',
    ['getPet.path-boundaries'],
  ],
  [
    "answers its errors with an HTML page unless the client names JSON in Accept (Jetty 9.4's error handler)",
    'errors-html-unless-json-accepted',
    ['errors.json-body'],
  ],
  [
    "answers its errors to a client that names HTML with an HTML page (Spring Boot's error controller)",
    'errors-html-for-browsers',
    ['errors.json-body'],
  ],
  [
    'reads a petId of digits with a leading zero as octal (Ruby\'s Integer: "01750" is pet 1000), on a store whose ids start at 1000',
    'get-reads-leading-zero-as-octal',
    ['getPet.path-boundaries'],
    { firstId: 1000n },
  ],
  // A whole run fills the store, so pet 8 exists: "010" is the spelling that shows it.
  [
    'reads a petId of digits with a leading zero as octal ("010" is pet 8), in a whole run',
    'get-reads-leading-zero-as-octal',
    ['getPet.path-boundaries'],
    {},
    { only: [] },
  ],
  [
    'answers 500 to a petId that is no integer (a lookup that cannot cast it)',
    'get-500-on-non-integer',
    ['getPet.path-boundaries', 'errors.no-server-errors'],
  ],
  [
    'reads a petId as parseInt does ("1.5" is pet 1)',
    'get-reads-leading-digits',
    ['getPet.path-boundaries'],
  ],
  // A store whose ids start at 1000: the fixed spellings show no pet, a pet's own do.
  [
    'reads a petId as parseInt does, on a store whose ids start at 1000',
    'get-reads-leading-digits',
    ['getPet.path-boundaries'],
    { firstId: 1000n },
  ],
  [
    "reads a petId with JavaScript's Number, on a store whose ids start at 1000",
    'get-reads-id-as-js-number',
    ['getPet.path-boundaries'],
    { firstId: 1000n },
  ],
  [
    "reads a petId with the white space around it taken off (Spring's NumberUtils), on a store whose ids start at 1000",
    'get-trims-id',
    ['getPet.path-boundaries'],
    { firstId: 1000n },
  ],
  [
    "reads a petId's digits of any script (Werkzeug's int converter, Java's Long.parseLong), on a store whose ids start at 1000",
    'get-reads-unicode-digits',
    ['getPet.path-boundaries'],
    { firstId: 1000n },
  ],
  [
    "reads a petId with Python's int, on a store whose ids start at 1000",
    'get-reads-id-as-python-int',
    ['getPet.path-boundaries'],
    { firstId: 1000n },
  ],
  [
    "answers a petId that is no integer with its router's plain-text 404",
    'get-404-text-for-non-integer',
    ['getPet.path-boundaries', 'errors.json-body'],
  ],
  ['announces a sunset on another day', 'sunset-wrong-date', ['getPet.sunset-day']],
  [
    'announces a sunset on another day on its 404s only',
    'sunset-wrong-on-404',
    ['getPet.sunset-day'],
  ],
  [
    'announces the sunset as a date alone, of another day (2030-12-06)',
    'sunset-date-only-wrong-day',
    ['getPet.sunset-day'],
  ],
  [
    'takes the first element of an array body, and the JSON inside a string body',
    'create-unwraps-body',
    ['createPet.body-not-object'],
  ],
  [
    'uses an id sent in the body as the new pet’s id, overwriting that pet',
    'create-takes-client-id',
    ['createPet.id-assigned-by-service'],
  ],
  [
    'answers 500 with an Error to a body carrying an id, as its database refuses the key',
    'create-500-on-id-field',
    ['createPet.id-assigned-by-service'],
  ],
  [
    'refuses a body carrying an id with a bare 400, no Error body',
    'create-refuses-id-without-error',
    ['createPet.id-assigned-by-service'],
  ],
  [
    'answers 201 with the id sent in the body, though it stored the pet under a new one',
    'create-echoes-client-id',
    ['createPet.id-assigned-by-service'],
  ],
  [
    'writes the name sent to the pet of the id sent, then refuses the body with 400',
    'create-applies-id-before-validating',
    ['createPet.id-assigned-by-service'],
  ],
  [
    'refuses a NewPet without status, as a model with no default for it does',
    'create-requires-status',
    ['createPet.without-status'],
  ],
  [
    'cuts names longer than 16 characters short',
    'create-truncates-long-names',
    ['createPet.long-name-kept'],
  ],
  [
    'cuts names longer than 1,000 characters short',
    'create-truncates-names-at-1000',
    ['createPet.long-name-kept'],
  ],
  [
    'reads names as Latin-1, storing a non-ASCII name as mojibake',
    'create-reads-names-as-latin1',
    ['createPet.non-ascii-name-kept'],
  ],
  [
    'lists a pet created without status under every status filter',
    'list-statusless-under-every-filter',
    ['listPets.one-status-per-pet'],
    { choices: ['omits-status'] },
  ],
  [
    'takes any key from ?api_key= when no Authorization is sent',
    'auth-accepts-key-in-query',
    onEveryOperation('key-in-query'),
  ],
  [
    'takes the last word of Authorization for the key',
    'auth-takes-last-word',
    onEveryOperation('word-before-key'),
  ],
  ['deletes a pet for a DELETE without a key', 'deletes-without-key', ['auth.changes-need-key']],
  [
    'answers XML to a read that asks for it',
    'answers-xml-when-asked',
    ['listPets.json-whatever-asked'],
  ],
  [
    'answers JSONP to a read with a callback',
    'answers-jsonp',
    ['listPets.json-whatever-asked', 'errors.pet-fields'],
  ],
  [
    'serves /pets.json as /pets without asking for the key',
    'auth-skipped-on-format-suffix',
    ['auth.every-read-shape'],
  ],
  [
    'replaces a pet for a PUT of a valid body without a key',
    'puts-without-key',
    ['auth.changes-need-key'],
  ],
  ['renames a pet for a PATCH without a key', 'patches-without-key', ['auth.changes-need-key']],
  [
    'takes any key from X-API-Key when no Authorization is sent',
    'auth-accepts-key-in-header',
    onEveryOperation('key-in-header'),
  ],
  [
    'accepts the lifecycle words "reserved" and "adopted" as statuses',
    'create-accepts-lifecycle-status',
    ['createPet.invalid-status'],
  ],
  [
    'writes a byte-order mark before every list',
    'json-bom-on-lists',
    ['errors.strict-json', 'listPets.large-answer'],
  ],
  [
    'writes a raw control character into error messages',
    'json-raw-control-char-in-errors',
    ['errors.strict-json', 'errors.json-body'],
  ],
  ['lists categoryIds beyond int64', 'list-category-id-beyond-int64', ['errors.pet-fields']],
  [
    'shows a pet sent without status as available when created and pending when read',
    'default-status-differs-on-read',
    ['errors.created-pets-agree'],
  ],
  [
    'lists names one character short (201 and getPet are right)',
    'list-shows-name-trimmed',
    ['errors.created-pets-agree', 'listPets.large-answer'],
  ],
  [
    'lists a pet sent without status, shown as available, under status=sold only',
    'list-default-status-under-other-filter',
    ['errors.created-pets-agree'],
  ],
  ['stores names trimmed', 'create-trims-names', ['createPet.string-boundaries']],
  [
    'stores a double quote in a name as &quot;',
    'create-html-escapes-names',
    ['createPet.string-boundaries'],
  ],
  [
    'stores & < > in a name as HTML entities',
    'create-escapes-markup',
    ['createPet.string-boundaries'],
  ],
  [
    'reads a backslash in a name as an escape (an SQL string literal)',
    'create-reads-backslash-escapes',
    ['createPet.string-boundaries'],
  ],
  // Each of these answers the 201 right: only the pet read back shows what was stored.
  [
    'reads names back without their trailing spaces (a CHAR column), the 201 as sent',
    'reads-names-without-trailing-spaces',
    ['createPet.string-boundaries'],
  ],
  [
    'reads categoryId back as a 32-bit integer, the 201 as sent',
    'reads-category-id-as-int32',
    ['createPet.category-id-exact'],
  ],
  [
    'keeps categoryIds beyond 2^53 but reads every categoryId back as a 32-bit integer, the 201 as sent',
    'reads-category-id-as-int32',
    ['createPet.integer-boundaries'],
    { choices: ['exact-big-category-ids'] },
  ],
  [
    'reads a name that is an ISO 8601 date-time as a date (a Json.NET JToken)',
    'create-reads-date-names',
    ['createPet.string-boundaries'],
  ],
  [
    'stores a name that reads as a number as that number (1.50 kept as 1.5)',
    'create-reads-number-names',
    ['createPet.string-boundaries'],
  ],
  [
    'decodes each piece of a body as text on its own, losing a character cut between pieces',
    'decodes-body-pieces-apart',
    ['createPet.body-in-pieces'],
  ],
  [
    'answers 500 to a name holding control characters',
    'create-500-on-control-chars',
    ['createPet.string-boundaries', 'errors.no-server-errors'],
  ],
  [
    'stores categoryId as a 32-bit integer',
    'create-category-id-as-int32',
    ['createPet.integer-boundaries'],
  ],
  [
    'reads categoryIds exactly, bounded one past int64 (2^63 and -2^63 - 1 taken)',
    'create-int64-bound-off-by-one',
    ['createPet.category-id-beyond-int64-exact'],
  ],
  [
    'takes a fraction a double reads as an integer, and gives its text back in the 201',
    'create-echoes-category-id-text',
    ['createPet.category-id-beyond-int64-exact'],
  ],
  [
    'takes categoryIds up to 2^64 - 1 (unsigned 64-bit)',
    'create-accepts-unsigned-category-id',
    ['createPet.invalid-category-id'],
  ],
  [
    'accepts categoryId: false (and refuses true)',
    'create-accepts-false-category-id',
    ['createPet.invalid-category-id'],
  ],
  [
    'accepts a capitalised status ("Sold")',
    'create-accepts-capitalised-status',
    ['createPet.invalid-status'],
  ],
  [
    'takes an empty status for no status',
    'create-empty-status-as-default',
    ['createPet.invalid-status'],
  ],
  [
    'answers 500 to petIds beyond 2^53',
    'get-500-beyond-double',
    ['getPet.path-boundaries', 'errors.no-server-errors'],
  ],
  ['answers petId 0 with some pet', 'get-returns-a-pet-for-0', ['getPet.path-boundaries']],
  [
    'lists every match of a status filter given without limit',
    'list-status-filter-unbounded',
    ['listPets.status-default-limit'],
    { choices: ['preloaded-store'] },
  ],
  [
    'answers 500 to a status filter in upper case',
    'list-500-on-other-case-status',
    ['listPets.status-boundaries', 'errors.no-server-errors'],
  ],
  [
    'takes "Bearer <key> x" as the key',
    'auth-ignores-words-after-key',
    onEveryOperation('word-after-key'),
  ],
  [
    'takes "XBearer <key>" as a bearer key',
    'auth-accepts-prefixed-scheme',
    onEveryOperation('scheme-prefixed'),
  ],
  [
    'reads a body it refused without a key as the next request on the connection',
    'reads-unread-body-as-request',
    ['createPet.unread-body'],
  ],
  [
    // The kit's own idle connections must not be what keeps the fault from showing.
    'reads a refused body as the next request only while it holds few other connections',
    'reads-unread-body-below-connection-limit',
    ['createPet.unread-body'],
  ],
  [
    'refuses a chunked body with 400, as if it had none',
    'create-refuses-chunked',
    ['createPet.request-shapes'],
  ],
  [
    'answers 304 to any If-None-Match',
    'read-304-on-if-none-match',
    ['listPets.request-shapes', 'auth.every-read-shape'],
  ],
  [
    'refuses a keyed request that carries Cache-Control',
    'auth-refuses-with-cache-control',
    ['listPets.request-shapes', 'createPet.request-shapes'],
  ],
  ['answers an empty list with 204 and no body', 'list-204-when-empty', ['errors.success-status']],
  [
    "writes grpc-gateway's error body (a numeric gRPC code, no status)",
    'errors-as-grpc-status',
    ['errors.error-schema', 'getPet.not-found'],
  ],
  // Go's encoding/json writes an empty nil slice as null: the kit sees it on an empty store.
  ['answers an empty list with null', 'list-null-when-empty', ['errors.pet-fields']],
  [
    'skips the key on listPets when a status filter is given',
    'auth-skipped-with-status-filter',
    ['auth.every-read-shape'],
  ],
  [
    'lists pets and shows a pet without a key at /pets/, /PETS and //pets',
    'auth-skipped-on-path-spellings',
    ['auth.every-read-shape'],
  ],
  [
    'creates a pet without a key when the body is sent chunked',
    'auth-skipped-on-chunked-create',
    ['auth.every-write-shape'],
  ],
  [
    'refuses a NewPet written with \\u escapes',
    'create-refuses-unicode-escapes',
    ['createPet.json-spellings'],
  ],
  [
    'refuses a NewPet with / written \\/',
    'create-refuses-escaped-slash',
    ['createPet.json-spellings'],
  ],
  [
    'refuses a NewPet with white space between tokens',
    'create-refuses-whitespace',
    ['createPet.json-spellings'],
  ],
  [
    'refuses a NewPet whose name is not its first member',
    'create-needs-name-first',
    ['createPet.json-spellings'],
  ],
  [
    'reads each half of an escaped surrogate pair as a character',
    'create-splits-surrogate-escapes',
    ['createPet.json-spellings'],
  ],
  [
    'takes the valid key from ?api_key= when no Authorization is sent (--disposable-key)',
    'auth-accepts-real-key-in-query',
    onEveryOperation('key-in-query'),
    {},
    { disposableKey: true },
  ],
  [
    'takes the valid key from the body’s access_token when no Authorization is sent (--disposable-key)',
    'auth-accepts-real-key-in-body',
    ['auth.createPet.key-in-body'],
    // As Express's json parser does, and passport with it: other members are left alone.
    { choices: ['ignores-unknown-fields'] },
    { disposableKey: true },
  ],
  [
    'takes the valid key from an apikey header when no Authorization is sent (--disposable-key)',
    'auth-accepts-real-key-in-header',
    onEveryOperation('key-in-header'),
    {},
    { disposableKey: true },
  ],
  [
    'takes the valid key from a token cookie when no Authorization is sent (--disposable-key)',
    'auth-accepts-real-key-in-cookie',
    onEveryOperation('key-in-header'),
    {},
    { disposableKey: true },
  ],
  // The preflight's own answers are judged: a 400 in the spec's shape is a failure, not exit 2.
  ['answers limit=1 with a 400 Error', 'list-400-on-limit-1', ['listPets.limit-1']],
  [
    'answers a NewPet whose name it has seen with that pet again',
    'create-replays-same-name',
    ['createPet.each-create-new'],
  ],
  [
    'answers a NewPet it has seen, field for field, with that pet again',
    'create-replays-same-content',
    ['createPet.each-create-new'],
  ],
  [
    'refuses a NewPet whose name it has seen with a bare 409, no Error body',
    'create-refuses-repeat-without-error',
    ['createPet.each-create-new'],
  ],
  [
    'answers a NewPet whose name it has seen with 500 and an Error, from a unique index',
    'create-500-on-repeat',
    ['createPet.each-create-new'],
  ],
  [
    'refuses Content-Type: application/json; charset=utf-8 with 415',
    'create-refuses-charset',
    ['createPet.media-type-spellings'],
  ],
  [
    'refuses the media type in other letter case with 415',
    'create-media-type-case-sensitive',
    ['createPet.media-type-spellings'],
  ],
  [
    'answers 429 with a plain-text body',
    'rate-limit-text-body',
    ['errors.json-body'],
    { rateLimitFirst: 2 },
  ],
  ['assigns ids beyond int64', 'ids-beyond-int64', ['errors.pet-fields']],
  [
    'reads a petId through a double, answering another pet beyond 2^53',
    'get-reads-id-as-double',
    ['createPet.readable-by-id', 'errors.pet-fields'],
    { choices: ['huge-ids'] },
  ],
  [
    'cuts every list answer at 4 KiB',
    'list-truncates-at-4k',
    ['listPets.limit-100', 'errors.strict-json'],
  ],
  // On a fresh store, which the kit tops up to 101 pets.
  ['caps every limit at 64', 'list-caps-at-64', ['listPets.every-limit', 'listPets.limit-100']],
  ['answers 99 pets to limit=100', 'list-limit-100-gives-99', ['listPets.limit-100']],
  [
    'takes any bearer token on listPets when a status filter is given',
    'auth-any-token-with-status-filter',
    ['auth.every-read-shape'],
  ],
  [
    'answers getPet with 203',
    'get-wrong-success-status',
    ['getPet.returns-pet', 'auth.getPet.valid-key'],
  ],
  [
    'creates a pet without a key at /pets/, /PETS and //pets',
    'auth-skipped-on-create-spellings',
    ['auth.every-write-shape'],
  ],
  [
    'answers a keyless list at /pets/, /PETS and //pets with 200 and an empty list',
    'auth-spellings-anonymous-list',
    ['auth.every-read-shape'],
  ],
  [
    'answers a keyless createPet at /pets/, /PETS and //pets with 403',
    'auth-create-spellings-forbidden',
    ['auth.every-write-shape'],
  ],
  [
    'serves /pets/, /PETS and //pets to requests without Authorization, and 404 to those with it',
    'auth-public-spellings-without-header',
    ['auth.every-read-shape', 'auth.every-write-shape'],
  ],
  [
    'serves /V1/pets and /V1/pets/{id} without the key (a guard on /v1/ as written, a router that folds case)',
    'auth-skipped-on-recased-base',
    ['auth.every-read-shape', 'auth.every-write-shape'],
  ],
  ['reads a petId as an int32, N + 2^32 as N', 'get-id-as-int32', ['getPet.path-boundaries']],
  [
    'looks the key up with SQL LIKE, so that "%" and "_" match any characters of it',
    'auth-key-like-match',
    [...onEveryOperation('unknown-key'), ...onEveryOperation('key-character-changed')],
  ],
  [
    'takes "*" and ".*" for any key (a glob, a regular expression)',
    'auth-accepts-pattern-key',
    onEveryOperation('unknown-key'),
  ],
  [
    'takes the valid key from X-Forwarded-Authorization, as a backend behind a gateway (--disposable-key)',
    'auth-accepts-real-key-in-forwarded-authorization',
    onEveryOperation('key-in-header'),
    {},
    { disposableKey: true },
  ],
  [
    'takes the valid key from ?auth= when no Authorization is sent (--disposable-key)',
    'auth-accepts-real-key-in-auth-query',
    onEveryOperation('key-in-query'),
    {},
    { disposableKey: true },
  ],
  [
    'serves /%70ets and /pets;x=1 without the key (a guard on the target as sent, a router on the decoded path)',
    'auth-guard-on-raw-target',
    ['auth.every-read-shape', 'auth.every-write-shape'],
  ],
  [
    'serves and creates pets without the key at a target in absolute form (a guard on targets starting with /)',
    'auth-skipped-on-absolute-form',
    ['auth.every-read-shape', 'auth.every-write-shape'],
  ],
  [
    'answers OPTIONS on /pets without a key with the list (a guard that lets preflights through)',
    'options-serves-without-key',
    ['auth.options-shows-nothing'],
  ],
  [
    'validates the first of a repeated status and stores the last',
    'create-validates-first-stores-last',
    ['createPet.repeated-members'],
  ],
  [
    'stores the pet of a create without a valid key, then answers 401',
    'create-stores-then-checks-key',
    ['createPet.refused-stores-nothing'],
  ],
  [
    'reads a petId as an int64 that wraps, N + 2^64 as N',
    'get-id-wraps-int64',
    ['getPet.path-boundaries'],
  ],
  [
    "answers 500 to limit=² (Python's isdigit, then int)",
    'list-500-on-superscript-limit',
    ['listPets.limit-out-of-range'],
  ],
  [
    "answers 500 to a name holding NUL (PostgreSQL's text)",
    'create-500-on-nul',
    ['createPet.string-boundaries'],
  ],
  [
    "serves a read without Authorization that sends back the session cookie the key opened (passport's session: true)",
    'auth-session-cookie',
    ['auth.session-cookie'],
  ],
  [
    'answers XML to a read with format=xml',
    'answers-format-param',
    ['listPets.json-whatever-asked'],
  ],
  [
    'answers UTF-16 to a read whose Accept-Charset prefers it',
    'answers-utf16-when-asked',
    ['listPets.json-whatever-asked'],
  ],
  [
    "creates the NewPet of a root member named pet (Rails' params.require(:pet))",
    'create-unwraps-root-member',
    ['createPet.wrapped-body'],
  ],
  [
    'takes any bearer token at /pets/, /PETS and //pets',
    'auth-any-token-on-path-spellings',
    ['auth.every-read-shape', 'auth.every-write-shape'],
  ],
  [
    'answers a keyless getPet at /pets/{id}/, /PETS/{id} and //pets/{id} with 403',
    'auth-spellings-forbidden',
    ['auth.every-read-shape'],
  ],
  // On an empty store, read-only: no pet is known, so the valid key asks for one that is not there.
  [
    'answers 401 to the valid key for a pet that is not there',
    'get-401-for-absent',
    ['auth.getPet.valid-key', 'getPet.not-found'],
    {},
    { readOnly: true },
  ],
  [
    'answers 500 to a keyless request with a key in the query',
    'auth-500-on-key-in-query',
    onEveryOperation('key-in-query'),
  ],
  // A page of the whole store filtered afterwards: limit=1 shows the first pet only where it has
  // the status asked for, and other statuses get none although the run created some.
  [
    'takes limit pets of the whole store, then keeps those with the status asked for',
    'list-filters-after-limit',
    ['listPets.status-with-limit'],
  ],
  [
    'refuses a list query with a plain-text 400',
    'query-errors-as-text',
    ['listPets.limit-out-of-range', 'listPets.status-boundaries'],
  ],
  [
    'refuses a list query parameter it does not know with a plain-text 400',
    'query-errors-as-text',
    ['listPets.recased-limit', 'listPets.bracketed-limit'],
    { choices: ['rejects-unknown-query-parameters'] },
  ],
  [
    'answers a list query it refuses with 200 and an Error',
    'query-errors-as-200',
    ['listPets.limit-out-of-range', 'listPets.status-boundaries'],
  ],
  // Only the pets of others are there to show it: a read-only run created none of its own.
  [
    'ignores the status filter, seen by a read-only run on a store of others’ pets',
    'list-ignores-status-filter',
    [
      'listPets.status-filter.available',
      'listPets.status-filter.pending',
      'listPets.status-filter.sold',
      'listPets.percent-encoded-query',
    ],
    { choices: ['preloaded-store'] },
    { readOnly: true },
  ],
];

/** A check that judges what the whole run sent or got: the `errors` group, the `every-*-shape` ones. */
const judgesTheRun = (id: string) => id.startsWith('errors.') || /\.every-\w+-shape$/.test(id);

/**
 * The kit's `only` for a row: the checks of the groups it names (as `--only auth` runs them), in
 * run order, up to its last named check, so that each named check sees what the checks before it
 * in its group did. A check's verdict is final once it has run: the checks after the last named
 * one could change nothing the row looks at. A check that judges the whole run runs after the
 * other groups' checks and sees their requests; a row naming only such checks runs every check.
 */
function checksFor(named: readonly string[]): string[] {
  if (named.every(judgesTheRun)) return [];
  const groups = new Set(named.map((id) => id.slice(0, id.indexOf('.'))));
  const inGroups = CHECKS.filter((c) => groups.has(c.group)).map((c) => c.id);
  return inGroups.slice(0, Math.max(...named.map((id) => inGroups.indexOf(id))) + 1);
}

describe.concurrent('against a server that breaks one rule of the spec', () => {
  it.each(CAUGHT)('catches a server that %s', async (_, fault, checks, server = {}, kit = {}) => {
    const only = checksFor(checks);
    const { report } = await runAgainst({ ...server, faults: [fault] }, { only, ...kit });
    for (const id of checks) {
      const result = resultOf(report, id);
      expect(result.level, id).toBe('must');
      expect(result.outcome, `${id}: ${result.message}`).toBe('fail');
      expect(result.message, id).not.toBe('');
    }
    expect(report.ok).toBe(false);
  });
});

/** The spellings `createPet.json-spellings` tries one at a time, as its messages name them. */
const SPELLINGS = {
  'create-refuses-unicode-escapes': 'every character a \\u escape',
  'create-refuses-escaped-slash': '/ written \\/',
  'create-refuses-whitespace': 'white space between tokens',
  'create-needs-name-first': 'members in reverse order',
} as const;

describe.concurrent('against a server that refuses one spelling of JSON', () => {
  it.each(
    Object.entries(SPELLINGS),
  )('names only that spelling in its failure (%s)', async (fault, spelling) => {
    const only = checksFor(['createPet.json-spellings']);
    const { report } = await runAgainst({ faults: [fault as Fault] }, { only });
    const { outcome, message } = resultOf(report, 'createPet.json-spellings');
    expect(outcome, message).toBe('fail');
    expect(message).toContain(`with ${spelling} `);
    for (const other of Object.values(SPELLINGS)) {
      if (other !== spelling) expect(message).not.toContain(other);
    }
    expect(message).not.toContain('(and with');
  });
});

describe('against a server that refuses three spellings of JSON', () => {
  it('sends every spelling of every NewPet worth spelling, and names the spellings refused', async () => {
    const only = checksFor(['createPet.json-spellings']);
    const faults = [
      'create-refuses-unicode-escapes',
      'create-refuses-whitespace',
      'create-needs-name-first',
    ] as const;
    const { report } = await runAgainst({ faults: [...faults] }, { only });
    const { outcome, message } = resultOf(report, 'createPet.json-spellings');
    expect(outcome, message).toBe('fail');
    const escapes = SPELLINGS['create-refuses-unicode-escapes'];
    const space = SPELLINGS['create-refuses-whitespace'];
    const order = SPELLINGS['create-needs-name-first'];
    expect(message).toContain(`with ${escapes} answered 400`);
    expect(message).toContain(`is accepted (and with ${space}; ${order})`);
    // A plain NewPet, one beyond the BMP, one with a slash and one beyond ASCII: each is sent.
    expect(message).toMatch(/ \(and [1-3] more\)$/m);
  });
});

describe('the key in the other letter case, on one kept-alive connection', () => {
  const only = checksFor(['auth.getPet.valid-key-after-other-case']);

  it('names the request the valid key was refused after, and each key the server took', async () => {
    const blind = await runAgainst({ faults: ['auth-header-cache-case-blind'] }, { only });
    expect(resultOf(blind.report, 'auth.listPets.valid-key-after-other-case').message).toMatch(
      /^GET \/pets\?limit=1 with the valid key, on a connection that had just carried it in the other letter case answered 401/,
    );
    // Right after the valid key the cache reads the other case as it: advised on.
    expect(resultOf(blind.report, 'auth.listPets.key-case-changed').message).toMatch(
      /^GET \/pets\?limit=1 with the valid key in the other letter case, on a connection that had just carried the valid key answered 200/,
    );
    const exact = await runAgainst({}, { only });
    const { message } = resultOf(exact.report, 'auth.listPets.valid-key-after-other-case');
    expect(message.split('; ')).toEqual([
      'GET /pets?limit=1 with the valid key, on a connection that had just carried it in the other letter case answered 200',
      'GET /pets?limit=1 with the valid key, first on a new connection answered 200',
      'GET /pets?limit=1 with the valid key, on a connection that had just carried it in the other letter case answered 200',
    ]);
    expect(resultOf(exact.report, 'auth.listPets.key-case-changed').message).toBe(
      'with the valid key in the other letter case, first on a new connection, and with the valid key in the other letter case, on a connection that had just carried the valid key: 401 with an Error body',
    );
  });
});

describe('a path id in octal after a zero', () => {
  it('is the least pet id of at least 8 the run has seen: 010 for pet 8 on ids from 1', async () => {
    const fault = 'get-reads-leading-zero-as-octal';
    const { report } = await runAgainst({ faults: [fault] }, { only: [] });
    expect(resultOf(report, 'getPet.path-boundaries').message).toMatch(
      /^GET \/pets\/010 answered 200 with pet 8$/m,
    );
    const reference = await runAgainst({}, { only: [] });
    const { message } = resultOf(reference.report, 'getPet.path-boundaries');
    expect(message.split(', ').filter((seen) => /^0\d/.test(seen))).toEqual([
      expect.stringMatching(/^0\d+: 200$/),
      '010: 200',
    ]);
  });
});

describe('run alone, the checks of every answer', () => {
  // `--only errors` runs no check that provokes an error: they provoke a 401 and a 404 first. On
  // a preloaded store the preflight's pet 1 exists, so only the kit's own probe gets a 404.
  it.each([
    ['errors.error-schema', 'auth-error-body-malformed', 'GET /pets?limit=1 answered 401: '],
    ['errors.json-body', 'get-404-as-html', `GET /pets/${ID_MAX} answered 404: `],
  ] as const)('%s provokes the answer it fails on a server that %s', async (id, fault, shown) => {
    const server = { faults: [fault], choices: ['preloaded-store'] } as const;
    const { report } = await runAgainst(server, { only: [id] });
    const { outcome, message } = resultOf(report, id);
    expect(outcome, message).toBe('fail');
    expect(message).toContain(shown);
  });
});

describe("on a store of full pages whose next pages never show the run's pets", () => {
  // Every first page is full, so a pet can lie beyond it: the kit follows the server's next
  // pages, and a pet on none of them is unjudged (the spec has no paging), never passed.
  it('passes no check that a created pet is listed, and names the pages it followed', async () => {
    const server = { faults: ['create-not-persisted'], choices: ['preloaded-store'] } as const;
    const filters = PET_STATUSES.map(
      (status) => `listPets.status-filter.${status}.includes-created`,
    );
    const { report } = await runAgainst(server, { only: ['createPet.listed', ...filters] });
    const listed = resultOf(report, 'createPet.listed');
    expect(listed.outcome, listed.message).toBe('skip');
    expect(listed.message).toMatch(
      /^pet \d+ is on none of the full first pages nor on the \d+ later pages their Link rel="next" led to; the spec has no paging$/,
    );
    for (const id of filters) {
      const { outcome, message } = resultOf(report, id);
      expect(outcome, message).toBe('skip');
      expect(message).toMatch(/^pet \d+ is on none of \d+ pages followed from GET \/pets\?status=/);
    }
  });
});

describe('run alone, createPet.each-create-new', () => {
  // No other check re-sends a NewPet: the check's own pair has to show the replay.
  it('catches a server that answers a NewPet it has seen with that pet again', async () => {
    const only = ['createPet.each-create-new'];
    const { report } = await runAgainst({ faults: ['create-replays-same-content'] }, { only });
    const { outcome, message } = resultOf(report, 'createPet.each-create-new');
    expect(outcome, message).toBe('fail');
    expect(message).toMatch(/^the same NewPet sent twice answered 201 with pet \d+ both times/);
  });
});

describe('when fewer of its pets exist than the kit meant to create', () => {
  it.each([
    [
      'create-not-persisted',
      'listPets.default-limit',
      'fail',
      /created, 0 readable: see createPet\.readable-by-id\)/,
    ],
    [
      'create-reuses-ids',
      'listPets.limit-100',
      'skip',
      /created, \d+ distinct ids: see createPet\.distinct-ids, so 100 cannot be judged/,
    ],
  ] as const)('a server that %s gets the cause in %s', async (fault, id, outcome, cause) => {
    const { report } = await runAgainst({ faults: [fault] }, { only: checksFor([id]) });
    const result = resultOf(report, id);
    expect(result.outcome, result.message).toBe(outcome);
    expect(result.message).toMatch(cause);
  });
});

describe('the fault table', () => {
  it('covers every fault the fake server can inject, at least 25', () => {
    expect([...new Set(CAUGHT.map(([, fault]) => fault))].sort()).toEqual([...FAULTS].sort());
    expect(FAULTS.length).toBeGreaterThanOrEqual(25);
  });

  it('names only checks that exist', () => {
    const ids = new Set(CHECKS.map((c) => c.id));
    for (const [, , checks] of CAUGHT) for (const id of checks) expect(ids).toContain(id);
  });
});

describe('a create answered 303 See Other to the new pet', () => {
  it('is judged on the 303, not on the read of its Location', async () => {
    const { report } = await runAgainst(
      { faults: ['create-see-other'] },
      { only: ['createPet.created'] },
    );
    const created = resultOf(report, 'createPet.created');
    expect(created.outcome).toBe('fail');
    expect(created.message).toMatch(/\b303\b/);
  });
});
