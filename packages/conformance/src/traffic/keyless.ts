// Requests that carry no bearer key whatever the server's keys are, told from their
// `Authorization` alone, and reads with no fault but that: the auth rules judge their answers.
import { PET_STATUSES } from '@animal-store/contract';
import { plainLimit } from '../list-limit.js';
import { INT64_MAX, routeOf } from '../oracles.js';
import type { Exchange, HeaderLine } from './exchange.js';

/** A way of sending no bearer key that the value of `Authorization` shows: a kit check's id. */
export interface KeylessShape {
  readonly id:
    | 'missing-header'
    | 'empty-header'
    | 'empty-token'
    | 'wrong-scheme'
    | 'scheme-prefixed'
    | 'word-after-key';
  /** How a request of this shape is described. */
  readonly how: string;
}

export const KEYLESS_SHAPES: readonly KeylessShape[] = [
  { id: 'missing-header', how: 'without Authorization' },
  { id: 'empty-header', how: 'with an empty Authorization header' },
  { id: 'empty-token', how: 'with "Bearer" and no token' },
  { id: 'wrong-scheme', how: 'with a scheme other than Bearer' },
  { id: 'scheme-prefixed', how: 'with a scheme that holds "Bearer" but is another' },
  { id: 'word-after-key', how: 'with a word after the bearer token' },
];

/**
 * The shape of `authorization` (undefined: no such header) when it carries no bearer key
 * (spec §5: `Bearer <API_KEY>`, the scheme in any case, RFC 9110 §11.1); undefined for
 * `Bearer` and one token, which only the server's keys tell valid from not.
 */
export function keylessShape(authorization: string | undefined): KeylessShape['id'] | undefined {
  if (authorization === undefined) return 'missing-header';
  if (authorization === '') return 'empty-header';
  // A recorded header value has no white space around it (RFC 9110 §5.5).
  const words = authorization.split(/[ \t]+/);
  const scheme = words.shift() as string;
  if (scheme.toLowerCase() !== 'bearer') {
    return /bearer/i.test(scheme) ? 'scheme-prefixed' : 'wrong-scheme';
  }
  if (words.length === 0) return 'empty-token';
  return words.length > 1 ? 'word-after-key' : undefined;
}

/**
 * The shape of `ex`'s request when it carries no bearer key: that of its `Authorization`, or,
 * when it has several lines of it (whose values make no one value, RFC 9110 §5.3: a server
 * takes one of them), that of the first when no line carries a bearer key; undefined when one
 * may.
 */
export function keylessShapeOf(ex: Exchange): KeylessShape['id'] | undefined {
  const lines = ex.recorded.requestHeaders.filter(
    ([name]) => name.toLowerCase() === 'authorization',
  );
  if (lines.length <= 1) return keylessShape(ex.authorization);
  const shapes = lines.map(([, value]) => keylessShape(value.trim()));
  return shapes.every((shape) => shape !== undefined) ? shapes[0] : undefined;
}

/** `limit` (1..100, written plainly) or `status` (a PetStatus), as a query string writes it. */
function isPlainListParameter(parameter: string): boolean {
  const [name, value, ...more] = parameter.split('=');
  if (value === undefined || more.length > 0) return false;
  if (name === 'status') return (PET_STATUSES as readonly string[]).includes(value);
  return name === 'limit' && plainLimit(value) !== undefined;
}

/** A Host field value HTTP allows: `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2). */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * True unless the request's header lines are ones a server may answer `400` whatever its key:
 * more than one Host line, or one whose value is no host (RFC 9112 §3.2), or more than one
 * Authorization line (its value is no list, RFC 9110 §5.3, so two lines make no one value). A
 * recording without Host (HTTP/2 has `:authority` instead) says nothing of it.
 */
function linesAreSound(lines: readonly HeaderLine[]): boolean {
  const named = (field: string) => lines.filter(([name]) => name.toLowerCase() === field);
  const hosts = named('host');
  return (
    hosts.length <= 1 &&
    hosts.every(([, value]) => HOST_VALUE.test(value)) &&
    named('authorization').length <= 1
  );
}

/**
 * The header fields a read may carry and still be refused for nothing but its key: the target's
 * and the key's, content negotiation a JSON answer meets (an `Accept` that takes no JSON makes the
 * request none of the spec's), what a client and the proxies on its way say of themselves,
 * caching and connection management, a browser's fetch metadata and client hints, tracing. Any
 * other field may be one a server refuses a request for, as the run lets it: a cookie (a session
 * it no longer holds), a key in `X-API-Key`, `Accept-Charset`, `Expect`, `Range`, a method
 * override.
 */
const NEUTRAL_READ_FIELD =
  /^(?:host|authorization|accept|accept-encoding|accept-language|user-agent|referer|origin|connection|keep-alive|cache-control|pragma|if-none-match|if-modified-since|dnt|upgrade-insecure-requests|priority|sec-(?:fetch|ch)-[a-z0-9-]+|sec-gpc|purpose|x-requested-with|traceparent|tracestate|baggage|x-request-id|x-correlation-id|x-amzn-trace-id|x-b3-[a-z]+|b3|forwarded|via|x-forwarded-[a-z]+|x-real-ip)$/i;

/**
 * True for a listPets or getPet request with nothing the spec or HTTP lets a server refuse but
 * its key: no body nor header lines of one, only `NEUTRAL_READ_FIELD`s, and either a list query
 * of `limit` (1..100, plainly written) and `status` (a PetStatus), each at most once and nothing
 * else, or a plain positive int64 petId (as sent, not percent-decoded) and no query.
 * With a valid key such a request gets 200 (or 404 for a pet that does not exist), and with none
 * 401 (§4.1, §4.3, §5): a 400 to it is never right, whatever key it carried.
 */
export function isSoundRead(ex: Exchange): boolean {
  const route = routeOf(ex.res);
  if (route.op !== 'getPet' && route.op !== 'listPets') return false;
  const { requestHeaders: headers, recorded } = ex;
  // No body, and no header line of one but `Content-Length: 0`: a server may read a content's
  // lines without content, and refuse one it cannot (`multipart/form-data` without its boundary).
  const length = headers.get('content-length');
  if ((length !== null && length !== '0') || (recorded.requestBody ?? '') !== '') return false;
  const neutral = (name: string) =>
    name.startsWith(':') ||
    name.toLowerCase() === 'content-length' ||
    NEUTRAL_READ_FIELD.test(name);
  if (!recorded.requestHeaders.every(([name]) => neutral(name))) return false;
  if (!linesAreSound(recorded.requestHeaders)) return false;
  const url = new URL(ex.res.url);
  const search = url.search.slice(1);
  if (route.op === 'getPet') {
    // The petId as sent, not percent-decoded: a server may refuse `%31` for the spelling.
    const sent = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    return search === '' && /^[1-9]\d{0,18}$/.test(sent) && BigInt(sent) <= INT64_MAX;
  }
  if (search === '') return true;
  const parameters = search.split('&');
  const names = parameters.map((parameter) => parameter.split('=')[0]);
  return parameters.every(isPlainListParameter) && new Set(names).size === names.length;
}
