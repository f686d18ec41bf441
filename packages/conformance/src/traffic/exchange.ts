// One exchange of traffic the kit did not send (a HAR entry, a request through the proxy), as the
// kit's oracles read answers: an `HttpResponse` whose request is what the client sent.
import { API_PREFIX } from '@animal-store/contract';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { BEARER_TOKEN, readBody } from '../http/client.js';
import { literalCredential } from '../http/replay.js';
import { routeOf } from '../oracles.js';

/** A header as recorded: its name as sent, its value. */
export type HeaderLine = readonly [name: string, value: string];

/** What a recorder saw of one exchange, before it is judged. */
export interface RecordedExchange {
  readonly method: string;
  /** The absolute URL requested. */
  readonly url: string;
  readonly requestHeaders: readonly HeaderLine[];
  /** The request body as text (`requestBodyText`), when there was one that is UTF-8. */
  readonly requestBody?: string;
  /**
   * True when the recorder vouches that `requestBody` is the whole body: the proxy saw it end, a
   * HAR's `bodySize` is its length. A body sent chunked (no Content-Length) is judged only so.
   */
  readonly requestBodyWhole?: boolean;
  /** The answer's status; 0 when no answer came (a failed or blocked request). */
  readonly status: number;
  readonly responseHeaders: readonly HeaderLine[];
  /** The answer's body, byte for byte; undefined when the recorder did not keep it. */
  readonly responseBody?: Uint8Array;
  /**
   * True when something other than the server answered: the browser's cache, a service worker or
   * a test's mock (`har.ts`). The request did not reach the server as recorded, so the answer
   * says nothing of what the server held, or what it was sent.
   */
  readonly fromCache?: boolean;
  /** When the request was sent and the answer had arrived, in milliseconds (any common clock). */
  readonly sentAt: number;
  readonly receivedAt: number;
}

/**
 * A request body as the rules read it: its text (a byte order mark taken off, as RFC 8259 §8.1
 * lets a parser do), or undefined when it holds U+FFFD: bytes that are no UTF-8 decode to it, and
 * a recorder may have put it in their place. Such a body says nothing sure of what was sent, and
 * a server may read such bytes its own way.
 */
export function requestBodyText(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(bytes);
  return text.includes('\uFFFD') ? undefined : text;
}

/** Where an exchange stands towards the spec's operations at a base URL. */
export type Standing =
  | 'spec'
  | 'other-host'
  | 'other-path'
  | 'not-answered'
  | 'rate-limited'
  | 'unavailable'
  | 'from-cache'
  | 'head-too-large';

/**
 * The size of a request head (request line and header lines) above which a server or its front
 * may refuse it: fasthttp's default buffer is 4 KiB, nginx's 8 KiB a line, gunicorn's 4,094
 * bytes for the request line. The spec shows no request size limits (§8).
 */
export const HEAD_LIMIT = 4096;

/**
 * The number of header fields above which a server or its front may refuse a request head:
 * Apache's `LimitRequestFields` is 100 by default, and haproxy's 101 fields take the request line.
 */
export const HEAD_FIELDS_LIMIT = 100;

/** The statuses a refusal of a request head for its size takes (RFC 9110 §15.5, RFC 6585 §5). */
const HEAD_REFUSALS = new Set([400, 413, 414, 431]);

/** How many header fields the request's head holds (HTTP/2 pseudo-headers aside). */
function headFields(recorded: RecordedExchange): number {
  return recorded.requestHeaders.filter(([name]) => !name.startsWith(':')).length;
}

/** How many bytes the request's head takes on the wire in HTTP/1.1 (HTTP/2 pseudo-headers aside). */
function headBytes(recorded: RecordedExchange): number {
  const target = URL.parse(recorded.url);
  const line = `${recorded.method} ${target === null ? recorded.url : `${target.pathname}${target.search}`} HTTP/1.1\r\n`;
  let bytes = Buffer.byteLength(line) + 2;
  for (const [name, value] of recorded.requestHeaders) {
    if (!name.startsWith(':')) bytes += Buffer.byteLength(`${name}: ${value}\r\n`);
  }
  return bytes;
}

