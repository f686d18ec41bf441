// Oracles: rules every answer the kit receives is held to, whichever check sent the request.
// Each judges one answer at a time (the pet model judges an answer against the ones before it);
// the `errors` group reports each oracle once, with the first answer that broke it.
import {
  describeDetails,
  type ErrorDetail,
  holdsUnpairedSurrogate,
  LIMIT_DEFAULT,
  PET_STATUSES,
  repeatedMemberName,
  validateSpecErrorBody,
  validateSpecPet,
} from '@animal-store/contract';
import { type HttpRequest, type HttpResponse, writtenOnlyRaw } from './http/client.js';
import { integerText, numberText, parseJson } from './http/json.js';
import { plainLimit } from './list-limit.js';

/** The operation an answer belongs to, from its URL. */
export type Route =
  | { readonly op: 'listPets'; readonly query: URLSearchParams }
  | { readonly op: 'createPet' }
  | { readonly op: 'getPet'; readonly petId: string }
  | { readonly op: 'other' };

/** A path segment percent-decoded, or as sent when its percent-encoding is malformed (`%zz`). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** True for a success (2xx) to a request that carried `Authorization`, whatever its value. */
export function isKeyedSuccess(res: HttpResponse): boolean {
  return res.request.authorization !== null && res.status >= 200 && res.status <= 299;
}

/**
 * True when an `Accept` value (undefined: none) takes JSON: a media range of a q above 0 that
 * `application/json` matches, or a `+json` type (RFC 9110 §12.5.1; no `Accept` takes any type).
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = parameters.find((p) => /^q\s*=/.test(p));
    if (q !== undefined && !(Number(q.replace(/^q\s*=\s*/, '')) > 0)) return false;
    return ['*/*', 'application/*', 'application/json'].includes(type) || type.endsWith('+json');
  });
}

/**
 * True for a request whose `Accept` takes no JSON: it asks for what the spec does not give, and
 * a refusal in JSON is what its client said it cannot read, so it is no request of the spec's
 * operations; `listPets.json-whatever-asked` judges its answer alone.
 */
function asksOtherThanJson(request: HttpRequest): boolean {
  const accept = Object.entries(request.headers ?? {}).find(([name]) => /^accept$/i.test(name));
  return !acceptsJson(accept?.[1]);
}

/**
 * True for a request sent in a way HTTP allows and clients seldom use: pipelined, or written as
 * only a raw connection writes it (absolute form, a chunked framing, white space as given).
 */
function sentAsHttpAllows(request: HttpRequest): boolean {
  return request.pipelined === true || writtenOnlyRaw(request);
}
/** Which of the spec's operations `res` answers. */
export function routeOf(res: HttpResponse): Route {
  let url: URL;
  try {
    url = new URL(res.url);
  } catch {
    return { op: 'other' };
  }
  // Another spelling of a path (`/pets/`, `//pets`, `/PETS`, `/V1/pets`) is no operation of the
  // spec: the auth checks probe such spellings, and judge those answers themselves.
  if (url.pathname.includes('//') || res.request.pathSpelling === true) return { op: 'other' };
  // Nor is a request sent in a way the spec says nothing of: its check judges it against the same
  // request sent plainly, and a server that gets HTTP wrong there still conforms to the spec.
  if (sentAsHttpAllows(res.request)) return { op: 'other' };
  if (asksOtherThanJson(res.request)) return { op: 'other' };
  const item = /\/pets\/([^/]+)$/.exec(url.pathname);
  if (res.method === 'GET' && item) {
    return { op: 'getPet', petId: decodedSegment(item[1] as string) };
  }
  if (!url.pathname.endsWith('/pets')) return { op: 'other' };
  if (res.method === 'GET') return { op: 'listPets', query: url.searchParams };
  return res.method === 'POST' ? { op: 'createPet' } : { op: 'other' };
}

/** True for `application/json` and `application/<something>+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[\w.-]+\+json$/.test(mediaType);
}

const BOM = [0xef, 0xbb, 0xbf];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Why a body is not strict RFC 8259 JSON, or undefined: UTF-8 (§8.1), no byte-order mark (§8.1:
 * implementations must not add one), and the grammar (§2-§7: no unescaped control character in
 * a string, no trailing comma, no NaN), which `JSON.parse` implements exactly.
 */
