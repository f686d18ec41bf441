// A small in-memory Animal Store for the kit's self-tests: the spec plus DESIGN.md's gap decisions
// (the reference), a lenient variant that fills every gap differently but still conforms, and a
// switch per fault that breaks exactly one rule of the spec.
import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  BODY_LIMIT_BYTES,
  DEFAULT_PET_STATUS,
  describeDetails,
  formatListPetsQuery,
  GET_PET_DEPRECATION_HEADERS,
  holdsUnpairedSurrogate,
  ID_MAX,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  LIST_PETS_PARAMS,
  PET_STATUSES,
  type PetStatus,
  parseJsonText,
  parseListPetsQuery,
  parsePetId,
  SpecNewPet,
  type SpecPet,
  validateNewPet,
} from '@animal-store/contract';
import JSON5 from 'json5';

/** Each fault breaks one rule of the spec; the kit must catch it with a `must` check. */
export const FAULTS = [
  'auth-skipped-on-list',
  'auth-accepts-bare-key',
  'auth-accepts-token-scheme',
  'auth-accepts-basic-credentials',
  'auth-key-last-character-ignored',
  'auth-key-first-character-ignored',
  'create-takes-snake-case-category-id',
  'text-plain-without-accept',
  'create-truncates-names-at-1000',
  'auth-skipped-on-create',
  'auth-skipped-on-get',
  'auth-accepts-unknown-key',
  'auth-ignores-scheme',
  'auth-accepts-empty-token',
  'auth-answers-403',
  'auth-error-body-malformed',
  'list-wrong-success-status',
  'list-not-array',
  'list-text-content-type',
  'list-status-wrong-type',
  'list-ignores-status-filter',
  'list-drops-newest-match',
  'list-ignores-limit',
  'list-default-limit-10',
  'list-caps-at-50',
  'list-repeats-a-pet',
  'list-500-on-limit-0',
  'create-answers-200',
  'create-see-other',
  'create-accepts-missing-name',
  'create-accepts-missing-category-id',
  'create-coerces-name-number',
  'create-coerces-category-id-string',
  'create-truncates-category-id',
  'create-accepts-status-number',
  'create-drops-unknown-status',
  'create-500-on-malformed-json',
  'create-accepts-empty-body',
  'create-accepts-blank-body',
  'create-400-without-error-body',
  'create-ignores-status',
  'create-alters-name',
  'create-not-persisted',
  'create-reuses-ids',
  'get-returns-other-pet',
  'get-404-as-html',
  'get-404-status-mismatch',
  'get-404-status-as-string',
  'get-200-null-for-absent',
  'get-400-for-absent',
  'get-500-on-malformed-id',
  'get-path-drops-bytes-not-utf8',
  'sunset-wrong-date',
  'create-folds-status-case',
  'create-refuses-only-lost',
  'create-trims-status',
  'create-accepts-boolean-category-id',
  'create-accepts-null-name',
  'list-ignores-limit-with-status',
  'auth-key-prefix-match',
  'auth-accepts-key-prefix',
  'auth-header-cache-case-blind',
  'auth-refusal-cache-case-blind',
  'create-loses-writes-when-full',
  'sunset-date-only-wrong-day',
  'create-unwraps-body',
  'create-takes-client-id',
  'create-truncates-long-names',
  'create-reads-names-as-latin1',
  'list-statusless-under-every-filter',
  'auth-accepts-key-in-query',
  'create-accepts-lifecycle-status',
  'json-bom-on-lists',
  'json-raw-control-char-in-errors',
  'list-category-id-beyond-int64',
  'create-int64-bound-off-by-one',
  'create-echoes-category-id-text',
  'default-status-differs-on-read',
  'list-shows-name-trimmed',
  'list-default-status-under-other-filter',
  'create-trims-names',
  'create-500-on-control-chars',
  'create-category-id-as-int32',
  'create-accepts-unsigned-category-id',
  'create-accepts-false-category-id',
  'create-accepts-capitalised-status',
  'create-empty-status-as-default',
  'get-500-beyond-double',
  'get-returns-a-pet-for-0',
  'list-status-filter-unbounded',
  'list-500-on-other-case-status',
  'auth-ignores-words-after-key',
  'auth-accepts-prefixed-scheme',
  'create-refuses-chunked',
  'read-304-on-if-none-match',
  'auth-refuses-with-cache-control',
  'list-204-when-empty',
  'auth-skipped-with-status-filter',
  'auth-skipped-on-path-spellings',
  'auth-skipped-on-chunked-create',
  'create-refuses-unicode-escapes',
  'create-refuses-escaped-slash',
  'create-refuses-whitespace',
  'create-needs-name-first',
  'create-splits-surrogate-escapes',
  'auth-accepts-real-key-in-query',
  'auth-accepts-real-key-in-body',
  'auth-accepts-basic-password',
  'get-id-wraps-int64',
  'create-stores-then-checks-key',
  'options-serves-without-key',
  'create-validates-first-stores-last',
  'list-400-on-limit-1',
  'create-replays-same-name',
  'create-replays-same-content',
  'create-refuses-charset',
  'create-media-type-case-sensitive',
  'rate-limit-text-body',
  'ids-beyond-int64',
  'get-reads-id-as-double',
  'list-truncates-at-4k',
  'list-caps-at-64',
  'list-limit-100-gives-99',
  'get-reads-leading-digits',
  'get-404-text-for-non-integer',
  'create-keys-case-insensitive',
  'get-reads-id-as-js-number',
  'get-reads-id-as-python-int',
  'get-reads-leading-zero-as-octal',
  'list-null-when-empty',
  'get-500-on-non-integer',
  'errors-as-grpc-status',
  'errors-html-unless-json-accepted',
  'errors-html-for-browsers',
  'create-reads-status-by-index',
  'create-reads-empty-category-id-as-0',
  'create-unwraps-one-element-arrays',
  'create-reads-fields-from-query',
  'create-500-without-json-body',
  'html-for-browsers',
  'create-500-on-invalid-utf8',
  'list-query-keys-case-insensitive',
  'html-413-from-proxy',
  'create-500-on-deep-nesting',
  'honours-method-override-header',
  'honours-method-override-query',
  'honours-method-override-body',
  'list-reads-bracketed-limit',
  'create-500-on-infinite-category-id',
  'get-reads-unicode-digits',
  'get-trims-id',
  'create-500-walking-deep-bodies',
  'create-form-drops-status',
  'create-500-on-multipart-without-boundary',
  'create-422-on-deep-nesting',
  'dies-on-deep-nesting',
  'dies-on-large-bodies',
  'create-requires-status',
  'create-500-on-id-field',
  'create-refuses-id-without-error',
  'create-echoes-client-id',
  'create-applies-id-before-validating',
  'create-refuses-repeat-without-error',
  'create-500-on-repeat',
  'sunset-wrong-on-404',
  'auth-skipped-on-create-spellings',
  'auth-spellings-anonymous-list',
  'auth-spellings-forbidden',
  'get-401-for-absent',
  'auth-500-on-key-in-query',
  'auth-accepts-key-in-header',
  'auth-takes-last-word',
  'auth-accepts-real-key-in-header',
  'auth-accepts-real-key-in-cookie',
  'auth-key-like-match',
  'auth-accepts-pattern-key',
  'auth-accepts-real-key-in-forwarded-authorization',
  'auth-accepts-real-key-in-auth-query',
  'auth-guard-on-raw-target',
  'auth-skipped-on-absolute-form',
  'deletes-without-key',
  'patches-without-key',
  'puts-without-key',
  'answers-xml-when-asked',
  'answers-jsonp',
  'auth-skipped-on-format-suffix',
  'get-wrong-success-status',
  'auth-any-token-with-status-filter',
  'auth-create-spellings-forbidden',
  'auth-public-spellings-without-header',
  'auth-any-token-on-path-spellings',
  'auth-skipped-on-recased-base',
  'create-unwraps-root-member',
  'answers-format-param',
  'answers-utf16-when-asked',
  'list-500-on-superscript-limit',
  'auth-session-cookie',
  'create-500-on-nul',
  'get-id-as-int32',
  'list-filters-after-limit',
  'query-errors-as-text',
  'query-errors-as-200',
  'reads-names-without-trailing-spaces',
  'reads-category-id-as-int32',
  'create-html-escapes-names',
  'create-escapes-markup',
  'create-reads-backslash-escapes',
  'create-500-on-unpaired-surrogate',
  'list-unbounded-on-repeated-limit',
  'list-query-not-percent-decoded',
  'list-status-read-as-sent',
  'list-limit-read-as-sent',
  'expect-417',
  'reads-unread-body-as-request',
  'reads-unread-body-below-connection-limit',
  'create-reads-date-names',
  'create-reads-number-names',
  'decodes-body-pieces-apart',
] as const;
export type Fault = (typeof FAULTS)[number];

/**
 * Conforming alternatives to our gap decisions; `lenient: true` turns them all on but
 * `lists-in-map-order`: beside thousands of pets of others and no next page, the run's pets
 * would lie on a page the kit sees only by chance, and the run would be INCOMPLETE by chance.
 */
export const GAP_CHOICES = [
  'clamps-limit',
  'omits-status',
  'extra-pet-fields',
  'no-location',
  'no-deprecation-headers',
  'no-www-authenticate',
  'others-pets-descending',
  'lists-in-map-order',
  'huge-ids',
  'own-error-codes',
  'ignores-unknown-fields',
  'unknown-status-filter-empty',
  'no-next-link',
  'malformed-id-404',
  'validates-before-auth',
  'looks-up-before-auth',
  'json-charset-latin1',
  'integers-as-floats',
  'repeats-categoryid',
  'reads-first-json-value',
  'body-limit-1-kib',
  'body-limit-1-kib-400',
  'exact-big-category-ids',
  'saturating-double-category-ids',
  'int64-exact-doubles-beyond',
  'deprecation-on-list',
  'sunset-iso-8601',
  'dates-with-white-space',
  'sunset-central-europe',
  'deprecation-true',
  'deprecation-after-sunset',
  'known-categories-only',
  'short-names-only',
  'lagging-reads',
  'preloaded-store',
  'null-status-absent',
  'serves-any-limit',
  'javascript-json',
  'reads-json5',
  'sunset-date-only',
  'letters-only-names',
  'names-up-to-64',
  'ascii-names-only',
  'capitalised-names-only',
  'refuses-empty-names',
  'case-insensitive-status-filter',
  'path-spellings-404-text',
  'path-spellings-same-resource',
  'format-suffix-ids',
  'drops-other-methods',
  'drops-odd-targets',
  'public-cache-control',
  'sets-affinity-cookie',
  'path-spellings-redirect',
  'unique-names',
  'unique-names-400',
  'beyond-int64-422',
  'ids-from-2-53-minus-2',
  'unknown-methods-501',
  'others-pet-at-id-max',
  'others-pet-at-int64-max',
  'deprecation-at-sunset',
  'sunset-unreadable',
  'deprecation-only-on-found',
  'malformed-id-422',
  'query-errors-422',
  'reads-any-media-type',
  'reads-form-bodies',
  'other-media-types-400',
  'replaces-invalid-utf8',
  'takes-large-bodies',
  'closes-on-large-bodies',
  'closes-on-bodies-over-64-kib',
  'rejects-unknown-query-parameters',
  'basic-challenge',
  'scheme-case-sensitive',
  'spa-fallback',
  'next-link-elsewhere',
  'next-link-repeats-page',
  'next-link-past-the-end',
  'empty-error-messages',
  'blank-error-codes',
  'location-of-collection',
  'replaces-unpaired-surrogates',
  'repeated-parameter-last-wins',
  'repeated-parameter-ignored',
  'python-int-limit',
  'gzips-every-answer',
  'one-space-after-scheme',
  'chunked-length-required',
  'closes-idle-connections',
  'answers-body-after-close',
  'head-405',
  'head-skips-auth',
  'head-with-body',
  'routes-target-as-written',
  'key-case-insensitive',
  'takes-off-segment-parameters',
] as const;
export type GapChoice = (typeof GAP_CHOICES)[number];