/** An exchange ready to judge. */
export interface Exchange {
  readonly recorded: RecordedExchange;
  readonly standing: Standing;
  /** The answer as the oracles read it (`path` is below the base URL for the spec's exchanges). */
  readonly res: HttpResponse;
  /** The request's headers, as recorded. */
  readonly requestHeaders: Headers;
  /** The request's `Authorization` value, or undefined when it sent none. */
  readonly authorization: string | undefined;
  /** False when the recorder kept no body of the answer: rules on bodies leave it alone. */
  readonly bodyRecorded: boolean;
}

/** Headers from recorded lines; a line `Headers` refuses (an HTTP/2 pseudo-header) is left out. */
export function headersOf(lines: readonly HeaderLine[]): Headers {
  const headers = new Headers();
  for (const [name, value] of lines) {
    if (name.startsWith(':')) continue;
    try {
      headers.append(name, value);
    } catch {
      // A name or value no HTTP message may carry: nothing a rule reads.
    }
  }
  return headers;
}

/** The base URL below which `url` names an operation of the spec (`…/pets`, `…/pets/{id}`). */
export function baseOfSpecUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const match = /^(.*)\/pets(?:\/[^/]+)?$/.exec(parsed.pathname);
  return match === null ? undefined : `${parsed.origin}${match[1]}`;
}

/**
 * The request headers a replay line repeats: those an answer of the spec may turn on (the body's
 * media type, the answer's, a part of it, no body, a method override). Others (cookies, a
 * client's own) stay out of every report, as they may carry secrets.
 */
const REPLAYED_HEADERS = [
  'Content-Type',
  'Accept',
  'Range',
  'Prefer',
  'X-HTTP-Method-Override',
  'X-HTTP-Method',
  'X-Method-Override',
];

/** The path of one of the spec's operations below the base: `/pets` or `/pets/{petId}`. */
const OPERATION_PATH = /^\/pets(\/[^/]+)?$/;

/**
 * `/pets/` and a word, after a `_`, `$`, `@` or `~` or none (an ASCII letter, then letters, digits,
 * `_`, `.` and `-`): where a server puts an operation of its own (`/pets/findByStatus`,
 * `/pets/_count`, OData's `/pets/$count`, `/pets/top10`, `/pets/export.csv`), which the spec lets
 * it have (§4: operations it does not show). A petId that is no integer (`7abc`, `1.5`, `0x1`,
 * `-1`) begins as a number's spelling, and a placeholder never filled in (`${id}`, `:id`) is no
 * word: both are judged.
 */
const OWN_OPERATION_PATH = /^\/pets\/[_$@~]?[A-Za-z][\w.-]*$/;

/**
 * Where `url` stands towards the base at `origin` whose path is `prefix` (no trailing slash):
 * what is no URL was asked of the host the traffic went to, at no path of the spec.
 */
function standingOf(
  url: URL | null,
  origin: string,
  prefix: string,
): 'spec' | 'other-host' | 'other-path' {
  if (url === null) return 'other-path';
  if (url.origin !== origin) return 'other-host';
  return url.pathname.startsWith(`${prefix}/`) ? 'spec' : 'other-path';
}