export function strictJsonProblem(bytes: Uint8Array): string | undefined {
  if (BOM.every((b, i) => bytes[i] === b)) return 'the body starts with a byte-order mark';
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return 'the body is not UTF-8';
  }
  try {
    JSON.parse(text);
  } catch (error) {
    return `the body is not strict JSON (${(error as Error).message})`;
  }
  return undefined;
}

const INT64_LIMIT = 2 ** 63;
/** The int64 bounds, which ids and categoryIds lie within. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Whether `value` lies within int64. */
export const isInt64 = (value: bigint): boolean => value >= INT64_MIN && value <= INT64_MAX;

/** True for text that is an int64 written in decimal (`7`, `-1`, `007`), as a petId is. */
export const isInt64Text = (text: string): boolean =>
  /^-?\d{1,19}$/.test(text) && isInt64(BigInt(text));

/**
 * Why an id is outside int64, read digit for digit from its JSON text, or undefined: the service
 * assigns ids, so no id it gives may lie outside int64, however a client holds numbers.
 */
function idProblem(object: unknown): string | undefined {
  const exact = integerText(object, 'id');
  if (exact === undefined) return undefined;
  return isInt64(BigInt(exact)) ? undefined : `id ${exact} is outside int64`;
}

/**
 * Why a categoryId is outside int64 as a client holding numbers as doubles sees it (RFC 8259
 * §6), or undefined: the categoryId a Pet shows is the one a client sent, which such a client
 * cannot tell from its neighbours, so 2^63 - 1 and 2^63, one double, are not told apart.
 */
function categoryIdProblem(object: unknown): string | undefined {
  const key = 'categoryId';
  const literal = numberText(object, key);
  const value = literal === undefined ? (object as Record<string, unknown>)[key] : Number(literal);
  if (typeof value !== 'number') return undefined;
  if (value > INT64_LIMIT || value < -INT64_LIMIT) {
    return `${key} ${literal ?? value} is outside int64`;
  }
  return undefined;
}

/** The first few validation problems as one sentence, so a reason stays on one line. */
export function brief(details: readonly ErrorDetail[]): string {
  const shown = describeDetails(details.slice(0, 3));
  return details.length > 3 ? `${shown}; and ${details.length - 3} more` : shown;
}

/** Why `value` is not a Pet of the spec (types, int64 ranges), or undefined. */
export function petProblem(value: unknown): string | undefined {
  const checked = validateSpecPet(value);
  if (!checked.ok) return `not a valid Pet: ${brief(checked.details)}`;
  return idProblem(value) ?? categoryIdProblem(value);
}

/** Why the body is not JSON with a JSON Content-Type, or undefined. */
export function notJsonReason(res: HttpResponse): string | undefined {
  if (!isJsonMediaType(res.mediaType)) {
    return `Content-Type is ${res.mediaType === '' ? 'missing' : `"${res.mediaType}"`}, not application/json`;
  }
  return res.jsonError;
}

/** One rule every answer is held to. */
export interface Oracle {
  /** The id of the check that reports it. */
  readonly id: string;
  readonly title: string;
  readonly section: string;
  /** What a `should` oracle rests on besides the spec; an oracle with none is a `must`. */
  readonly rule?: string;
  /** Why `res` breaks the rule, or undefined (also when the rule says nothing of `res`). */
  judge(res: HttpResponse): string | undefined;
}