export interface FakeServerOptions {
  readonly apiKey?: string;
  readonly faults?: readonly Fault[];
  readonly choices?: readonly GapChoice[];
  readonly lenient?: boolean;
  /** Answer `429` with `Retry-After: 0` to the first N requests. */
  readonly rateLimitFirst?: number;
  /** Always answer `429` to matching requests. */
  readonly alwaysRateLimit?: (method: string, path: string) => boolean;
  /**
   * Answer `503` to the first `first` requests, as while the database is down a moment, with
   * `Retry-After: 0` unless `retryAfter` is false; `always` answers matching requests so too.
   */
  readonly unavailable?: {
    readonly first?: number;
    readonly always?: (method: string, path: string) => boolean;
    readonly retryAfter?: boolean;
  };
  /** Never answer matching requests (`bytes`: the length of the body received). */
  readonly hang?: (method: string, path: string, bytes: number) => boolean;
  /** Close the connection of matching requests, once their body is read, with no answer. */
  readonly closeUnanswered?: (req: IncomingMessage) => boolean;
  /** The message of every Error body (e.g. one with terminal escape sequences). */
  readonly errorMessage?: string;
  /** The first id the store gives (1 unless a gap choice says otherwise). */
  readonly firstId?: bigint;
  /** Served over HTTPS with this key and certificate (PEM), at an `https:` base URL. */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Reads only the first piece of a body (its first `data` event), as if it were all of it. */
  readonly readsFirstBodyPiece?: boolean;
  /** How long a `lagging-reads` server takes to show a write (`READ_LAG_MS` unless given). */
  readonly readLagMs?: number;
}

/** How many other open connections make a server with `reads-unread-body-below-connection-limit` close. */
const CONNECTION_LIMIT = 3;

/** A Sunset of the wrong day: 6 December 2030 at noon UTC is 5 December in no time zone. */
const WRONG_SUNSET = 'Fri, 06 Dec 2030 12:00:00 GMT';

/** The categories a `known-categories-only` server knows. */
export const KNOWN_CATEGORY_IDS = ['7', '42'] as const;
/** How long a `lagging-reads` server takes to show a write, in milliseconds. */
export const READ_LAG_MS = 150;
/** How many pets of others a `preloaded-store` server holds before the run. */
export const PRELOADED_PETS = 3000;

export interface FakeServer {
  /** `http://127.0.0.1:<port>/v1` (`https:` with `tls`) */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Every request received: method and path below `/v1` (query included). */
  readonly requests: { method: string; path: string; body: string }[];
  /** How many pets `createPet` stored. */
  created(): number;
  close(): Promise<void>;
}

/** A pet: the spec's fields (`SpecPet`), its integers as bigints (int64 beyond 2^53). */
type StoredPet = Omit<SpecPet, 'id' | 'categoryId'> & {
  id: bigint;
  categoryId: bigint;
  /** When reads start to show it (`lagging-reads`); 0: at once. */
  visibleAt?: number;
  /** True when the status is the default given to a pet sent without one. */
  defaulted?: boolean;
};

/** `path` percent-decoded, or as it is where it holds no UTF-8 (`%FF`). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The member `name` of a JSON body, if it has one. */
function bodyMember(raw: string, name: string): unknown {
  try {
    return (JSON.parse(raw) as Record<string, unknown> | null)?.[name];
  } catch {
    return undefined;
  }
}

/** How deep arrays and objects nest in JSON `text`, strings skipped. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

/** JSON with bigint values written as plain integers, and `__int:` strings as the number they hold. */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `__int:${v}` : v)).replace(
    /"__int:(-?[\d.]+)"/g,
    '$1',
  );
}

const CODES = {
  reference: {
    400: 'validation_failed',
    401: 'unauthorized',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'unprocessable',
    429: 'rate_limited',
    500: 'internal_error',
    503: 'service_unavailable',
  },
  own: {
    400: 'BAD_REQUEST',
    401: 'AUTH_REQUIRED',
    404: 'NO_SUCH_THING',
    405: 'BAD_METHOD',
    409: 'ALREADY_THERE',
    413: 'TOO_BIG',
    415: 'BAD_MEDIA',
    422: 'CANNOT_PROCESS',
    429: 'SLOW_DOWN',
    500: 'OOPS',
    503: 'TRY_LATER',
  },
} as const;
type ErrorStatus = keyof (typeof CODES)['reference'];

/** The gRPC status grpc-gateway maps each HTTP status from. */
const GRPC_CODES: Record<ErrorStatus, number> = {
  400: 3,
  401: 16,
  404: 5,
  405: 12,
  409: 6,
  413: 8,
  415: 3,
  422: 3,
  429: 8,
  500: 13,
  503: 14,
};