/** The exchange as the kit's oracles read it, towards the spec's operations at `base`. */
export function exchangeOf(recorded: RecordedExchange, base: string): Exchange {
  const requestHeaders = headersOf(recorded.requestHeaders);
  const headers = headersOf(recorded.responseHeaders);
  const authorization = requestHeaders.get('authorization') ?? undefined;
  const root = new URL(base);
  const prefix = root.pathname.replace(/\/+$/, '');
  const url = URL.parse(recorded.url);
  const within = standingOf(url, root.origin, prefix);
  let path = recorded.url;
  // An operation's path is the base's and /pets or /pets/{petId} after it, nothing between: a
  // route of the server's own that ends in /pets (/v1/admin/pets/7), or one below /pets with a
  // word for a petId (/v1/pets/findByStatus), is none of the spec's.
  let operationPath = false;
  if (url !== null) {
    const below = within === 'spec' ? url.pathname.slice(prefix.length) : url.pathname;
    path = `${below}${url.search}`;
    operationPath = OPERATION_PATH.test(below) && !OWN_OPERATION_PATH.test(below);
  }
  const request: HttpRequest = {
    method: recorded.method as HttpRequest['method'],
    path,
    // Undefined stands for a bearer key: a replay line reads it from $ANIMAL_STORE_API_KEY.
    // Any other value (another scheme, "Bearer" alone, a word after the token) is replayed as
    // recorded, its credentials hidden in reports like every recorded Authorization's.
    ...(authorization === undefined
      ? { authorization: null }
      : BEARER_TOKEN.test(authorization)
        ? {}
        : { authorization: literalCredential(authorization) }),
    ...(recorded.requestBody === undefined ? {} : { rawBody: recorded.requestBody }),
    ...replayedHeaders(requestHeaders),
  };
  const bytes = recorded.responseBody ?? new Uint8Array();
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  const res: HttpResponse = {
    request,
    method: recorded.method,
    path,
    url: recorded.url,
    status: recorded.status,
    headers,
    text,
    bytes,
    sentAt: recorded.sentAt,
    receivedAt: recorded.receivedAt,
    ms: Math.max(0, Math.round(recorded.receivedAt - recorded.sentAt)),
    ...readBody(headers, text),
  };
  let standing: Standing = within;
  if (recorded.status === 0) standing = 'not-answered';
  // Asked for with a bearer key: a request without one is the auth rules' to judge, whatever
  // it asked for.
  else if (
    within === 'spec' &&
    /^bearer +\S/i.test(authorization ?? '') &&
    askedOtherwise(res, requestHeaders)
  ) {
    standing = 'other-path';
  } else if (within === 'spec' && recorded.fromCache) standing = 'from-cache';
  else if (
    within === 'spec' &&
    HEAD_REFUSALS.has(recorded.status) &&
    (headBytes(recorded) > HEAD_LIMIT || headFields(recorded) > HEAD_FIELDS_LIMIT)
  ) {
    standing = 'head-too-large';
  }
  // The kit retries a 429 and never judges it: the spec gives no rate limits (§7, §8).
  else if (within === 'spec' && recorded.status === 429) standing = 'rate-limited';
  else if (within === 'spec' && (!operationPath || routeOf(res).op === 'other')) {
    standing = 'other-path';
  }
  // Nor a 503 to an operation: the server could not handle the request for now (a database down
  // a moment), and traffic of hours holds such moments.
  else if (within === 'spec' && recorded.status === 503) standing = 'unavailable';
  return {
    recorded,
    standing,
    res,
    requestHeaders,
    authorization,
    bodyRecorded: recorded.responseBody !== undefined,
  };
}

/**
 * The base URL most of the traffic's exchanges of the spec's paths go below, of those that end
 * with the spec's prefix `/v1` (§1) when any does: the one the spec's operations are judged at
 * when none is given. A page's own paths (`/images/pets/1.jpg`, an app's route `/pets/7`) may
 * outnumber the API's calls.
 */
export function inferBase(recorded: readonly RecordedExchange[]): string | undefined {
  const counts = new Map<string, number>();
  for (const r of recorded) {
    const base = baseOfSpecUrl(r.url);
    if (base !== undefined) counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  const versioned = [...counts].filter(([base]) => base.endsWith(API_PREFIX));
  let best: [string, number] | undefined;
  for (const entry of versioned.length > 0 ? versioned : counts)
    if (best === undefined || entry[1] > best[1]) best = entry;
  return best?.[0];
}

/**
 * True for an answer to what the client asked to be other than the spec's answer, as HTTP lets
 * it: a part of the body (`Range`, answered `206` or refused `416`, RFC 9110 §14.2, §15.3.7), or
 * no body (`Prefer: return=minimal`, answered with none, RFC 7240 §4.2).
 */
function askedOtherwise(res: HttpResponse, asked: Headers): boolean {
  if (asked.has('range') && (res.status === 206 || res.status === 416)) return true;
  return (
    /(^|[,;\s])return\s*=\s*"?minimal"?\s*($|[,;])/i.test(asked.get('prefer') ?? '') &&
    res.status >= 200 &&
    res.status <= 299 &&
    res.text === ''
  );
}

/**
 * What of `headers` a replay line sends again: `REPLAYED_HEADERS`, and no `Content-Type` as none
 * (which a replay line of a request without a body leaves out).
 */
function replayedHeaders(headers: Headers): Pick<HttpRequest, 'headers' | 'withoutContentType'> {
  const kept = REPLAYED_HEADERS.flatMap((name) => {
    const value = headers.get(name);
    return value === null ? [] : [[name, value] as const];
  });
  return {
    headers: Object.fromEntries(kept),
    ...(headers.has('content-type') ? {} : { withoutContentType: true }),
  };
}