/** Why the Pets `res` carries (a 2xx of createPet or getPet, a 200 of listPets) are no Pets. */
function petsProblem(res: HttpResponse): string | undefined {
  const route = routeOf(res);
  const success =
    route.op === 'createPet' ? res.status >= 200 && res.status <= 299 : res.status === 200;
  if (route.op === 'other' || !success) return undefined;
  const notJson = notJsonReason(res);
  if (notJson !== undefined) return notJson;
  if (route.op === 'listPets') {
    if (!Array.isArray(res.body)) return 'the body is not a JSON array of Pets';
    for (const [i, item] of res.body.entries()) {
      const problem = petProblem(item);
      if (problem !== undefined) return `item ${i}: ${problem}`;
    }
    return undefined;
  }
  const problem = petProblem(res.body);
  if (problem !== undefined) return problem;
  if (route.op === 'getPet' && /^[1-9]\d*$/.test(route.petId)) {
    const id = integerText(res.body, 'id');
    // Digit for digit: two int64 ids beyond 2^53 may be one double.
    if (id !== route.petId) return `it is pet ${id}`;
  }
  return undefined;
}

/**
 * The integers of an answer's Pets (id, categoryId) and of its Error (status), each with where it
 * is and the literal it was written as: what a client reads into an integer type.
 */
function writtenIntegers(res: HttpResponse): { where: string; key: string; literal: string }[] {
  const route = routeOf(res);
  if (route.op === 'other' || notJsonReason(res) !== undefined) return [];
  const found: { where: string; key: string; literal: string }[] = [];
  const read = (object: unknown, where: string, keys: readonly string[]) => {
    for (const key of keys) {
      const literal = numberText(object, key);
      if (literal !== undefined) found.push({ where, key, literal });
    }
  };
  if (res.status >= 400) read(res.body, 'the Error', ['status']);
  else if (res.status >= 200 && res.status <= 299) {
    const pets = Array.isArray(res.body) ? res.body : [res.body];
    for (const [i, pet] of pets.entries()) {
      read(pet, Array.isArray(res.body) ? `item ${i}` : 'the Pet', ['id', 'categoryId']);
    }
  }
  return found;
}

/** The Error an operation's JSON error answer carries, or undefined when it carries none. */
function errorOf(res: HttpResponse): { code: string; message: string; status: number } | undefined {
  if (res.status < 400 || notJsonReason(res) !== undefined) return undefined;
  if (routeOf(res).op === 'other' || !validateSpecErrorBody(res.body).ok) return undefined;
  return res.body as { code: string; message: string; status: number };
}