/** Starts a fake server on 127.0.0.1, port 0. */
export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const apiKey = options.apiKey ?? 'test-key-123';
  const faults = new Set<Fault>(options.faults ?? []);
  const choices = new Set<GapChoice>(
    options.lenient
      ? GAP_CHOICES.filter((choice) => choice !== 'lists-in-map-order')
      : (options.choices ?? []),
  );
  const has = (fault: Fault) => faults.has(fault);
  /** The connections open to the server, that a client has not ended. */
  const open = new Set<Socket>();
  /** The server stopped listening (`dies-on-deep-nesting`): `close` has nothing left to do. */
  let dead = false;
  const lastAuthorization = new WeakMap<Socket, string>();
  const lastRefused = new WeakMap<Socket, string>();
  const gap = (choice: GapChoice) => choices.has(choice);
  const requests: { method: string; path: string; body: string }[] = [];
  const pets = new Map<bigint, StoredPet>();
  // Ids read exactly as int64, never through a double.
  const int64Ids =
    gap('huge-ids') ||
    gap('ids-from-2-53-minus-2') ||
    gap('others-pet-at-int64-max') ||
    has('ids-beyond-int64');
  let nextId = has('ids-beyond-int64')
    ? 2n ** 63n
    : gap('huge-ids')
      ? 1_790_000_000_000_000_123n
      : gap('ids-from-2-53-minus-2')
        ? BigInt(ID_MAX) - 2n
        : (options.firstId ?? 1n);
  let creations = 0;
  let stored = 0;
  let rateLimited = 0;
  let unavailable = 0;

  if (gap('preloaded-store')) {
    for (let i = 0; i < PRELOADED_PETS; i++) {
      const pet: StoredPet = { id: nextId, name: `pet${i}`, categoryId: 3n };
      pet.status = PET_STATUSES[i % 3] as PetStatus;
      pets.set(pet.id, pet);
      nextId += 1n;
    }
  }
  if (gap('others-pet-at-id-max')) {
    // Someone else's pet at the largest id every client can hold, the first id the kit tries
    // for a pet that does not exist.
    const top = BigInt(ID_MAX);
    pets.set(top, { id: top, name: "someone else's pet at the top", categoryId: 9n });
  }
  if (gap('others-pet-at-int64-max')) {
    // Someone else's pet at the largest int64, an edge the kit tries as a path id.
    const top = 2n ** 63n - 1n;
    pets.set(top, { id: top, name: "someone else's pet at the int64 edge", categoryId: 9n });
  }
  const visible = (pet: StoredPet | undefined) =>
    pet !== undefined && (pet.visibleAt ?? 0) <= Date.now() ? pet : undefined;

  if (gap('others-pets-descending')) {
    // Someone else's pets, there before the kit: any status, some without one.
    for (let i = 0; i < 30; i++) {
      const pet: StoredPet = { id: nextId, name: `someone else's pet ${i}`, categoryId: 9n };
      if (i % 4 !== 3) pet.status = PET_STATUSES[i % 3] as PetStatus;
      pets.set(pet.id, pet);
      nextId += 7n;
    }
  }

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const contentType =
      has('text-plain-without-accept') && res.req.headers.accept === undefined
        ? // A framework that picks the media type by Accept, and takes none for text.
          'text/plain; charset=utf-8'
        : // A servlet container's default charset, named on UTF-8 bytes.
          gap('json-charset-latin1')
          ? 'application/json; charset=ISO-8859-1'
          : gap('own-error-codes')
            ? 'application/json'
            : 'application/json; charset=utf-8';
    let text = body === undefined ? '' : stringify(body);
    // ASP.NET's [ResponseCache] default: any cache, a shared one too, may keep the answer.
    if (gap('public-cache-control') && status >= 200 && status <= 299) {
      headers = { 'cache-control': 'public, max-age=60', ...headers };
    }
    // Python's json.dumps of numbers a store holds as doubles: 7.0 for 7.
    if (gap('integers-as-floats')) {
      text = text.replace(/("(?:id|categoryId|status)":-?\d+)(?=[,}])/g, '$1.0');
    }
    // A serializer that writes one property twice (Jackson's @JsonTypeInfo on a property of the
    // same name), the first time as a string: JSON.parse keeps the last.
    if (gap('repeats-categoryid')) {
      text = text.replace(/"categoryId":(-?\d+)/g, '"categoryId":"$1","categoryId":$1');
    }
    if (has('json-raw-control-char-in-errors') && status >= 400) {
      text = text.replace(/"message":"/, '"message":"\u0001');
    }
    if (gap('gzips-every-answer')) {
      // Whatever the request's Accept-Encoding: without one, any coding is acceptable
      // (RFC 9110 §12.5.3).
      res.writeHead(status, {
        'content-type': contentType,
        'content-encoding': 'gzip',
        ...headers,
      });
      return res.end(gzipSync(text));
    }
    // ASP.NET Core's JSON formatter: the charset the client's Accept-Charset prefers.
    if (
      has('answers-utf16-when-asked') &&
      /^utf-16/i.test(`${res.req.headers['accept-charset']}`)
    ) {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-16', ...headers });
      return res.end(Buffer.from(text, 'utf16le'));
    }
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(text);
  }

  /** Refuses a request's query: a 400 Error, or what a fault makes of it. */
  function refuseQuery(res: ServerResponse, message: string, extra: Record<string, string>) {
    if (has('query-errors-as-text')) {
      // A framework's own validation answer, in plain text.
      res.writeHead(400, { 'content-type': 'text/plain', ...extra });
      return res.end(`Bad Request: ${message}`);
    }
    if (has('query-errors-as-200')) {
      // A validation error sent as a success.
      return send(res, 200, { code: 'validation_failed', message }, extra);
    }
    if (gap('query-errors-422')) {
      // FastAPI's status for a query parameter that fails validation, with an Error body.
      return send(res, 422, { code: 'invalid_query', message, status: 422 }, extra);
    }
    error(res, 400, message, extra);
  }

  function error(
    res: ServerResponse,
    status: ErrorStatus,
    message: string,
    headers: Record<string, string> = {},
  ) {
    message = gap('empty-error-messages') ? '' : (options.errorMessage ?? message);
    if (has('errors-as-grpc-status')) {
      // grpc-gateway's error body: the gRPC status code as a number, no HTTP status.
      return send(res, status, { code: GRPC_CODES[status], message, details: [] }, headers);
    }
    const accept = res.req.headers.accept ?? '';
    if (
      (has('errors-html-unless-json-accepted') && !accept.includes('/json')) ||
      (has('errors-html-for-browsers') && accept.includes('text/html'))
    ) {
      // Jetty 9.4's error handler: an HTML page unless the client names JSON among what it takes;
      // Spring Boot's: an HTML page when the client names HTML.
      res.writeHead(status, { 'content-type': 'text/html;charset=iso-8859-1', ...headers });
      return res.end(`<html><body><h2>HTTP ERROR ${status}</h2><p>${message}</p></body></html>`);
    }
    const code = gap('blank-error-codes')
      ? ' '
      : CODES[gap('own-error-codes') ? 'own' : 'reference'][status];
    const extra = gap('own-error-codes') ? { details: message, traceId: 'abc123' } : {};
    send(res, status, { code, message, status, ...extra }, headers);
  }

  /** A pet as a read shows it (`created`: as the 201 answer shows it). */
  function view(pet: StoredPet, created = false): Record<string, unknown> {
    const { visibleAt: _, defaulted, ...out }: Record<string, unknown> = pet;
    if (has('default-status-differs-on-read') && defaulted && !created) out.status = 'pending';
    // The 201 echoes what was sent, while the store kept its own reading of it: a CHAR column
    // drops trailing spaces, an int column keeps 32 bits.
    if (has('reads-names-without-trailing-spaces') && !created) {
      out.name = String(out.name).replace(/ +$/, '');
    }
    if (has('reads-category-id-as-int32') && !created) {
      out.categoryId = BigInt.asIntN(32, pet.categoryId);
    }
    if (gap('omits-status')) delete out.status;
    if (gap('extra-pet-fields')) {
      Object.assign(out, { createdAt: '2025-01-01T00:00:00Z', tags: [], category: { id: 1 } });
    }
    return out;
  }

  /** True when the request carries `Authorization: Bearer <the valid key>`. */
  /** The sessions `auth-session-cookie` opened, by id. */
  const sessions = new Set<string>();

  function hasValidKey(req: IncomingMessage): boolean {
    return /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] === apiKey;
  }

  /** True when the request may go on; otherwise answers 401 (or the fault's status). */
  function authenticate(req: IncomingMessage, res: ServerResponse, extra: Record<string, string>) {
    let header = req.headers.authorization ?? '';
    if (has('auth-header-cache-case-blind')) {
      // Jetty's default: the connection's last value stands for one equal to it in any case.
      const cached = lastAuthorization.get(req.socket);
      if (cached?.toLowerCase() === header.toLowerCase()) header = cached;
      lastAuthorization.set(req.socket, header);
    }
    // The connection's last refused value refuses one equal to it in any case, unread.
    const refused = lastRefused.get(req.socket);
    if (has('auth-refusal-cache-case-blind') && refused?.toLowerCase() === header.toLowerCase()) {
      error(res, 401, 'a valid API key is required', extra);
      return false;
    }
    // A scheme, spaces (one alone, as the spec writes it, for a gap), and one token68 word:
    // "Bearer <key> x" carries no valid token.
    const words = (gap('one-space-after-scheme') ? /^(\S+) (\S*)$/ : /^(\S+) +(\S*)$/).exec(header);
    let scheme = words?.[1] ?? header;
    let token = words?.[2] ?? '';
    if (has('auth-ignores-words-after-key')) [scheme = '', token = ''] = header.split(/ +/);
    // A check of the header's prefix as the spec writes it: "bearer <key>" is no key to it.
    const schemeRule = gap('scheme-case-sensitive') ? /^Bearer$/ : /^bearer$/i;
    let ok = schemeRule.test(scheme) && token === apiKey;
    if (has('auth-accepts-prefixed-scheme') && /bearer$/i.test(scheme) && token === apiKey)
      ok = true;
    if (has('auth-refuses-with-cache-control') && req.headers['cache-control'] !== undefined) {
      ok = false;
    }
    if (has('auth-accepts-unknown-key') && /^bearer$/i.test(scheme) && token !== '') ok = true;
    if (has('auth-ignores-scheme') && token === apiKey) ok = true;
    if (has('auth-accepts-empty-token') && /^bearer\s*$/i.test(header)) ok = true;
    const bearer = /^bearer$/i.test(scheme);
    // Keys compared as UUIDs are, or in a column that ignores case: a key of its own rules.
    if (gap('key-case-insensitive') && bearer && token.toLowerCase() === apiKey.toLowerCase()) {
      ok = true;
    }
    if (has('auth-key-prefix-match') && bearer && token.startsWith(apiKey)) ok = true;
    // The key looked up with SQL's LIKE: `%` any characters, `_` any one.
    const likePattern = (pattern: string) =>
      new RegExp(
        `^${pattern
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/%/g, '.*')
          .replace(/_/g, '.')}$`,
        's',
      );
    if (has('auth-key-like-match') && bearer && token !== '' && likePattern(token).test(apiKey)) {
      ok = true;
    }
    // The key matched as a glob or a regular expression: `*` or `.*` matches any key.
    if (has('auth-accepts-pattern-key') && bearer && (token === '*' || token === '.*')) ok = true;
    // `header.replace('Bearer ', '')`: the key with no scheme is the key.
    if (has('auth-accepts-bare-key') && header === apiKey) ok = true;
    // Django REST framework's keyword for its token authentication.
    if (has('auth-accepts-token-scheme') && /^token$/i.test(scheme) && token === apiKey) ok = true;
    // Stripe's way: the key as the user name of Basic credentials.
    if (
      has('auth-accepts-basic-credentials') &&
      /^basic$/i.test(scheme) &&
      Buffer.from(token, 'base64').toString().split(':')[0] === apiKey
    ) {
      ok = true;
    }
    // The key as the password, the user name ignored (IBM Cloud's `apikey:<key>`).
    if (
      has('auth-accepts-basic-password') &&
      /^basic$/i.test(scheme) &&
      Buffer.from(token, 'base64')
        .toString()
        .replace(/^[^:]*:/, '') === apiKey
    ) {
      ok = true;
    }
    // A comparison whose loop stops one short, or starts one late: the length is still checked.
    const sameBut = (from: number, to: number) =>
      bearer && token.length === apiKey.length && token.slice(from, to) === apiKey.slice(from, to);
    if (has('auth-key-last-character-ignored') && sameBut(0, -1)) ok = true;
    if (has('auth-key-first-character-ignored') && sameBut(1, apiKey.length)) ok = true;
    const query = new URL(req.url ?? '/', 'http://fake').searchParams;
    // Takes ?api_key= in place of Authorization and never checks it.
    if (has('auth-accepts-key-in-query') && header === '' && query.get('api_key')) {
      ok = true;
    }
    // Takes the valid key from ?api_key= when no Authorization is sent.
    if (has('auth-accepts-real-key-in-query') && header === '' && query.get('api_key') === apiKey) {
      ok = true;
    }
    // Checks the scheme, then takes the header's last word for the key (`split(' ').pop()`).
    if (
      has('auth-takes-last-word') &&
      /^bearer /i.test(header) &&
      header.split(' ').pop() === apiKey
    ) {
      ok = true;
    }
    // Takes X-API-Key in place of Authorization and checks only that it is there.
    if (has('auth-accepts-key-in-header') && header === '' && req.headers['x-api-key']) ok = true;
    // Falls back on a token cookie (a browser session's) when no Authorization is sent.
    const cookie = /(?:^|;\s*)token=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
    if (has('auth-accepts-real-key-in-cookie') && header === '' && cookie === apiKey) ok = true;
    // Takes the valid key from Kong's key-auth field when no Authorization is sent.
    if (has('auth-accepts-real-key-in-header') && header === '' && req.headers.apikey === apiKey) {
      ok = true;
    }
    // A backend behind a gateway that reads the client's credential from the gateway's copy first.
    const forwarded = req.headers['x-forwarded-authorization'];
    if (
      has('auth-accepts-real-key-in-forwarded-authorization') &&
      forwarded === `Bearer ${apiKey}`
    ) {
      ok = true;
    }
    // Firebase's REST way: the key as ?auth=.
    if (
      has('auth-accepts-real-key-in-auth-query') &&
      header === '' &&
      query.get('auth') === apiKey
    ) {
      ok = true;
    }
    if (has('auth-accepts-key-prefix') && bearer && token !== '' && apiKey.startsWith(token)) {
      ok = true;
    }
    // A second route for filtered lists that checks a bearer token is there, not what it is.
    if (has('auth-any-token-with-status-filter') && query.has('status') && bearer && token) {
      ok = true;
    }
    // Looks ?api_key= up in its key store, and fails on a key it does not hold.
    if (has('auth-500-on-key-in-query') && header === '' && query.has('api_key')) {
      error(res, 500, 'no key record', extra);
      return false;
    }
    // passport's `session: true` behind express-session: a session the key opened serves alone.
    const sid = /(?:^|;\s*)sid=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
    if (has('auth-session-cookie') && header === '' && sid !== undefined && sessions.has(sid)) {
      ok = true;
    }
    if (ok && (has('auth-session-cookie') || gap('sets-affinity-cookie'))) {
      // A session opened for the key; a balancer's affinity cookie, which opens nothing.
      const id = randomBytes(12).toString('hex');
      if (has('auth-session-cookie')) sessions.add(id);
      res.setHeader('set-cookie', [
        `${has('auth-session-cookie') ? 'sid' : 'SERVERID'}=${id}; Path=/; HttpOnly`,
      ]);
    }
    if (ok) return true;
    lastRefused.set(req.socket, header);
    // Spring Security's HTTP Basic entry point offers Basic, though the API takes bearer keys.
    const challenge = gap('basic-challenge')
      ? 'Basic realm="Realm"'
      : 'Bearer realm="animal-store"';
    const headers = gap('no-www-authenticate')
      ? extra
      : { ...extra, 'www-authenticate': challenge };
    // cheroot's way: the connection is kept only while the server holds fewer than
    // CONNECTION_LIMIT others; beyond that it is closed, and the unread body with it.
    const closes =
      has('reads-unread-body-below-connection-limit') && open.size - 1 >= CONNECTION_LIMIT;
    // Helidon's way: a body refused unread on a connection the request asked to close is read
    // as the next request all the same (RFC 9112 §9.6 has the server process none).
    const afterClose =
      gap('answers-body-after-close') &&
      /(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? '');
    if (has('auth-error-body-malformed')) send(res, 401, { error: 'unauthorized' }, headers);
    else if (has('auth-answers-403'))
      send(res, 403, { code: 'forbidden', message: 'no', status: 403 }, headers);
    else if (closes)
      error(res, 401, 'a valid API key is required', { ...headers, connection: 'close' });
    else error(res, 401, 'a valid API key is required', headers);
    const readsBody =
      has('reads-unread-body-as-request') ||
      (has('reads-unread-body-below-connection-limit') && !closes) ||
      afterClose;
    if (readsBody && req.method === 'POST') {
      // What a server sends that reads the body it refused as the connection's next request.
      const garbage = 'Malformed Request-Line';
      res.socket?.write(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: ${garbage.length}\r\n\r\n${garbage}`,
      );
    }
    return false;
  }

  function listPets(url: URL, res: ServerResponse, extra: Record<string, string>) {
    let params = url.searchParams;
    if (has('list-query-not-percent-decoded')) {
      // A hand-written reader that splits the query at & and = and keeps each part as sent.
      params = new URLSearchParams(
        url.search
          .slice(1)
          .split('&')
          .filter((part) => part !== '')
          .map((part): [string, string] => {
            const at = part.indexOf('=');
            return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
          }),
      );
    }
    // A pattern matched against the query as sent, for one parameter alone.
    for (const name of ['status', 'limit'] as const) {
      if (!has(`list-${name}-read-as-sent`)) continue;
      params = new URLSearchParams(params);
      params.delete(name);
      const asSent = new RegExp(`(?:^|&)${name}=([^&]*)`).exec(url.search.slice(1))?.[1];
      if (asSent !== undefined) params.set(name, asSent);
    }
    if (has('list-query-keys-case-insensitive')) {
      // ASP.NET Core's model binding: a query parameter's name in any letter case.
      params = new URLSearchParams(
        [...params].map(([key, value]): [string, string] => [key.toLowerCase(), value]),
      );
    }
    if (has('list-reads-bracketed-limit')) {
      // Express 4's query parser (qs) reads limit[]=1 and limit[0]=1 as ['1'], and
      // Number(['1']) is 1.
      params = new URLSearchParams(
        [...params].map(([key, value]): [string, string] => [key.replace(/\[\d*\]$/, ''), value]),
      );
    }
    // Express 4's qs reads a parameter given twice as an array, which a handler that takes its
    // limit only as a string passes over: the store, given no limit, lists every pet.
    const unbounded = has('list-unbounded-on-repeated-limit') && params.getAll('limit').length > 1;
    if (unbounded) params.delete('limit');
    // Rack and PHP: of a parameter given twice, the last value.
    if (gap('repeated-parameter-last-wins'))
      params = new URLSearchParams(Object.fromEntries(params));
    // A reader that takes a parameter given twice as not given at all: the default limit applies.
    if (gap('repeated-parameter-ignored')) {
      for (const name of new Set(params.keys())) {
        if (params.getAll(name).length > 1) params.delete(name);
      }
    }
    // Python's `if limit.isdigit(): int(limit)`: a superscript digit passes the one, not the other.
    if (has('list-500-on-superscript-limit') && /^\p{No}+$/u.test(params.get('limit') ?? '')) {
      return error(res, 500, "invalid literal for int() with base 10: '²'", extra);
    }
    if (has('list-500-on-limit-0') && params.get('limit') === '0') {
      return error(res, 500, 'division by zero', extra);
    }
    if (has('list-400-on-limit-1') && params.get('limit') === '1') {
      return error(res, 400, 'limit must be at least 2', extra);
    }
    const checked = new URLSearchParams(params);
    // The limit a gap's own reading of the query gives, in place of the contract's.
    let limitRead: number | undefined;
    if (gap('serves-any-limit') && /^\d+$/.test(params.get('limit') ?? '')) checked.delete('limit');
    if (gap('clamps-limit') && params.has('limit')) {
      const raw = Number.parseInt(params.get('limit') ?? '', 10);
      limitRead = Number.isNaN(raw) ? LIMIT_DEFAULT : Math.min(LIMIT_MAX, Math.max(LIMIT_MIN, raw));
      checked.delete('limit');
    }
    // A Python handler's int(request.args.get("limit")) (the first of two), refusing what is out
    // of range.
    const pythonLimit = gap('python-int-limit') ? pythonInt(params.get('limit') ?? '') : undefined;
    if (pythonLimit !== undefined && pythonLimit >= LIMIT_MIN && pythonLimit <= LIMIT_MAX) {
      limitRead = pythonLimit;
      checked.delete('limit');
    }
    const rawStatus = params.get('status');
    if (has('list-500-on-other-case-status') && rawStatus !== null && /[A-Z]/.test(rawStatus)) {
      return error(res, 500, 'no such enum constant', extra);
    }
    if (gap('case-insensitive-status-filter') && rawStatus !== null) {
      checked.set('status', rawStatus.toLowerCase());
    }
    const unknownStatus = !PET_STATUSES.includes(params.get('status') as PetStatus);
    if (gap('unknown-status-filter-empty') && params.has('status') && unknownStatus) {
      return send(res, 200, [], extra);
    }
    // int64 cursors beyond 2^53 are read exactly, never through a double.
    let after: bigint | undefined;
    const rawAfter = checked.get('after');
    if (int64Ids && rawAfter !== null && /^\d{1,19}$/.test(rawAfter)) {
      after = BigInt(rawAfter);
      checked.delete('after');
    }
    const parsed = parseListPetsQuery(checked);
    if (!parsed.ok) return refuseQuery(res, describeDetails(parsed.details), extra);
    let limit = limitRead ?? parsed.value.limit;
    const status = parsed.value.status;
    if (parsed.value.after !== undefined) after = BigInt(parsed.value.after);
    if (has('list-default-limit-10') && !params.has('limit')) limit = 10;
    if (has('list-caps-at-50')) limit = Math.min(limit, 50);
    // A framework's page size cap left in place.
    if (has('list-caps-at-64')) limit = Math.min(limit, 64);
    if (has('list-limit-100-gives-99') && limit === LIMIT_MAX) limit = LIMIT_MAX - 1;
    if (has('list-ignores-limit-with-status') && status !== undefined) limit = LIMIT_MAX;
    if (has('list-status-filter-unbounded') && status !== undefined && !params.has('limit')) {
      limit = LIMIT_MAX;
    }
    if (gap('serves-any-limit') && /^\d+$/.test(params.get('limit') ?? '')) {
      limit = Number(params.get('limit'));
    }
    let items = [...pets.values()]
      .filter((p) => visible(p) !== undefined)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (gap('others-pets-descending')) items.reverse();
    // A store ranged over as Go ranges over a map: a new order each time, cut at the limit.
    if (gap('lists-in-map-order')) items = shuffled(items);
    // Paged before it is filtered: the filter sees only the first `limit` pets of the store.
    if (status !== undefined && has('list-filters-after-limit')) items = items.slice(0, limit);
    if (status !== undefined && !has('list-ignores-status-filter')) {
      const statusless = has('list-statusless-under-every-filter');
      const elsewhere = has('list-default-status-under-other-filter');
      items = items.filter((p) =>
        elsewhere && p.defaulted
          ? status === 'sold'
          : p.status === status || (statusless && p.status === undefined),
      );
      if (has('list-drops-newest-match')) items = items.slice(0, -1);
    }
    // Every other filter of the contract's list query keeps the pets whose field of its name
    // equals it: a filter the contract gains is served without a change here.
    for (const name of LIST_PETS_PARAMS) {
      const wanted = parsed.value[name];
      if (name === 'limit' || name === 'after' || name === 'status' || wanted === undefined)
        continue;
      items = items.filter((p) => String((p as Record<string, unknown>)[name]) === String(wanted));
    }
    if (after !== undefined) {
      const cursor = after;
      const descending = gap('others-pets-descending');
      items = items.filter((p) => (descending ? p.id < cursor : p.id > cursor));
    }
    const page = has('list-ignores-limit') || unbounded ? items : items.slice(0, limit);
    const headers = { ...extra };
    if (has('list-204-when-empty') && page.length === 0) {
      res.writeHead(204, headers);
      return res.end();
    }
    // Go's encoding/json writes a nil slice as null.
    if (has('list-null-when-empty') && page.length === 0) return send(res, 200, null, headers);
    const last = page.at(-1);
    const pageable = !gap('no-next-link') && !gap('lists-in-map-order');
    if (items.length > page.length && last !== undefined && pageable) {
      // The request's whole query (every parameter of the contract's), the cursor moved on: to
      // the page's last pet, or past every pet the query has (the next page is then empty).
      const cursor = gap('next-link-past-the-end') ? (items.at(-1) as StoredPet).id : last.id;
      const next = formatListPetsQuery({ ...parsed.value, limit, after: cursor });
      headers.link = `</v1/pets?${next}>; rel="next"`;
      // The query as the request gave it: the cursor left out, the same page again.
      if (gap('next-link-repeats-page')) headers.link = `</v1/pets${url.search}>; rel="next"`;
      // An absolute link to another origin, where nothing listens.
      if (gap('next-link-elsewhere'))
        headers.link = `<http://localhost:1/v1/pets?${next}>; rel="next"`;
    }
    let body: unknown[] = page.map((pet) => view(pet));
    if (has('list-category-id-beyond-int64')) {
      body = page.map((pet) => ({ ...view(pet), categoryId: pet.categoryId + 2n ** 64n }));
    }
    if (has('list-shows-name-trimmed')) {
      body = body.map((p) => ({
        ...(p as object),
        name: (p as { name: string }).name.slice(0, -1),
      }));
    }
    if (has('list-repeats-a-pet') && body.length > 1) body = [body[0], ...body.slice(0, -1)];
    if (has('list-status-wrong-type')) {
      body = body.map((p) => ({ ...(p as object), status: 1 }));
    }
    if (has('list-text-content-type')) {
      res.writeHead(200, { 'content-type': 'text/plain', ...headers });
      return res.end(stringify(body));
    }
    if (has('json-bom-on-lists')) {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      return res.end(`\ufeff${stringify(body)}`);
    }
    const wrapped = has('list-not-array') ? { items: body } : body;
    if (has('list-truncates-at-4k')) {
      // The answer copied through one read of a 4 KiB buffer.
      const cut = Buffer.from(stringify(wrapped)).subarray(0, 4096);
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      return res.end(cut);
    }
    send(res, has('list-wrong-success-status') ? 203 : 200, wrapped, headers);
  }

  type Parsed =
    | ({ ok: true; id?: bigint; echoedId?: unknown; categoryIdText?: string } & Omit<
        StoredPet,
        'id' | 'visibleAt'
      >)
    | { ok: false; fail: (res: ServerResponse, extra: Record<string, string>) => void };

  /** Reads a NewPet from the raw body, as the spec and the faults say. */
  function parseNewPet(received: string, req: IncomingMessage, utf8: boolean): Parsed {
    let raw = received;
    // A categoryId read through a double (8.0000000000000001 is 8), its text kept beside it
    // (JSON.parse's source text) and given back in the 201.
    const numberText = /"categoryId"\s*:\s*(-?[\d.]+)\s*[,}]/.exec(raw)?.[1];
    const categoryIdText = has('create-echoes-category-id-text') ? numberText : undefined;
    if (categoryIdText !== undefined && Number.isSafeInteger(Number(categoryIdText))) {
      raw = raw.replace(`:${categoryIdText}`, `:${Number(categoryIdText)}`);
    }
    const refuse = (status: ErrorStatus, message: string): Parsed => ({
      ok: false,
      fail: (res, extra) =>
        status === 400 && has('create-400-without-error-body')
          ? send(res, 400, undefined, extra)
          : error(res, status, message, extra),
    });
    const header = req.headers['content-type'] ?? '';
    // RFC 9110 §8.3.1: type and subtype are case-insensitive, parameters may follow.
    const contentType = header.split(';')[0]?.trim().toLowerCase();
    // Spring MVC's multipart resolver throws on a multipart Content-Type without its boundary.
    const unbounded = contentType === 'multipart/form-data' && !/;\s*boundary=/i.test(header);
    if (has('create-500-on-multipart-without-boundary') && unbounded) {
      return refuse(500, 'Failed to parse multipart servlet request');
    }
    const readsForms = gap('reads-form-bodies') || has('create-form-drops-status');
    if (contentType === 'application/x-www-form-urlencoded' && readsForms) {
      // Rails, Laravel and Django read a form into the same parameters as JSON.
      const form = Object.fromEntries(new URLSearchParams(raw));
      // A form handler that names the fields it reads, and forgot one.
      if (has('create-form-drops-status')) delete form.status;
      raw = JSON.stringify({ ...form, categoryId: Number(form.categoryId) });
    } else if (contentType !== 'application/json' && !gap('reads-any-media-type')) {
      // Express 5: no parser ran, so the handler reads the fields of an undefined body.
      if (has('create-500-without-json-body')) return refuse(500, 'cannot read name of undefined');
      if (gap('other-media-types-400')) return refuse(400, 'send application/json');
      return refuse(415, 'send application/json');
    }
    if (has('create-refuses-charset') && header.includes(';')) {
      return refuse(415, 'send application/json without parameters');
    }
    if (has('create-media-type-case-sensitive') && !header.startsWith('application/json')) {
      return refuse(415, 'send application/json');
    }
    // A recursive parser whose runtime dies when a body exhausts its stack (SBCL's, the second
    // time a worker thread's guard page is hit), or a server out of memory on a large body: no
    // answer, and nothing listens any more.
    if (
      (has('dies-on-deep-nesting') && nestingDepth(raw) >= 10_000) ||
      (has('dies-on-large-bodies') && Buffer.byteLength(raw) > 1024 * 1024)
    ) {
      dead = true;
      server.close();
      for (const socket of open) socket.destroy();
      return { ok: false, fail: () => {} };
    }
    if (Buffer.byteLength(raw) > BODY_LIMIT_BYTES && !gap('takes-large-bodies')) {
      return refuse(413, 'too large');
    }
    if (!utf8) {
      // Django's json.loads(request.body): a UnicodeDecodeError no JSONDecodeError handler catches.
      if (has('create-500-on-invalid-utf8')) return refuse(500, "'utf-8' codec can't decode");
      // Express and most stacks: each byte that is no UTF-8 read as U+FFFD.
      if (!gap('replaces-invalid-utf8')) return refuse(400, 'the body is not UTF-8');
    }
    // A parser's depth error answered as Unprocessable Content, as if the value were valid JSON
    // of the wrong shape.
    if (has('create-422-on-deep-nesting') && nestingDepth(raw) >= 1000) {
      return refuse(422, 'nesting too deep');
    }
    // CPython's json.loads past ~1,000 levels: a RecursionError, which handlers of ValueError
    // (Flask's get_json, DRF's JSONParser) do not catch.
    if (has('create-500-on-deep-nesting') && nestingDepth(raw) >= 1000) {
      return refuse(500, 'maximum recursion depth exceeded while decoding a JSON array');
    }
    // Hand-written parsers that know one spelling of JSON only.
    if (has('create-refuses-unicode-escapes') && /\\u[0-9a-fA-F]{4}/.test(raw)) {
      return refuse(400, 'unsupported escape');
    }
    if (has('create-refuses-escaped-slash') && raw.includes('\\/')) {
      return refuse(400, 'unsupported escape');
    }
    if (has('create-refuses-whitespace') && /[\t\r\n]/.test(raw)) {
      return refuse(400, 'unexpected character');
    }
    let body: Record<string, unknown>;
    try {
      // A JavaScript server parses with JSON.parse and validates the doubles it gets.
      const parse = gap('javascript-json') ? JSON.parse : parseJsonText;
      // Go's json.Decoder and Jackson's defaults: the first value, whatever follows it.
      const text = gap('reads-first-json-value') ? firstJsonValue(raw) : raw;
      body = parse(text) as Record<string, unknown>;
    } catch {
      // A lenient reader (RFC 8259 §9 lets a parser take extensions): comments, single quotes...
      const lenient = gap('reads-json5') ? json5Value(raw) : undefined;
      if (lenient !== undefined) body = lenient as Record<string, unknown>;
      else if (has('create-accepts-empty-body') && raw === '') {
        body = { name: 'empty', categoryId: 1 };
      }
      // A reader that trims the body and takes white space alone for a pet of defaults.
      else if (has('create-accepts-blank-body') && raw.trim() === '') {
        body = { name: 'blank', categoryId: 1 };
      } else if (has('create-500-on-malformed-json')) return refuse(500, 'parser crashed');
      else return refuse(400, 'the body is not JSON');
    }
    if (
      has('create-splits-surrogate-escapes') &&
      /\\u[dD][89abAB]/.test(raw) &&
      typeof body?.name === 'string'
    ) {
      // Each half of an escaped surrogate pair read as a character of its own.
      body.name = body.name.replace(/[\u{10000}-\u{10ffff}]/gu, '\ufffd\ufffd');
    }
    // PostgreSQL's text: `invalid byte sequence for encoding "UTF8": 0x00`.
    if (
      has('create-500-on-nul') &&
      typeof body?.name === 'string' &&
      body.name.includes('\u0000')
    ) {
      return refuse(500, 'invalid byte sequence for encoding "UTF8": 0x00');
    }
    if (typeof body?.name === 'string' && holdsUnpairedSurrogate(body.name)) {
      // Starlette's JSONResponse: json.loads kept the escape, and encoding the answer as UTF-8
      // raises UnicodeEncodeError.
      if (has('create-500-on-unpaired-surrogate')) {
        return refuse(500, "'utf-8' codec can't encode character '\\ud800'");
      }
      // Go's encoding/json: each surrogate without its pair read as U+FFFD.
      if (gap('replaces-unpaired-surrogates')) body.name = body.name.replace(/\p{Cs}/gu, '\ufffd');
    }
    if (has('create-unwraps-body') && Array.isArray(body)) body = body[0];
    // Rails' scaffold: `params.require(:pet)` takes the NewPet from a root member named pet.
    if (has('create-unwraps-root-member') && typeof (body as { pet?: unknown })?.pet === 'object') {
      body = (body as { pet: Record<string, unknown> }).pet;
    }
    if (has('create-unwraps-body') && typeof body === 'string') body = JSON.parse(body);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return refuse(400, 'not an object');
    }
    // A decoder that reads escapes and white space but the members in one order only.
    if (has('create-needs-name-first') && Object.keys(body)[0] !== 'name') {
      return refuse(400, 'name is required');
    }
    body = { ...body };
    if (has('create-keys-case-insensitive')) {
      // Go's encoding/json and System.Text.Json (case-insensitive): a member matches a field in
      // any letter case, and of two members that match one field, the last one wins.
      const read: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(body)) {
        const field = ['name', 'categoryId', 'status'].find(
          (name) => name.toLowerCase() === key.toLowerCase(),
        );
        read[field ?? key] = value;
      }
      body = read;
    }
    if (has('create-takes-snake-case-category-id')) {
      // A Pydantic alias or Jackson's @JsonAlias: category_id stands for a missing categoryId.
      body.categoryId ??= body.category_id;
      delete body.category_id;
    }
    if (has('create-reads-fields-from-query')) {
      // Laravel's $request->input(): the query string and the JSON body merged, the body first.
      const query = new URL(req.url ?? '/', 'http://fake').searchParams;
      for (const [key, value] of query) {
        body[key] ??= /^-?[0-9]+$/.test(value) ? Number(value) : value;
      }
    }
    if (has('create-unwraps-one-element-arrays')) {
      // Fastify's default validation (Ajv's coerceTypes: 'array'): [x] is x where x is wanted.
      for (const [key, value] of Object.entries(body)) {
        if (Array.isArray(value) && value.length === 1) body[key] = value[0];
      }
    }
    if (body.id !== undefined) {
      // An insert that passes the client's id on to the database, whose primary key refuses it.
      if (has('create-500-on-id-field')) return refuse(500, 'duplicate key in pets_pkey');
      // A framework's own answer to a field the model does not permit: a status, no body.
      if (has('create-refuses-id-without-error')) {
        return { ok: false, fail: (res, extra) => send(res, 400, undefined, extra) };
      }
      // An upsert by the id sent, run before the body is validated (which then refuses it).
      const existing =
        has('create-applies-id-before-validating') && Number.isSafeInteger(body.id)
          ? pets.get(BigInt(body.id as number))
          : undefined;
      if (existing !== undefined && typeof body.name === 'string') existing.name = body.name;
    }
    // The 201 body built as the stored pet with the request body spread over it.
    const echoedId = has('create-echoes-client-id') ? body.id : undefined;
    if (echoedId !== undefined) delete body.id;
    let id: bigint | undefined;
    if (has('create-takes-client-id') && Number.isSafeInteger(body.id)) {
      id = BigInt(body.id as number);
      delete body.id;
    }
    if (has('create-accepts-missing-name') && body.name === undefined) body.name = 'unnamed';
    if (has('create-accepts-missing-category-id') && body.categoryId === undefined) {
      body.categoryId = 1;
    }
    if (has('create-coerces-name-number') && typeof body.name === 'number') {
      body.name = String(body.name);
    }
    if (has('create-coerces-category-id-string') && typeof body.categoryId === 'string') {
      body.categoryId = Number(body.categoryId);
    }
    if (has('create-500-on-infinite-category-id') && !Number.isFinite(body.categoryId ?? 0)) {
      // Ruby's JSON reads 1e400 as Infinity, and Infinity.to_i raises FloatDomainError.
      return refuse(500, 'FloatDomainError: Infinity');
    }
    if (has('create-truncates-category-id') && typeof body.categoryId === 'number') {
      body.categoryId = Math.trunc(body.categoryId);
    }
    if (has('create-accepts-status-number') && typeof body.status === 'number') delete body.status;
    const index = typeof body.status === 'number' || typeof body.status === 'string';
    if (has('create-reads-status-by-index') && index && /^[0-9]+$/.test(`${body.status}`)) {
      // Jackson's enum reader (and System.Text.Json's for numbers): an index is the value there.
      body.status = PET_STATUSES[Number(body.status)] ?? body.status;
    }
    if (has('create-drops-unknown-status') && !PET_STATUSES.includes(body.status as PetStatus)) {
      delete body.status;
    }
    if (has('create-folds-status-case') && typeof body.status === 'string') {
      body.status = body.status.toLowerCase();
    }
    if (has('create-trims-status') && typeof body.status === 'string') {
      body.status = body.status.trim();
    }
    if (
      has('create-refuses-only-lost') &&
      typeof body.status === 'string' &&
      body.status !== 'lost' &&
      !PET_STATUSES.includes(body.status as PetStatus)
    ) {
      body.status = DEFAULT_PET_STATUS;
    }
    if (has('create-accepts-boolean-category-id') && typeof body.categoryId === 'boolean') {
      body.categoryId = body.categoryId ? 1 : 2;
    }
    if (has('create-accepts-null-name') && body.name === null) body.name = 'null';
    if (has('create-accepts-false-category-id') && body.categoryId === false) body.categoryId = 1;
    if (has('create-accepts-capitalised-status') && typeof body.status === 'string') {
      if (/^[A-Z][a-z]+$/.test(body.status)) body.status = body.status.toLowerCase();
    }
    if (has('create-empty-status-as-default') && body.status === '') delete body.status;
    if (
      has('create-500-on-control-chars') &&
      [...`${body.name}`].some((c) => c.charCodeAt(0) < 0x20)
    ) {
      return refuse(500, 'cannot index the name');
    }
    if (has('create-trims-names') && typeof body.name === 'string') body.name = body.name.trim();
    // Two words of a pet's lifecycle added to the enumeration, kept as sent.
    let lifecycle: string | undefined;
    if (
      has('create-accepts-lifecycle-status') &&
      ['reserved', 'adopted'].includes(`${body.status}`)
    ) {
      lifecycle = body.status as string;
      delete body.status;
    }
    if (gap('null-status-absent') && body.status === null) delete body.status;
    if (gap('ignores-unknown-fields')) {
      for (const key of Object.keys(body)) {
        if (!(key in SpecNewPet.properties)) delete body[key];
      }
    }
    // Beyond 2^53-1 the reference refuses; a lenient server keeps the digits; a JavaScript one
    // takes the double (an int64 check on a double: 2^63 - 1 is 2^63).
    let big: bigint | undefined;
    // Jackson's default for a primitive long: the empty string is 0, kept with no range check.
    if (has('create-reads-empty-category-id-as-0') && body.categoryId === '') big = 0n;
    if (typeof body.categoryId === 'number' && body.categoryId > ID_MAX) {
      const literal = /"categoryId"\s*:\s*(-?\d+)\s*[,}]/.exec(raw)?.[1];
      const int64 = literal !== undefined && BigInt(literal) < 2n ** 63n;
      if (gap('exact-big-category-ids') && int64) big = BigInt(literal);
      const unsigned = literal !== undefined && BigInt(literal) < 2n ** 64n;
      if (has('create-accepts-unsigned-category-id') && unsigned) big = BigInt(literal);
      if (has('create-category-id-as-int32') && int64) big = BigInt(literal);
      const double = body.categoryId;
      if (gap('javascript-json') && big === undefined && Number.isInteger(double)) {
        if (double <= 2 ** 63 - 1) big = BigInt(double);
      }
    }
    const double = typeof body.categoryId === 'number' ? body.categoryId : undefined;
    const beyondSafe = double !== undefined && Math.abs(double) > ID_MAX;
    if (gap('saturating-double-category-ids') && beyondSafe && Math.abs(double) <= 2 ** 63) {
      // A double, range-checked loosely and cast as Java's (long) and Rust's `as i64` do: 2^63
      // saturates to 2^63 - 1, which the 201 then shows digit for digit.
      big = double >= 2 ** 63 ? 2n ** 63n - 1n : BigInt(double);
    }
    if (gap('int64-exact-doubles-beyond') && beyondSafe) {
      // PHP's json_decode and serde_json: an integer within int64 read exactly, one beyond it as
      // a double, taken when that double is within int64 (-2^63 - 1 reads as -2^63).
      const literal = /"categoryId"\s*:\s*(-?\d+)\s*[,}]/.exec(raw)?.[1];
      const exact = literal === undefined ? undefined : BigInt(literal);
      if (exact !== undefined && exact >= -(2n ** 63n) && exact < 2n ** 63n) big = exact;
      else if (double >= -(2 ** 63) && double < 2 ** 63) big = BigInt(double);
    }
    if (has('create-int64-bound-off-by-one') && typeof body.categoryId === 'number') {
      // Numbers read exactly (Python's int, a BigInteger), bounded one past int64: `<= 2**63`.
      const literal = /"categoryId"\s*:\s*(-?\d+)\s*[,}]/.exec(raw)?.[1];
      const value = literal === undefined ? undefined : BigInt(literal);
      if (value !== undefined && value >= -(2n ** 63n) - 1n && value <= 2n ** 63n) big = value;
    }
    // A server that takes any name that is not blank, spaces around it too.
    const anyName =
      has('reads-names-without-trailing-spaces') &&
      typeof body.name === 'string' &&
      body.name.trim() !== ''
        ? body.name
        : undefined;
    // A model that checks no name's length, over a column that cuts it (below).
    const columnName =
      has('create-truncates-names-at-1000') && typeof body.name === 'string' && body.name !== ''
        ? body.name
        : undefined;
    // A model whose status has no default: required, as name and categoryId are.
    if (has('create-requires-status') && body.status === undefined) {
      return refuse(400, 'status is required');
    }
    const checked = validateNewPet({
      ...body,
      ...(big === undefined ? {} : { categoryId: 1 }),
      ...(anyName === undefined ? {} : { name: anyName.trim() }),
      ...(columnName === undefined ? {} : { name: 'a name of any length' }),
    });
    if (!checked.ok) return refuse(400, describeDetails(checked.details));
    if (has('create-500-walking-deep-bodies') && nestingDepth(raw) > 10_000) {
      // After validating, the body as sent walked by a recursive function (a sanitizer that
      // strips keys a store refuses): past some 10,000 levels it runs out of stack.
      return refuse(500, 'RangeError: Maximum call stack size exceeded');
    }
    const { categoryId, status } = checked.value;
    const name = anyName ?? columnName ?? checked.value.name;
    const known = (KNOWN_CATEGORY_IDS as readonly string[]).includes(String(big ?? categoryId));
    if (gap('known-categories-only') && !known) {
      return refuse(
        400,
        `no category ${big ?? categoryId}; known: ${KNOWN_CATEGORY_IDS.join(', ')}`,
      );
    }
    if (gap('short-names-only') && !/^[A-Za-z0-9]{1,16}$/.test(name)) {
      return refuse(400, 'a name is 1 to 16 letters or digits');
    }
    if (gap('letters-only-names') && !/^[A-Za-z]+$/.test(name)) {
      return refuse(400, 'a name holds letters only');
    }
    if (gap('names-up-to-64') && [...name].length > 64) {
      return refuse(400, 'a name has at most 64 characters');
    }
    if (gap('capitalised-names-only') && !/^[A-Z]/.test(name)) {
      return refuse(400, 'a name starts with a capital letter');
    }
    if (gap('refuses-empty-names') && name.trim() === '') {
      return refuse(400, 'a name is not blank');
    }
    if (gap('ascii-names-only') && !/^[\x20-\x7e]+$/.test(name)) {
      return refuse(400, 'a name is printable ASCII');
    }
    // The store is scanned for the name only where a rule reads it.
    const namesUnique =
      has('create-500-on-repeat') ||
      has('create-refuses-repeat-without-error') ||
      gap('unique-names') ||
      gap('unique-names-400');
    const repeated = namesUnique && [...pets.values()].some((p) => p.name === name);
    // A unique index on the name whose violation no handler catches.
    if (repeated && has('create-500-on-repeat')) return refuse(500, 'E11000 duplicate key: name_1');
    if (repeated && has('create-refuses-repeat-without-error')) {
      return { ok: false, fail: (res, extra) => send(res, 409, undefined, extra) };
    }
    if (gap('unique-names') && repeated) return refuse(409, `a pet named ${name} exists`);
    if (gap('unique-names-400') && repeated) return refuse(400, `a pet named ${name} exists`);
    let kept = has('create-alters-name') ? name.toUpperCase() : name;
    if (has('create-truncates-long-names')) kept = kept.slice(0, 16);
    // A VARCHAR(1000) column in a store that cuts what does not fit (MySQL outside strict mode).
    if (has('create-truncates-names-at-1000')) kept = kept.slice(0, 1000);
    // Input "sanitised" against HTML: the quote stored as an entity.
    if (has('create-html-escapes-names')) kept = kept.replaceAll('"', '&quot;');
    // Python's html.escape(name, quote=False), "sanitising" input against HTML.
    if (has('create-escapes-markup')) {
      kept = kept.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    }
    // The body read into a JToken (Json.NET): an ISO 8601 string is a date, and the string the
    // handler takes of it is the date written in the invariant culture's way.
    if (has('create-reads-date-names')) {
      const iso = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})Z$/.exec(kept);
      if (iso) kept = `${iso[2]}/${iso[3]}/${iso[1]} ${iso[4]}`;
    }
    // A store that types a value by its look (YAML's, SQLite's NUMERIC affinity): a name that
    // reads as a number is kept as that number, written back in its shortest form.
    if (has('create-reads-number-names') && /^-?\d+(\.\d+)?$/.test(kept)) {
      kept = String(Number(kept));
    }
    // The name spliced into an SQL string literal whose backslashes are escapes (MySQL's
    // default): a backslash and the letter after it are read as one character.
    if (has('create-reads-backslash-escapes')) {
      kept = kept.replace(/\\(.)/g, (_, c: string) => (c === 'b' ? '\b' : c));
    }
    // The body read as Latin-1 rather than UTF-8: every byte of a non-ASCII letter a character.
    if (has('create-reads-names-as-latin1')) kept = Buffer.from(kept, 'utf8').toString('latin1');
    let storedCategory = big ?? BigInt(categoryId);
    if (has('create-category-id-as-int32')) storedCategory = BigInt.asIntN(32, storedCategory);
    return {
      ok: true,
      name: kept,
      categoryId: storedCategory,
      status: has('create-ignores-status') ? undefined : ((lifecycle as PetStatus) ?? status),
      ...(id === undefined ? {} : { id }),
      ...(echoedId === undefined ? {} : { echoedId }),
      ...(categoryIdText === undefined ? {} : { categoryIdText }),
    };
  }

  function createPet(parsed: Parsed, res: ServerResponse, extra: Record<string, string>) {
    if (!parsed.ok) return parsed.fail(res, extra);
    const { ok: _, id, echoedId, categoryIdText, ...fields } = parsed;
    // Deduplication an ORM or a unique index brings: a body seen before answers its pet again.
    const same = [...pets.values()].find(
      (p) =>
        (has('create-replays-same-name') && p.name === fields.name) ||
        (has('create-replays-same-content') &&
          p.name === fields.name &&
          p.categoryId === fields.categoryId &&
          (fields.status === undefined || p.status === fields.status)),
    );
    if (same !== undefined) return send(res, 201, view(same, true), extra);
    const pet: StoredPet = { id: id ?? nextId, ...fields };
    if (pet.status === undefined && !gap('omits-status')) {
      pet.status = DEFAULT_PET_STATUS;
      pet.defaulted = true;
    }
    creations += 1;
    if (!has('create-reuses-ids') || creations % 2 === 0) nextId += gap('huge-ids') ? 7n : 1n;
    if (gap('lagging-reads')) pet.visibleAt = Date.now() + (options.readLagMs ?? READ_LAG_MS);
    // A store that drops one write in ten once it holds a thousand pets.
    const full = has('create-loses-writes-when-full') && pets.size >= 1000 && creations % 10 === 0;
    if (!has('create-not-persisted') && !full) {
      pets.set(pet.id, pet);
      stored += 1;
    }
    // `location-of-collection`: the collection the pet was added to, not the pet.
    const location = gap('location-of-collection') ? '/v1/pets' : `/v1/pets/${pet.id}`;
    const headers = gap('no-location') ? extra : { ...extra, location };
    // Post/Redirect/Get, as a web form's create answers: the new pet is read at its Location.
    if (has('create-see-other')) return res.writeHead(303, { ...extra, location }).end();
    const shown = echoedId === undefined ? view(pet, true) : { ...view(pet, true), id: echoedId };
    if (categoryIdText !== undefined) shown.categoryId = `__int:${categoryIdText}`;
    send(res, has('create-answers-200') ? 200 : 201, shown, headers);
  }

  function getPet(raw: string, res: ServerResponse, extra: Record<string, string>) {
    const integer = /^-?\d+$/.test(raw);
    if (gap('malformed-id-404') && !integer) return error(res, 404, 'no such pet', extra);
    if (gap('malformed-id-422') && !integer) {
      // FastAPI's status for a path parameter that fails validation, with an Error body.
      const body = { code: 'invalid_path', message: 'petId must be an integer', status: 422 };
      return send(res, 422, body, extra);
    }
    if (gap('beyond-int64-422') && integer && BigInt(raw) > 2n ** 63n - 1n) {
      // A bounded int path parameter (FastAPI's Path(le=2**63 - 1)): its validator's 422.
      const body = { code: 'invalid_path', message: 'petId is at most 2^63 - 1', status: 422 };
      return send(res, 422, body, extra);
    }
    if (has('get-500-on-non-integer') && !integer) {
      // A lookup that throws on an id it cannot cast (Mongoose's CastError), answered 500.
      return error(res, 500, 'Cast to Number failed', extra);
    }
    if (has('get-404-text-for-non-integer') && !integer) {
      // A route that takes digits only (`/pets/:id(\d+)`): its framework's plain-text 404.
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...extra });
      return res.end('Not Found');
    }
    if (has('get-reads-id-as-js-number') && Number.isSafeInteger(Number(raw))) {
      // JavaScript's Number: "0x1" and "1e0" are 1.
      const read = String(Number(raw));
      if (read !== raw) return getPet(read, res, extra);
    }
    if (has('get-reads-leading-zero-as-octal') && /^0\d+$/.test(raw)) {
      // A digits-only route, then Ruby's Integer (C's strtol with base 0): "010" is octal 8.
      if (!/^[0-7]+$/.test(raw))
        return error(res, 400, `invalid value for Integer(): ${raw}`, extra);
      return getPet(String(Number.parseInt(raw, 8)), res, extra);
    }
    if (has('get-reads-unicode-digits') && /^\p{Nd}+$/u.test(raw) && !/^\d+$/.test(raw)) {
      // Werkzeug's int converter (\d+, then int()) and Java's Long.parseLong: a digit of any
      // script is its value. Those the kit sends: Arabic-Indic and fullwidth.
      const read = raw.replace(/[\u0660-\u0669\uff10-\uff19]/g, (c) =>
        String((c.codePointAt(0) as number) & 0xf),
      );
      return getPet(String(BigInt(read)), res, extra);
    }
    if (has('get-trims-id') && raw.trim() !== raw) {
      // Spring's number reader (NumberUtils.parseNumber) takes all white space out first.
      return getPet(raw.trim(), res, extra);
    }
    if (gap('takes-off-segment-parameters') && raw.includes(';')) {
      // A servlet container (Tomcat, Jetty) takes `;` parameters off a path segment.
      return getPet(raw.slice(0, raw.indexOf(';')), res, extra);
    }
    if (has('get-reads-id-as-python-int') && /^\s*[+-]?\d+(_\d+)*\s*$/.test(raw)) {
      // Python's int: white space around, a sign, underscores between digits.
      const read = String(BigInt(raw.trim().replace(/_/g, '')));
      if (read !== raw) return getPet(read, res, extra);
    }
    if (has('get-reads-leading-digits') && /^\d+\D/.test(raw)) {
      // The id read as `parseInt` reads it: "1.5" is pet 1.
      return getPet(String(Number.parseInt(raw, 10)), res, extra);
    }
    let id: bigint;
    if (has('get-500-beyond-double') && /^\d{16,}$/.test(raw)) {
      return error(res, 500, 'id overflow', extra);
    }
    if (has('get-returns-a-pet-for-0') && raw === '0') {
      const first = pets.values().next().value;
      if (first !== undefined) return send(res, 200, view(first), extra);
    }
    if (int64Ids) {
      // int64 ids beyond 2^53: parsed exactly, never through a double.
      if (!/^\d{1,19}$/.test(raw)) return error(res, 400, 'petId must be an integer', extra);
      id = BigInt(raw);
      if (has('get-reads-id-as-double')) {
        // The id read through a double: the first pet whose id is that double.
        const double = Number(raw);
        id = [...pets.keys()].find((k) => Number(k) === double) ?? id;
      }
    } else {
      const parsed = parsePetId(raw);
      if (!parsed.ok) {
        if (has('get-500-on-malformed-id')) return error(res, 500, 'NaN', extra);
        return error(res, 400, describeDetails(parsed.details), extra);
      }
      id = BigInt(parsed.value);
    }
    let pet = visible(pets.get(id));
    if (has('get-returns-other-pet') && pet !== undefined) {
      pet = [...pets.values()].find((p) => p.id !== id) ?? pet;
    }
    if (pet !== undefined) {
      return send(res, has('get-wrong-success-status') ? 203 : 200, view(pet), extra);
    }
    if (has('get-404-as-html')) {
      res.writeHead(404, { 'content-type': 'text/html', ...extra });
      return res.end('<html><body><h1>Not Found</h1></body></html>');
    }
    if (has('get-404-status-mismatch')) {
      return send(res, 404, { code: 'not_found', message: 'no such pet', status: 400 }, extra);
    }
    if (has('get-404-status-as-string')) {
      return send(res, 404, { code: 'not_found', message: 'no such pet', status: '404' }, extra);
    }
    if (has('get-200-null-for-absent')) return send(res, 200, null, extra);
    if (has('get-400-for-absent')) return error(res, 400, 'no such pet', extra);
    // Asks whether the key may read the pet, and no key may read a pet that is not there.
    if (has('get-401-for-absent')) return error(res, 401, 'not allowed to read this pet', extra);
    // An answer about no pet need not announce the operation's deprecation.
    // An error handler of its own that sets the deprecation headers again, one of them wrong.
    const onError = has('sunset-wrong-on-404') ? { ...extra, sunset: WRONG_SUNSET } : extra;
    error(res, 404, `no pet ${id}`, gap('deprecation-only-on-found') ? {} : onError);
  }

  function deprecationHeaders(): Record<string, string> {
    if (gap('no-deprecation-headers')) return {};
    const headers: Record<string, string> = {
      deprecation: GET_PET_DEPRECATION_HEADERS.Deprecation,
      sunset: GET_PET_DEPRECATION_HEADERS.Sunset,
      link: GET_PET_DEPRECATION_HEADERS.Link,
    };
    if (has('sunset-wrong-date')) headers.sunset = WRONG_SUNSET;
    if (has('sunset-date-only-wrong-day')) headers.sunset = '2030-12-06';
    if (gap('sunset-iso-8601')) headers.sunset = '2030-12-05T00:00:00Z';
    if (gap('sunset-date-only')) headers.sunset = '2030-12-05';
    if (gap('sunset-central-europe')) headers.sunset = 'Wed, 04 Dec 2030 23:00:00 GMT';
    if (gap('deprecation-true')) headers.deprecation = 'true';
    if (gap('deprecation-after-sunset')) headers.deprecation = '@1924992000'; // 2031-01-01
    if (gap('deprecation-at-sunset')) {
      headers.deprecation = `@${Date.parse(GET_PET_DEPRECATION_HEADERS.Sunset) / 1000}`;
    }
    if (gap('sunset-unreadable')) headers.sunset = 'early December 2030';
    // White space around a field value, which RFC 9110 §5.5 leaves out of the value.
    if (gap('dates-with-white-space')) {
      headers.sunset = `${headers.sunset} `;
      headers.deprecation = `${headers.deprecation}\t`;
    }
    return headers;
  }

  /**
   * True when it refused a query parameter the operation does not have (`rejects-unknown-query-
   * parameters`: express-openapi-validator's default), with a 400 Error.
   */
  function unknownQuery(
    url: URL,
    allowed: readonly string[],
    res: ServerResponse,
    extra: Record<string, string>,
  ): boolean {
    if (!gap('rejects-unknown-query-parameters')) return false;
    const unknown = [...url.searchParams.keys()].find((key) => !allowed.includes(key));
    if (unknown === undefined) return false;
    refuseQuery(res, `unknown query parameter ${unknown}`, extra);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    let method = req.method ?? 'GET';
    // A router that matches the request target as written: one in absolute form (RFC 9112
    // §3.2.2) matches no route.
    if (gap('routes-target-as-written') && !req.url?.startsWith('/')) return noRoute(res, method);
    const path = `${url.pathname.replace(/^\/v1/, '')}${url.search}`;
    const large = Number(req.headers['content-length']) > 1024 * 1024;
    if (gap('closes-on-large-bodies') && !gap('takes-large-bodies') && large) {
      // A server that refuses a large body by closing the connection, as HTTP lets it.
      return req.socket.destroy();
    }
    const over64KiB = Number(req.headers['content-length']) > 65536;
    if (gap('closes-on-bodies-over-64-kib') && !gap('takes-large-bodies') && over64KiB) {
      // The same, with a lower limit: the deepest nested bodies too.
      return req.socket.destroy();
    }
    const chunks: Buffer[] = [];
    // Each piece as it comes: node:http gives a chunk of a chunked body, or what one read of the
    // socket held, as a `data` event of its own.
    let decodedApart = '';
    await new Promise<void>((resolve, reject) => {
      req.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        decodedApart += chunk.toString('utf8'); // `body += chunk`: a character cut in two is lost
      });
      req.on('end', resolve);
      req.on('error', reject);
    });
    const received = options.readsFirstBodyPiece
      ? (chunks[0] ?? Buffer.alloc(0))
      : Buffer.concat(chunks);
    const raw = has('decodes-body-pieces-apart') ? decodedApart : received.toString('utf8');
    const utf8 = isUtf8(received);
    requests.push({ method, path, body: raw });
    if (options.hang?.(method, path, received.length)) return; // never answers
    if (options.closeUnanswered?.(req)) return req.socket.destroy();
    if (method === 'POST') {
      // A POST that names another method, as Express's method-override reads it with each of its
      // getters (Rails' Rack::MethodOverride and Laravel's Symfony Request read several).
      const asked = [
        has('honours-method-override-header') ? req.headers['x-http-method-override'] : undefined,
        has('honours-method-override-query') ? url.searchParams.get('_method') : undefined,
        has('honours-method-override-body') ? bodyMember(raw, '_method') : undefined,
      ].find((m) => typeof m === 'string' && m !== '');
      if (typeof asked === 'string') method = asked.toUpperCase();
    }
    if (gap('body-limit-1-kib') && received.length > 1024) {
      return error(res, 413, 'a body is at most 1 KiB');
    }
    // Django's DATA_UPLOAD_MAX_MEMORY_SIZE, with a JSON handler400: a size limit answered 400.
    if (gap('body-limit-1-kib-400') && received.length > 1024) {
      return error(res, 400, 'the request could not be read');
    }
    if (has('html-413-from-proxy') && received.length > 1024 * 1024) {
      // nginx in front, as installed: client_max_body_size 1m, and its own HTML page.
      res.writeHead(413, { 'content-type': 'text/html' });
      return res.end('<html><head><title>413 Request Entity Too Large</title></head></html>');
    }
    if (rateLimited < (options.rateLimitFirst ?? 0) || options.alwaysRateLimit?.(method, path)) {
      rateLimited += 1;
      if (has('rate-limit-text-body')) {
        // A rate limiter in front of the app, with its own plain-text answer.
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' });
        return res.end('Too Many Requests');
      }
      return error(res, 429, 'slow down', { 'retry-after': '0' });
    }
    const down = options.unavailable;
    if (down !== undefined && (unavailable < (down.first ?? 0) || down.always?.(method, path))) {
      unavailable += 1;
      return error(
        res,
        503,
        'the database is unavailable',
        down.retryAfter === false ? {} : { 'retry-after': '0' },
      );
    }
    if (!/^\/v1\//i.test(url.pathname)) return noRoute(res, method);
    // nginx's `return 444` for a method it does not serve: the connection closes, unanswered.
    if (gap('drops-other-methods') && !['GET', 'HEAD', 'POST'].includes(method)) {
      return void req.socket.destroy();
    }
    // A front that closes the connection on a target in absolute form, or on a path with a `;`.
    if (gap('drops-odd-targets') && !/^\/[^;?]*(\?.*)?$/.test(req.url ?? '')) {
      return void req.socket.destroy();
    }
    if (gap('unknown-methods-501') && method !== 'GET' && method !== 'POST') {
      // Python's http.server: a method it has no handler for is one it does not implement.
      res.writeHead(501, { 'content-type': 'text/html;charset=utf-8' });
      return res.end(
        `<html><body><h1>Error response</h1><p>Unsupported method ('${method}')</p></body></html>`,
      );
    }
    if (req.headers['transfer-encoding'] !== undefined) {
      // A 400 as if the request had no body, as a server that looks for Content-Length alone sends.
      if (has('create-refuses-chunked')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ code: 'validation_failed', message: 'a body is required', status: 400 }),
        );
      }
      // HTTP's refusal of a body without Content-Length (RFC 9112 §6.3), before the key is read.
      if (gap('chunked-length-required')) {
        res.writeHead(411, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ code: 'length_required', message: 'send Content-Length', status: 411 }),
        );
      }
    }
    if (has('read-304-on-if-none-match') && method === 'GET' && req.headers['if-none-match']) {
      res.writeHead(304);
      return res.end();
    }
    if (
      has('html-for-browsers') &&
      method === 'GET' &&
      /^text\/html/.test(`${req.headers.accept}`)
    ) {
      // Django REST framework's browsable API: HTML to a client that puts text/html first.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!DOCTYPE html><html><body><h1>Pet List</h1><pre>[]</pre></body></html>');
    }
    const read = method === 'GET' && /^\/v1\/pets(\/\d+)?$/.test(url.pathname);
    // Spring with jackson-dataformat-xml on the class path: XML to a client that asks for it.
    if (has('answers-xml-when-asked') && read && /application\/xml/.test(`${req.headers.accept}`)) {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end('<List><item><id>1</id></item></List>');
    }
    // Django REST framework's URL_FORMAT_OVERRIDE: the renderer the format parameter names.
    if (has('answers-format-param') && read && url.searchParams.get('format') === 'xml') {
      res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
      return res.end('<?xml version="1.0"?><root></root>');
    }
    // Express's res.jsonp: the list wrapped in a call of the callback named.
    if (has('answers-jsonp') && read && url.searchParams.has('callback')) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return res.end(`/**/ typeof cb === 'function' && ${url.searchParams.get('callback')}([]);`);
    }
    // A base in another letter case (/V1) is a spelling of the path too: no route as written.
    const recasedBase = !url.pathname.startsWith('/v1/');
    const below = url.pathname.slice('/v1'.length);
    let route = recasedBase ? url.pathname : below;
    // Another spelling of a path: a trailing or doubled slash, another letter case; a letter
    // percent-encoded and a segment parameter too behind a router on the decoded path.
    const decoded = has('auth-guard-on-raw-target')
      ? safeDecode(below.replace(/;[^/]*/g, ''))
      : below;
    const canonical = decoded
      .replace(/\/{2,}/g, '/')
      .replace(/(.)\/$/, '$1')
      .replace(/^\/pets\.json$/i, '/pets')
      .toLowerCase();
    let skipAuth =
      (has('auth-skipped-with-status-filter') &&
        method === 'GET' &&
        url.searchParams.has('status')) ||
      (has('auth-skipped-on-chunked-create') && req.headers['transfer-encoding'] !== undefined) ||
      (gap('head-skips-auth') && method === 'HEAD');
    // A guard that looks only at targets starting with `/` (origin form), before a router that
    // reads the path of any.
    if (has('auth-skipped-on-absolute-form') && !(req.url ?? '').startsWith('/')) skipAuth = true;
    if (canonical !== route && /^\/pets(\/\d+)?$/.test(canonical)) {
      // A security rule that matches the canonical path alone, behind a router that folds
      // spellings (Spring Security's antMatchers before Spring MVC's trailing-slash match).
      // Or a gateway that sends requests without Authorization there to a public backend
      // (those with it reach the API, whose routes are exact).
      const unguarded =
        (has('auth-skipped-on-path-spellings') && method === 'GET') ||
        // Spring MVC's suffix match serves /pets.json as /pets; a security rule on /pets does not.
        (has('auth-skipped-on-format-suffix') && method === 'GET' && route.endsWith('.json')) ||
        (has('auth-skipped-on-create-spellings') && method === 'POST') ||
        (has('auth-public-spellings-without-header') && req.headers.authorization === undefined) ||
        // nginx guards `location /v1/` (its match has case), the app behind it routes case-blind.
        (has('auth-skipped-on-recased-base') && recasedBase) ||
        // A guard on the target as sent (Go's RequestURI, a servlet filter on getRequestURI), in
        // front of a router on the decoded path without its segment parameters.
        (has('auth-guard-on-raw-target') && /[%;]/.test(below));
      if (unguarded) {
        route = canonical;
        skipAuth = true;
      } else if (has('auth-any-token-on-path-spellings')) {
        // A second route there that checks a bearer token is there, not what it is.
        route = canonical;
        skipAuth = /^bearer +\S/i.test(req.headers.authorization ?? '');
      } else if (
        (method === 'GET' &&
          ((has('auth-spellings-anonymous-list') && canonical === '/pets') ||
            (has('auth-spellings-forbidden') && canonical !== '/pets'))) ||
        (method === 'POST' && has('auth-create-spellings-forbidden'))
      ) {
        // The same resource, where a keyless caller is an anonymous user: it sees an empty
        // list; a pet, or creating one, is forbidden to it.
        route = canonical;
        if (!hasValidKey(req)) {
          if (method === 'GET' && canonical === '/pets') return send(res, 200, []);
          return send(res, 403, { code: 'forbidden', message: 'anonymous', status: 403 });
        }
      } else if (gap('path-spellings-redirect')) {
        res.writeHead(308, { location: `/v1${canonical}${url.search}` });
        return res.end();
      } else if (gap('path-spellings-same-resource')) {
        route = canonical;
      } else if (gap('path-spellings-404-text')) {
        // A router that matches paths exactly, with its framework's plain-text 404.
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('404 page not found\n');
      }
    }
    const petMatch = /^\/pets\/([^/]+)$/.exec(route);
    if (route === '/pets') {
      const extra: Record<string, string> = gap('deprecation-on-list')
        ? { deprecation: GET_PET_DEPRECATION_HEADERS.Deprecation }
        : {};
      // A guard that lets CORS preflights through, before a handler that ignores the method.
      if (method === 'OPTIONS' && has('options-serves-without-key')) {
        return listPets(url, res, extra);
      }
      if (method === 'GET' || method === 'HEAD') {
        if (method === 'HEAD' && gap('head-405')) return headRefused(res, 'GET, POST', extra);
        if (!has('auth-skipped-on-list') && !skipAuth && !authenticate(req, res, extra)) return;
        if (unknownQuery(url, ['limit', 'status', 'after'], res, extra)) return;
        return listPets(url, res, extra);
      }
      if (method === 'POST') {
        // A server may validate before it authenticates: the kit sends valid bodies to test auth.
        // A validator that takes a repeated status's first value, a store that takes its last.
        let validated = raw;
        let storedStatus: string | undefined;
        const statuses = [...raw.matchAll(/,"status":"[a-z]*"/g)];
        const last = statuses.at(-1);
        if (has('create-validates-first-stores-last') && statuses.length > 1 && last) {
          storedStatus = (JSON.parse(`{${last[0].slice(1)}}`) as { status: string }).status;
          validated = raw.slice(0, last.index) + raw.slice(last.index + last[0].length);
        }
        const parsed = parseNewPet(validated, req, utf8);
        if (parsed.ok && storedStatus !== undefined)
          parsed.status = storedStatus as StoredPet['status'];
        if (gap('validates-before-auth') && !parsed.ok) return parsed.fail(res, extra);
        // passport-http-bearer: the body's access_token when no Authorization is sent.
        const keyInBody =
          has('auth-accepts-real-key-in-body') &&
          req.headers.authorization === undefined &&
          bodyMember(raw, 'access_token') === apiKey;
        if (has('create-stores-then-checks-key') && parsed.ok && !hasValidKey(req)) {
          // Koa middleware that checks the key after `await next()`: the handler stored the pet.
          createPet(parsed, new ServerResponse(req), extra);
        }
        if (
          !has('auth-skipped-on-create') &&
          !skipAuth &&
          !keyInBody &&
          !authenticate(req, res, extra)
        )
          return;
        if (unknownQuery(url, [], res, extra)) return;
        return createPet(parsed, res, extra);
      }
      return error(res, 405, 'use GET or POST', { allow: 'GET, POST' });
    }
    if (petMatch) {
      const extra = deprecationHeaders();
      if (method === 'HEAD' && gap('head-405')) return headRefused(res, 'GET', extra);
      // Scaffolded update and delete routes that the auth rule, written for the spec's, misses.
      const stored = /^[1-9]\d*$/.test(petMatch[1] ?? '')
        ? pets.get(BigInt(petMatch[1] ?? ''))
        : undefined;
      if (has('deletes-without-key') && method === 'DELETE' && stored !== undefined) {
        pets.delete(stored.id);
        res.writeHead(204);
        return res.end();
      }
      // A PUT that checks its body's types, but not the key.
      if (has('puts-without-key') && method === 'PUT' && stored !== undefined) {
        const { name, categoryId } = JSON.parse(raw || '{}') as Record<string, unknown>;
        if (typeof name !== 'string' || typeof categoryId !== 'number') {
          return error(res, 400, 'name and categoryId are required', extra);
        }
        stored.name = name;
        res.writeHead(204);
        return res.end();
      }
      if (has('patches-without-key') && method === 'PATCH' && stored !== undefined) {
        const { name } = JSON.parse(raw || '{}') as { name?: unknown };
        if (typeof name === 'string') stored.name = name;
        res.writeHead(204);
        return res.end();
      }
      if (method !== 'GET' && method !== 'HEAD') {
        return error(res, 405, 'use GET', { ...extra, allow: 'GET' });
      }
      // A route that loads the pet, then asks for the key: no such pet is a 404 to anyone.
      const asked = petMatch[1] ?? '';
      if (gap('looks-up-before-auth') && /^[1-9]\d*$/.test(asked) && !pets.has(BigInt(asked))) {
        return error(res, 404, 'no pet has that id', extra);
      }
      if (!has('auth-skipped-on-get') && !skipAuth && !authenticate(req, res, extra)) return;
      if (unknownQuery(url, [], res, extra)) return;
      // Malformed percent-encoding (`%zz`) decodes to no id: the segment as sent, which none is.
      let petId = petMatch[1] ?? '';
      // Bottle decodes the path as UTF-8 and drops what it cannot read: `1%FF` is `1`.
      if (has('get-path-drops-bytes-not-utf8')) {
        const bytes = Buffer.from(unescape(petId), 'latin1');
        petId = new TextDecoder().decode(bytes).replaceAll('\uFFFD', '');
      }
      try {
        petId = decodeURIComponent(petId);
      } catch {}
      // Rails' `/pets/:id(.:format)`: a format suffix is no part of the id.
      if (gap('format-suffix-ids')) petId = petId.replace(/\.json$/, '');
      // An int32 id column: the id read wraps at 2^32.
      if (has('get-id-as-int32') && /^\d+$/.test(petId)) {
        petId = String(BigInt.asIntN(32, BigInt(petId)));
      }
      // A hand-written int64 reader that wraps on overflow.
      if (has('get-id-wraps-int64') && /^\d+$/.test(petId)) {
        petId = String(BigInt.asIntN(64, BigInt(petId)));
      }
      return getPet(petId, res, extra);
    }
    noRoute(res, method);
  }

  /** A HEAD refused as a method the route lacks, as routers that add no HEAD to a GET do. */
  function headRefused(res: ServerResponse, allow: string, extra: Record<string, string>) {
    error(res, 405, `use ${allow}`, { ...extra, allow });
  }

  /** The answer to a path that is no route: 404, or a single-page app's page to a GET. */
  function noRoute(res: ServerResponse, method: string) {
    if (gap('spa-fallback') && method === 'GET') {
      // A static host's fallback for client-side routes: the app's index.html, 200.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!DOCTYPE html><html><body><div id="app"></div></body></html>');
    }
    error(res, 404, 'no such route');
  }

  /** The connection of the last request served, and every connection that has served one. */
  let lastServed: Socket | undefined;
  const served = new WeakSet<Socket>();
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    // A server whose idle timeout ends just as a request comes closes the connection unanswered
    // (RFC 9112 §9.5): here, a kept-alive connection that sat idle while others were served.
    if (gap('closes-idle-connections') && served.has(req.socket) && lastServed !== req.socket) {
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    lastServed = req.socket;
    if (gap('head-with-body') && req.method === 'HEAD') {
      // A server that writes a body after HEAD's head, which node:http leaves out: a client
      // reads it as the start of its next answer on the connection.
      res.once('finish', () => req.socket.write('{"code":"head","message":"a body","status":200}'));
    }
    handle(req, res).catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    });
  };
  const server = options.tls ? createTlsServer(options.tls, serve) : createServer(serve);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('end', () => open.delete(socket));
    socket.once('close', () => open.delete(socket));
  });
  // A server (or a proxy in front) that meets no expectation: 417 to Expect: 100-continue.
  if (has('expect-417')) {
    server.on('checkContinue', (_req: IncomingMessage, res: ServerResponse) =>
      send(res, 417, { code: 'expectation_failed', message: 'no expectation is met', status: 417 }),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    created: () => stored,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        if (dead) resolve();
        else server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/** `text` read as JSON5, or undefined when it is none. */
function json5Value(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return undefined;
  }
}

/** The text of the first object or array in `raw`, up to its closing bracket. */
function firstJsonValue(raw: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if ((c === '}' || c === ']') && --depth === 0) return raw.slice(0, i + 1);
  }
  return raw;
}

/**
 * A base URL on 127.0.0.1 where nothing listens: the first port from 2 up that refuses a
 * connection (port 1 is one fetch refuses to use). A port a test server held and closed could be
 * taken by the next server any test starts, which would then answer; the kernel gives a server
 * that asks for any port one from its ephemeral range (from 32768 by default), and no test listens
 * on a fixed port, so none takes this one.
 */
export async function closedBaseUrl(): Promise<string> {
  for (let port = 2; port < 1024; port++) {
    if (await refuses(port)) return `http://127.0.0.1:${port}/v1`;
  }
  throw new Error('no port below 1024 on 127.0.0.1 refuses connections');
}

/** Whether a connection to `port` on 127.0.0.1 is refused (nothing listens there). */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * `text` as Python's `int` reads it, undefined where it raises: white space around it, a sign,
 * an underscore between digits, and the decimal digits of any script (here ASCII, Arabic-Indic
 * and fullwidth ones).
 */
function pythonInt(text: string): number | undefined {
  const digits = text
    .trim()
    .replace(/[\u0660-\u0669\uff10-\uff19]/g, (digit) =>
      String((digit.codePointAt(0) as number) % 16),
    );
  return /^[+-]?\d+(_\d+)*$/.test(digits) ? Number(digits.replaceAll('_', '')) : undefined;
}

/** `items` in a random order (Fisher–Yates), as ranging over a Go map gives them. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