/** Oracles that judge each answer alone. */
export const ANSWER_ORACLES: readonly Oracle[] = [
  {
    id: 'errors.strict-json',
    title:
      'every body with a JSON Content-Type is strict RFC 8259 JSON: UTF-8, no byte-order mark, no unescaped control character',
    section: '§1',
    judge: (res) =>
      isJsonMediaType(res.mediaType) && res.bytes !== undefined && res.bytes.length > 0
        ? strictJsonProblem(res.bytes)
        : undefined,
  },
  {
    id: 'errors.pet-fields',
    title:
      'every Pet received (createPet, getPet, each list item) has each spec field of its type, integers within int64',
    section: '§2, §4',
    judge: petsProblem,
  },
  {
    id: 'errors.integers-written-plainly',
    title:
      'every integer of a Pet (id, categoryId) and of an Error (status) is written as one: no fraction, no exponent (7, not 7.0 or 7e0)',
    section: '§2',
    rule: "RFC 8259 §6 lets JSON write an integer with a fraction or an exponent, but int64 readers refuse it (Go's encoding/json, Rust's serde_json)",
    judge: (res) => {
      const odd = writtenIntegers(res).find(({ literal }) => /[.eE]/.test(literal));
      return odd === undefined
        ? undefined
        : `${odd.where} writes ${odd.key} as ${odd.literal}, which an int64 reader refuses`;
    },
  },
  {
    id: 'errors.unique-member-names',
    title:
      'no JSON answer of an operation names a member of an object twice ({"categoryId":"1","categoryId":1}): a client may read either value, or refuse the body',
    section: '§1, §2',
    rule: 'RFC 8259 §4: the names within an object should be unique; receivers differ on which of two wins (JSON.parse and Jackson the last), and some refuse the body (serde_json into a struct)',
    judge: (res) => {
      if (routeOf(res).op === 'other' || notJsonReason(res) !== undefined) return undefined;
      const pointer = repeatedMemberName(res.text, res.body);
      return pointer === undefined
        ? undefined
        : `the body names the member ${pointer} twice: which value a client reads depends on its JSON parser`;
    },
  },
  {
    id: 'errors.json-charset',
    title:
      'a JSON answer names no charset but UTF-8 (JSON is UTF-8; a client that honours charset=ISO-8859-1 reads its letters beyond ASCII wrong)',
    section: '§1',
    rule: 'RFC 8259 §8.1 and §11: JSON between systems is UTF-8, and application/json has no charset parameter',
    judge: (res) => {
      const type = res.headers.get('content-type') ?? '';
      if (routeOf(res).op === 'other' || !isJsonMediaType(res.mediaType)) return undefined;
      const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(type)?.[1];
      // `utf8` is a label of UTF-8 too (the WHATWG Encoding Standard).
      return charset === undefined || /^utf-?8$/i.test(charset)
        ? undefined
        : `Content-Type "${type}" names the charset ${charset}: a client that honours it reads UTF-8 wrong`;
    },
  },
  {
    id: 'errors.keyed-answers-private',
    title:
      'no success to a request with Authorization lets a shared cache keep it (Cache-Control public or s-maxage): a proxy cache would give the pets to requests without the key',
    section: '§5',
    rule: 'RFC 9111 §3.5: a shared cache stores an answer to a request with Authorization only when public, s-maxage or must-revalidate says it may',
    judge: (res) => {
      if (!isKeyedSuccess(res)) return undefined;
      const cacheControl = res.headers.get('cache-control') ?? '';
      return /(?:^|,)\s*(?:public|s-maxage\s*=)/i.test(cacheControl)
        ? `Cache-Control "${cacheControl}" lets a shared cache give this answer to requests without the key`
        : undefined;
    },
  },
  {
    id: 'errors.json-body',
    title: 'every error answer of an operation has a JSON body with a JSON Content-Type',
    section: '§1, §7',
    judge: (res) =>
      res.status >= 400 && routeOf(res).op !== 'other' ? notJsonReason(res) : undefined,
  },
  {
    id: 'errors.error-schema',
    title: 'every JSON error answer of an operation is a valid Error (code, message, status)',
    section: '§2, §7',
    judge: (res) => {
      if (res.status < 400 || notJsonReason(res) !== undefined) return undefined;
      if (routeOf(res).op === 'other') return undefined;
      const checked = validateSpecErrorBody(res.body);
      return checked.ok ? undefined : `not an Error: ${brief(checked.details)}`;
    },
  },
  {
    id: 'errors.status-matches',
    title: 'the Error body’s status equals the HTTP status',
    section: '§2',
    judge: (res) => {
      const status = errorOf(res)?.status;
      if (status === undefined) return undefined;
      return status === res.status ? undefined : `the Error body says status ${status}`;
    },
  },
  {
    id: 'errors.error-not-empty',
    title: 'every Error’s code and message say something: neither is empty or white space alone',
    section: '§2',
    rule: '§2 names a machine-readable code and a human-readable description: an empty string is neither',
    judge: (res) => {
      const error = errorOf(res);
      if (error === undefined) return undefined;
      const empty = (['code', 'message'] as const).filter((field) => error[field].trim() === '');
      if (empty.length === 0) return undefined;
      return `the Error's ${empty.join(' and ')} ${empty.length > 1 ? 'are' : 'is'} empty`;
    },
  },
  {
    id: 'errors.success-status',
    title:
      'every success answer has the status the spec names: 200 for listPets and getPet, 201 for createPet (a list with nothing in it too)',
    section: '§4.1, §4.2, §4.3',
    judge: (res) => {
      const route = routeOf(res);
      if (route.op === 'other' || res.status < 200 || res.status > 299) return undefined;
      const named = route.op === 'createPet' ? 201 : 200;
      if (res.status === named) return undefined;
      const body = res.text.trim() === '' ? ' with no body' : '';
      return `a success other than the spec's ${named}${body}`;
    },
  },
  {
    id: 'errors.no-server-errors',
    title:
      'no request the kit sends is answered with a 5xx (but a 501 to a method the spec does not name, such as HEAD, and a 503 the kit waited out)',
    section: '§7',
    judge: (res) => {
      if (res.status < 500) return undefined;
      // The server asked to come back later, and the kit did: the answer after it is judged.
      if (res.retried) return undefined;
      // 501 is how HTTP says a server does not implement a method (RFC 9110 §15.6.2).
      if (res.status === 501 && res.method !== 'GET' && res.method !== 'POST') return undefined;
      return 'a server error';
    },
  },
];

/** What the model knows of one pet the run created. */
interface ModelPet {
  /** The name sent, when it was a string. */
  readonly name?: string;
  /** categoryId sent, as a double sees it. */
  readonly categoryId?: number;
  /** The status the pet has: the one sent, else the first one shown. */
  status?: string;
  /** How the status became known: `sent`, or the answer that first showed it. */
  statusFrom: string;
  /** When the 201 arrived (`performance.now()`). */
  readonly createdAt: number;
}

/**
 * True when `shown` is the name sent, or what NFC or NFKC normalisation makes of it: the spec
 * does not say whether a server may normalise names, and the kit's own names are ones that
 * normalisation leaves as they are, so only traffic the kit did not send can tell.
 */
export function sameName(shown: unknown, sent: string): boolean {
  return shown === sent || shown === sent.normalize('NFC') || shown === sent.normalize('NFKC');
}

/** The JSON object a request sent, or undefined. */
function sentObject(res: HttpResponse): Record<string, unknown> | undefined {
  const { rawBody, json } = res.request;
  let body: unknown = json;
  if (rawBody !== undefined) {
    try {
      body = parseJson(rawBody);
    } catch {
      return undefined;
    }
  }
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

function isStatus(value: unknown): value is string {
  return (PET_STATUSES as readonly unknown[]).includes(value);
}

/** The query parameters a list answer may have: others (a cursor) make it a later page. */
const PLAIN_LIST_PARAMS = new Set(['limit', 'status']);

/**
 * A model of every pet the run created: the 201 body, every later getPet and every list entry of
 * that id agree on every spec field, a name accepted comes back as sent (or as NFC or NFKC
 * normalises it), a pet is listed under the status it has (when the list can reach it) and under
 * no other. Where RFC 8259 leaves the reading to the receiver (a name holding an unpaired
 * surrogate, a body that repeats a member name), what was sent is not held.
 */
export class PetModel {
  readonly pets = new Map<string, ModelPet>();

  /** `settleMs`: a read sent sooner than that after a pet's 201 is not held to that pet. */
  constructor(private readonly settleMs = 0) {}

  /** Why `res` disagrees with what the run's earlier answers showed, or undefined. */
  judge(res: HttpResponse): string | undefined {
    const route = routeOf(res);
    if (route.op === 'createPet') return this.created(res);
    if (route.op === 'getPet') return this.fetched(res, route.petId);
    if (route.op === 'listPets') return this.listed(res, route.query);
    return undefined;
  }

  private created(res: HttpResponse): string | undefined {
    if (res.status < 200 || res.status > 299 || petProblem(res.body) !== undefined)
      return undefined;
    const id = integerText(res.body, 'id');
    const body = sentObject(res);
    if (id === undefined || body === undefined) return undefined;
    // Receivers differ on which of two members of one name wins, or refuse them (RFC 8259 §4):
    // a body that repeats a member name is held to no field.
    const { rawBody } = res.request;
    const repeats = rawBody !== undefined && repeatedMemberName(rawBody, body) !== undefined;
    const sent: Record<string, unknown> = repeats ? {} : body;
    const categoryLiteral = numberText(sent, 'categoryId');
    const pet: ModelPet = {
      // RFC 8259 §8.2: what a server makes of a name holding an unpaired surrogate is its own.
      name:
        typeof sent.name === 'string' && !holdsUnpairedSurrogate(sent.name) ? sent.name : undefined,
      categoryId:
        typeof sent.categoryId === 'number'
          ? Number(categoryLiteral ?? sent.categoryId)
          : undefined,
      status: isStatus(sent.status) ? sent.status : undefined,
      statusFrom: 'sent',
      createdAt: res.receivedAt ?? (res.sentAt ?? 0) + res.ms,
    };
    // A second 201 with the same id is createPet.distinct-ids' to report.
    if (!this.pets.has(id)) this.pets.set(id, pet);
    return this.agrees(id, res.body, `the 201 body of pet ${id}`);
  }

  private fetched(res: HttpResponse, petId: string): string | undefined {
    const pet = this.pets.get(petId);
    if (pet === undefined || (res.sentAt ?? 0) < pet.createdAt + this.settleMs) return undefined;
    if (res.status === 404) return `pet ${petId}, created by this run, is not found`;
    if (res.status !== 200 || petProblem(res.body) !== undefined) return undefined;
    if (integerText(res.body, 'id') !== petId) return undefined; // errors.pet-fields reports it
    return this.agrees(petId, res.body, `getPet of pet ${petId}`);
  }

  private listed(res: HttpResponse, query: URLSearchParams): string | undefined {
    if (res.status !== 200 || !Array.isArray(res.body)) return undefined;
    // A status given twice filters by the first, the last, or neither: its list is held to none.
    const filters = query.getAll('status');
    const filter = filters.length === 1 ? (filters[0] as string) : null;
    const shown = new Set<string>();
    for (const item of res.body) {
      const id = integerText(item, 'id');
      if (id === undefined || petProblem(item) !== undefined) continue;
      shown.add(id);
      const pet = this.pets.get(id);
      if (pet === undefined) continue;
      const problem = this.agrees(id, item, `the list entry of pet ${id}`);
      if (problem !== undefined) return problem;
      if (isStatus(filter) && pet.status !== undefined && pet.status !== filter) {
        return `pet ${id}, whose status is "${pet.status}" (${pet.statusFrom}), is listed under status=${filter}`;
      }
    }
    // A page shorter than its limit holds every match that existed when it was asked for.
    const plain = [...query.keys()].every(
      (key) => PLAIN_LIST_PARAMS.has(key) && query.getAll(key).length === 1,
    );
    const rawLimit = query.get('limit');
    const limit = rawLimit === null ? LIMIT_DEFAULT : plainLimit(rawLimit);
    const known = filter === null || isStatus(filter);
    if (!plain || !known || limit === undefined || res.body.length >= limit) return undefined;
    for (const [id, pet] of this.pets) {
      if (shown.has(id) || pet.createdAt + this.settleMs > (res.sentAt ?? 0)) continue;
      if (filter !== null && pet.status !== filter) continue;
      const as =
        pet.status === undefined ? 'created' : `of status "${pet.status}" (${pet.statusFrom})`;
      return `pet ${id}, ${as}, is missing from a list of ${res.body.length} (fewer than limit ${limit})`;
    }
    return undefined;
  }

  /** Why a Pet shown for `id` differs from what the model knows, or undefined; learns status. */
  private agrees(id: string, value: unknown, where: string): string | undefined {
    const pet = this.pets.get(id);
    if (pet === undefined) return undefined;
    const shown = value as { name: string; categoryId: number; status?: string };
    if (pet.name !== undefined && !sameName(shown.name, pet.name)) {
      return `${where} has name ${JSON.stringify(shown.name)}, sent ${JSON.stringify(pet.name)}`;
    }
    const categoryId = Number(numberText(value, 'categoryId') ?? shown.categoryId);
    if (pet.categoryId !== undefined && categoryId !== pet.categoryId) {
      return `${where} has categoryId ${numberText(value, 'categoryId') ?? categoryId}, sent ${pet.categoryId}`;
    }
    if (shown.status === undefined) return undefined;
    if (pet.status === undefined) {
      pet.status = shown.status;
      pet.statusFrom = `shown by ${where}`;
      return undefined;
    }
    if (shown.status !== pet.status) {
      const from = pet.statusFrom === 'sent' ? 'sent' : pet.statusFrom;
      return `${where} has status "${shown.status}", not "${pet.status}" (${from})`;
    }
    return undefined;
  }
}
