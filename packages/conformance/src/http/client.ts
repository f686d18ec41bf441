import { randomInt } from 'node:crypto';
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  maxHeaderSize,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Redactor } from '../redact.js';
import { bytePieces, piecesInsideCharacters } from './body-pieces.js';
import { withoutContentCoding } from './content-coding.js';
import { FetchPool } from './fetch-pool.js';
import { parseJson } from './json.js';
import { keptAliveAgent } from './kept-alive-agent.js';
import { IDEMPOTENT } from './methods.js';
import { absoluteTarget } from './request-target.js';

/** One HTTP exchange the kit made; `status` is null when no answer came. */
export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly ms: number;
  readonly error?: string;
}

/** The name a replayed request gives the API key: the kit never prints the key itself. */
export const KEY_VARIABLE = 'ANIMAL_STORE_API_KEY';

/** `Bearer` and one token68, one space between (RFC 9110 §11.4, RFC 6750 §2.1). */
export const BEARER_TOKEN = /^bearer [0-9A-Za-z._~+/-]+=*$/i;

/**
 * An `Authorization` value the kit sends, with how a shell writes it for a replay: `shell` is
 * the text between double quotes, with the key as `$ANIMAL_STORE_API_KEY`
 * (e.g. `value: 'Basic s3cret'`, `shell: 'Basic $ANIMAL_STORE_API_KEY'`).
 */
export interface Credential {
  readonly value: string;
  readonly shell: string;
}

/** A request the kit sends, relative to the base URL. */
export interface HttpRequest {
  /**
   * The spec's methods, HEAD, OPTIONS, and those of the operations it has without showing them
   * (§4).
   */
  readonly method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query below the base URL (`/pets?limit=1`), or an absolute URL (a `Link` target). */
  readonly path: string;
  /** The `Authorization` header: omitted means the valid bearer key, `null` means none. */
  readonly authorization?: Credential | null;
  /** A body sent as JSON. */
  readonly json?: unknown;
  /** A body sent as-is with `Content-Type: application/json` (malformed JSON, big numbers). */
  readonly rawBody?: string;
  /** A body of bytes no string holds (not UTF-8), sent as `rawBody` is. */
  readonly rawBytes?: Uint8Array;
  /**
   * Spaces put after the first `,` of `rawBody`: white space JSON ignores (RFC 8259 §2), so a
   * large body that holds a small pet.
   */
  readonly padding?: number;
  /**
   * How deep the first `[]` of `rawBody` is nested: that many arrays, one in another (`[[[]]]`
   * for 3). JSON sets no depth (RFC 8259 §9 lets a parser set one), and the request stays short
   * to describe however deep it goes. Not sent with `padding`.
   */
  readonly nesting?: number;
  /**
   * Query parameters appended to `path`, each carrying a look-alike of the key (`api_key=<look-alike>`):
   * the same length and kinds of characters, random, never valid. The valid key never goes into a
   * URL, where proxies and access logs would keep it.
   */
  readonly keyInQuery?: readonly string[];
  /** Puts the valid key itself in `keyInQuery`'s parameters (only with `--disposable-key`). */
  readonly realKeyInQuery?: boolean;
  /** Headers an ordinary client adds (`Cache-Control`, `If-None-Match`, ...), sent as given. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Header fields other than `Authorization` whose values are made from the valid key itself
   * (`X-API-Key: <key>`, `Cookie: token=<key>`; only with `--disposable-key`: servers and gateways
   * log such fields as they log URLs). A replay line writes each value's shell form.
   */
  readonly keyHeaders?: Readonly<Record<string, Credential>>;
  /**
   * A body made from the valid key itself (a NewPet with the key in members servers read a token
   * from; only with `--disposable-key`), sent in place of `rawBody`. A replay line writes its
   * shell form.
   */
  readonly keyBody?: Credential;
  /**
   * Header fields whose values are secrets the server gave the run (a session cookie it set):
   * sent as given, and hidden like the key in every report.
   */
  readonly secretHeaders?: Readonly<Record<string, string>>;
  /** Sends the body with `Transfer-Encoding: chunked` instead of a `Content-Length`. */
  readonly chunked?: boolean;
  /** Sends the body with no `Content-Type` at all. */
  readonly withoutContentType?: boolean;
  /**
   * Sends no `Accept` at all, as Go's and Java's HTTP clients do (a client that sends none
   * accepts any media type, RFC 9110 §12.5.1). It goes through node:http: fetch adds `*\/*`.
   */
  readonly withoutAccept?: boolean;
  /** Sends the request on this kept-alive connection, shared with the others sent on it. */
  readonly connection?: Connection;
  /**
   * Writes the request target in absolute form (`GET http://host/v1/pets HTTP/1.1`), as requests
   * to a proxy go (RFC 9112 §3.2.2); on `connection` only, and never sent again another way.
   */
  readonly absoluteForm?: boolean;
  /** Sent pipelined with others on `connection` (`RawConnection.pipeline`). */
  readonly pipelined?: boolean;
  /**
   * Sends the body in pieces, each ending inside a character (`body-pieces.ts`): chunked, one
   * byte a chunk; with `Content-Length`, each piece in a write of its own, a pause before the
   * next. Not on `connection`.
   */
  readonly inPieces?: boolean;
  /** A chunked body's framing beyond the plain, written by a `RawConnection` (`connection`). */
  readonly chunkedFraming?: ChunkedFraming;
  /**
   * Written as given on `connection` (a `RawConnection`), in a way fetch would change (white space
   * around a header value): never sent again another way.
   */
  readonly asWritten?: boolean;
  /**
   * Sent at another spelling of a spec path (`/pets/`, `/PETS`, `/V1/pets`): no operation of the
   * spec, whose answer the check that sends it judges alone.
   */
  readonly pathSpelling?: boolean;
}

/**
 * True for a request only a `RawConnection` writes as it is: its target in absolute form, a
 * chunked framing beyond the plain, or written as given. Sent again another way (fetch), what it
 * probes would not be in it, so it never is.
 */
export function writtenOnlyRaw(request: HttpRequest): boolean {
  return (
    request.absoluteForm === true ||
    request.chunkedFraming !== undefined ||
    request.asWritten === true
  );
}

/**
 * What a chunked body carries besides its data (RFC 9112 §7.1): the body goes in two chunks, each
 * size, and the last chunk's, followed by `extension` (`;note=1`), and `trailer`'s field lines
 * after the last chunk.
 */
export interface ChunkedFraming {
  readonly extension?: string;
  readonly trailer?: readonly string[];
}

/**
 * A kept-alive connection that requests share (`HttpRequest.connection`), one after another: a
 * `SharedConnection`, or a `RawConnection`, which reads whatever follows an answer as the next.
 */
export interface Connection {
  /** Sends one request, its head and whole body in one write, and gives its answer. */
  send(request: Outgoing): Promise<Response>;
  /** Ends the connection. */
  close(): void;
}

/** A request as a connection writes it: the body chunked when `chunked`. */
export interface Outgoing {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | undefined;
  readonly chunked: boolean;
  readonly timeoutMs: number;
  /** The request target in absolute form (`HttpRequest.absoluteForm`). */
  readonly absoluteForm?: boolean;
  /** The chunked body's framing beyond the plain (`HttpRequest.chunkedFraming`). */
  readonly chunkedFraming?: ChunkedFraming | undefined;
}

/**
 * One kept-alive connection of node:http's that requests share, one after another; a new one when
 * the server closes it. `close` ends it.
 */
export class SharedConnection implements Connection {
  readonly #http = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  readonly #https = new HttpsAgent({ keepAlive: true, maxSockets: 1 });

  send({
    url,
    method,
    headers,
    body,
    chunked,
    timeoutMs,
    absoluteForm,
    chunkedFraming,
  }: Outgoing): Promise<Response> {
    // node:http writes the chunked coding its own way: never a plain body in its place.
    if (chunkedFraming !== undefined) throw new Error('a chunked framing needs a RawConnection');
    return sendWithNodeHttp(url, method, headers, body, chunked, {
      timeoutMs,
      agent: this.agentFor(url),
      absoluteForm,
    });
  }

  agentFor(url: string): HttpAgent {
    return url.startsWith('https:') ? this.#https : this.#http;
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/** A response with its body read and, when it is JSON, parsed. */
export interface HttpResponse {
  /** The request this answers, as the kit sent it. */
  readonly request: HttpRequest;
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  /** The media type of `Content-Type`, lower case, without parameters (`application/json`). */
  readonly mediaType: string;
  readonly text: string;
  /** The parsed body, or undefined when the body is empty or not JSON. */
  readonly body: unknown;
  /** Why the body is not JSON, when it is not. */
  readonly jsonError?: string;
  /** The body as received, byte for byte (`text` has a byte-order mark taken off). */
  readonly bytes?: Uint8Array;
  /** When the request was sent (`performance.now()`): answers arrive out of order. */
  readonly sentAt?: number;
  /** When the whole answer had arrived (`performance.now()`). */
  readonly receivedAt?: number;
  readonly ms: number;
  /**
   * True for an answer asking the client to come back later (`comeBackLater`) that the kit waited
   * out and sent the request again after.
   */
  readonly retried?: boolean;
  /** Where the answer came from when fetch followed a read's redirect to it: not `url`. */
  readonly redirectedTo?: string;
}

/** A request that got no HTTP answer: it timed out or the connection failed. */
export class RequestError extends Error {
  override readonly name = 'RequestError';
  constructor(
    readonly kind: 'timeout' | 'network',
    message: string,
    /** Why, without the request: `no answer within 10000 ms`, `connect ECONNREFUSED ...`. */
    readonly reason: string,
    /** The request that got no answer, and where it went. */
    readonly sent?: { readonly request: HttpRequest; readonly url: string },
  ) {
    super(message);
  }
}

/**
 * A request still answered `429` or `503` after every retry: the server kept asking the kit to
 * come back later. The check that sent it is skipped; a `503` still fails
 * `errors.no-server-errors`.
 */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
}

/** How the client behaves; see `runConformance` for the defaults. */
export interface HttpClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  readonly userAgent: string;
  /** The fetch to send with; without it, undici's, on connections of the client's own. */
  readonly fetch?: typeof fetch;
  /** The most connections the client's own fetch opens at once (default: no limit). */
  readonly connections?: number;
  /**
   * Called with every answer: each final one, and each one asking to come back later that was
   * retried (`retried: true`), which the oracles judge like any other.
   */
  readonly onResponse?: (response: HttpResponse) => void;
  /** Told every `Authorization` value built from the key, to hide it from what the kit writes. */
  readonly redactor?: Redactor;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';

/**
 * A random key that looks like `key` (each letter a random letter of the same case, each digit a
 * random digit, other characters kept) and is not `key`: what the kit sends where a key would be
 * written into a URL. It tells nothing about the key beyond its length and shape.
 */
export function lookAlikeKey(key: string): string {
  const pick = (pool: string) => pool[randomInt(pool.length)] as string;
  for (;;) {
    const out = [...key]
      .map((c) =>
        LOWER.includes(c)
          ? pick(LOWER)
          : UPPER.includes(c)
            ? pick(UPPER)
            : DIGITS.includes(c)
              ? pick(DIGITS)
              : c,
      )
      .join('');
    if (out !== key) return out;
    // A key without letters or digits has no look-alike of its shape.
    if (!/[a-zA-Z0-9]/.test(key)) return `not-the-key-${pick(LOWER)}${pick(LOWER)}${pick(LOWER)}`;
  }
}

/** After this many timeouts in a row the server is taken as gone and requests fail at once. */
export const GIVE_UP_AFTER_TIMEOUTS = 5;

/**
 * True for an answer that asks the client to send the request again later: a `429` (RFC 6585),
 * or a `503`, the server unable to handle the request for now (RFC 9110 §15.6.4), as while its
 * database is down a moment, or as nginx's `limit_req` answers a burst; `Retry-After` says when,
 * and without it the kit waits a second.
 */
export function comeBackLater(response: { status: number }): boolean {
  return response.status === 429 || response.status === 503;
}

/**
 * After this many requests in a row still asked to come back after every retry, the kit no
 * longer waits: a server that answers so to everything (down for maintenance) ends the run in
 * moments, not hours.
 */
export const STOP_WAITING_AFTER = 3;

/**
 * Fetch with a per-request timeout, bounded retries on answers asking to come back later, and a
 * log of every request.
 */
export class HttpClient {
  readonly log: RequestRecord[] = [];
  private readonly base: string;
  /** A look-alike of the key (`lookAlikeKey`), one for the client's whole life. */
  readonly lookAlikeKey: string;
  private timeoutsInARow = 0;
  /** Requests in a row still asked to come back later after every retry. */
  private unservedInARow = 0;
  readonly #pool: FetchPool | undefined;
  readonly #fetch: typeof fetch;

  constructor(private readonly options: HttpClientOptions) {
    this.#pool = options.fetch === undefined ? new FetchPool(options.connections) : undefined;
    this.#fetch = options.fetch ?? (this.#pool as FetchPool).fetch;
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.lookAlikeKey = lookAlikeKey(options.apiKey);
    options.redactor?.add(options.apiKey);
    options.redactor?.add(encodeURIComponent(options.apiKey));
  }

  /** The base URL requests are relative to, without a trailing `/`. */
  get baseUrl(): string {
    return this.base;
  }

  /**
   * Closes the idle connections of the client's own fetch (none with a fetch given), so that the
   * next request finds the server holding no kept-alive connection of the kit's.
   */
  async closeIdleConnections(): Promise<void> {
    await this.#pool?.closeIdle();
  }

  /** Closes the connections of the client's own fetch. */
  async close(): Promise<void> {
    await this.#pool?.close();
  }

  /**
   * Sends `request`, retrying while the answer asks to come back later (`comeBackLater`); throws
   * `RequestError` or `RateLimitedError`.
   */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const retries = this.unservedInARow >= STOP_WAITING_AFTER ? 0 : this.options.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const response = await this.once(request);
      if (!comeBackLater(response)) {
        this.unservedInARow = 0;
        this.options.onResponse?.(response);
        return response;
      }
      this.options.onResponse?.(attempt >= retries ? response : { ...response, retried: true });
      if (attempt >= retries) {
        this.unservedInARow += 1;
        const waited =
          retries === this.options.maxRetries
            ? `after ${attempt} retries`
            : `(not waited out: ${STOP_WAITING_AFTER} requests in a row were still answered so after every retry)`;
        throw new RateLimitedError(
          `${request.method} ${response.path} still answered ${response.status} ${waited}`,
        );
      }
      await sleep(retryDelay(response.headers.get('retry-after'), this.options.maxRetryWaitMs));
    }
  }

  /**
   * Sends `request` once; an idempotent request whose connection closed before any answer is sent
   * again, once, as RFC 9112 (9.3.1.1) lets a client do: a server may close an idle kept-alive
   * connection just as the next request goes out on it, which says nothing about the server.
   * A request whose body could not all be sent (the server answered before reading it, and closed
   * the connection: RFC 9112 lets it) is sent again once in one write, so that its answer can be
   * read: fetch gives up on the answer when a later write of the body fails. Either is sent again
   * on a new connection of its own: a server that closed one idle connection has often closed
   * the others fetch keeps beside it (their keep-alive timeouts end together). One without a body
   * goes through the client's own fetch, which follows a redirect as the first try would have.
   */
  private async once(request: HttpRequest, resent = false): Promise<HttpResponse> {
    const target = /^https?:\/\//.test(request.path) ? request.path : `${this.base}${request.path}`;
    const names = request.keyInQuery ?? [];
    const url =
      names.length === 0
        ? target
        : `${target}${target.includes('?') ? '&' : '?'}${names.map((n) => `${n}=${encodeURIComponent(request.realKeyInQuery ? this.options.apiKey : this.lookAlikeKey)}`).join('&')}`;
    const path = url.startsWith(this.base) ? url.slice(this.base.length) || '/' : url;
    const headers: Record<string, string> = {
      ...(request.withoutAccept ? {} : { accept: 'application/json' }),
      'user-agent': this.options.userAgent,
    };
    const authorization =
      request.authorization === undefined
        ? `Bearer ${this.options.apiKey}`
        : request.authorization?.value;
    if (authorization !== undefined) headers.authorization = authorization;
    if (request.authorization?.shell.includes(KEY_VARIABLE)) {
      // A value built from the key (another scheme, a changed case): hidden like the key.
      this.options.redactor?.add(request.authorization.value);
      this.options.redactor?.add(request.authorization.value.replace(/^\S+\s+/, ''));
    }
    let body: string | Blob | ReadableStream<Uint8Array> | undefined;
    const sent = sentBytes(request);
    if (sent !== undefined) {
      // A Blob without a type goes with no Content-Type (fetch names a string text/plain) and,
      // unlike a Uint8Array, can be sent again when fetch follows a 307 or 308.
      body = new Blob([sent]);
      if (!request.withoutContentType) headers['content-type'] = 'application/json';
      // A stream has no length known in advance: fetch sends it chunked.
      if (request.chunked) body = chunkedBody(sent);
    }
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    for (const [name, value] of Object.entries(request.keyHeaders ?? {})) {
      headers[name.toLowerCase()] = value.value;
    }
    for (const [name, value] of Object.entries(request.secretHeaders ?? {})) {
      headers[name.toLowerCase()] = value;
      this.options.redactor?.add(value);
      // Each cookie's value alone too, as a server may echo one of them.
      for (const pair of value.split(/;\s*/))
        this.options.redactor?.add(pair.replace(/^[^=]*=/, ''));
    }
    if (this.timeoutsInARow >= GIVE_UP_AFTER_TIMEOUTS) {
      // A run against a server that stopped answering ends in seconds, not hours.
      const reason = `not sent: the last ${this.timeoutsInARow} requests got no answer`;
      throw new RequestError('timeout', `${request.method} ${path}: ${reason}`, reason, {
        request,
        url,
      });
    }
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // fetch refuses to send Expect (undici supports no expectation) and adds an Accept to a
      // request without one: node:http sends either as it is.
      const chunked = request.chunked === true;
      const { timeoutMs } = this.options;
      const res =
        request.connection !== undefined && !resent
          ? await request.connection.send({
              url,
              method: request.method,
              headers,
              body: sent,
              chunked,
              timeoutMs,
              absoluteForm: request.absoluteForm === true,
              chunkedFraming: request.chunkedFraming,
            })
          : headers.expect !== undefined ||
              request.withoutAccept ||
              request.inPieces ||
              (resent && (sent !== undefined || !this.#pool))
            ? await sendWithNodeHttp(url, request.method, headers, sent, chunked, {
                timeoutMs,
                ...(request.inPieces && sent !== undefined
                  ? { pieces: chunked ? bytePieces(sent) : piecesInsideCharacters(sent) }
                  : {}),
              })
            : await fetchFollowingSameMethod(
                resent ? (this.#pool as FetchPool).fetchOnNewConnection : this.#fetch,
                url,
                {
                  method: request.method,
                  headers,
                  body,
                  signal: AbortSignal.timeout(this.options.timeoutMs),
                  ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
                } as RequestInit,
                () => (request.chunked && sent !== undefined ? chunkedBody(sent) : body),
              );
      const bytes = await readAll(res);
      const text = new TextDecoder().decode(bytes);
      const ms = elapsed();
      this.timeoutsInARow = 0;
      this.log.push({ method: request.method, path, status: res.status, ms });
      return {
        request,
        method: request.method,
        path,
        url,
        status: res.status,
        headers: res.headers,
        ms,
        sentAt: started,
        receivedAt: performance.now(),
        text,
        bytes,
        ...(res.redirected ? { redirectedTo: res.url } : {}),
        ...readBody(res.headers, text),
      };
    } catch (error) {
      const failure = this.describeFailure(request, url, path, error);
      const closedBeforeAnswer =
        failure.kind === 'network' &&
        !(error instanceof BodyCutShort) &&
        CLOSED_BEFORE_ANSWER.test(failure.reason);
      const bodyNotAllSent = sent !== undefined && /^write (EPIPE|ECONNRESET)/.test(failure.reason);
      const again =
        bodyNotAllSent || (closedBeforeAnswer && IDEMPOTENT.has(request.method.toUpperCase()));
      this.log.push({
        method: request.method,
        path,
        status: null,
        ms: elapsed(),
        error: failure.message,
      });
      if (!resent && again && !writtenOnlyRaw(request)) return this.once(request, true);
      if (failure.kind === 'timeout') this.timeoutsInARow += 1;
      throw failure;
    }
  }

  private describeFailure(
    request: HttpRequest,
    url: string,
    path: string,
    error: unknown,
  ): RequestError {
    const { method } = request;
    const name = (error as { name?: string } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      const reason = `no answer within ${this.options.timeoutMs} ms`;
      return new RequestError('timeout', `${method} ${path}: ${reason}`, reason, { request, url });
    }
    if (error instanceof BodyCutShort) {
      return new RequestError('network', `${method} ${path}: ${error.message}`, error.message, {
        request,
        url,
      });
    }
    const reason = failureReason(error);
    return new RequestError('network', `${method} ${path} failed: ${reason}`, reason, {
      request,
      url,
    });
  }
}

/** Status codes of a redirect that RFC 9110 (15.4) has a client follow with the same method. */
const SAME_METHOD_REDIRECTS: ReadonlySet<number> = new Set([307, 308]);

/** How many redirects `fetchFollowingSameMethod` follows, as fetch does (WHATWG Fetch 4.4). */
const MAX_REDIRECTS = 20;

/**
 * Sends with `send`, following a `GET` or `HEAD` request's redirects as fetch does, and any other
 * request's `307` and `308` alone, with its method and body (`bodyAgain` gives a body that can be
 * sent once more), and only on the request's own origin: the request carries the key, which goes
 * nowhere else (fetch drops it on a redirect to another origin; the kit does not follow one).
 * Fetch follows a `301`, `302` or `303` to a `POST` with a `GET`: the answer to a create
 * redirected so (Post/Redirect/Get) would be the followed read's, not the create's own.
 */
async function fetchFollowingSameMethod(
  send: typeof fetch,
  url: string,
  init: RequestInit,
  bodyAgain: () => RequestInit['body'],
): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  if (method === 'GET' || method === 'HEAD') return send(url, init);
  let target = url;
  let res = await send(target, { ...init, redirect: 'manual' });
  for (let hops = 0; hops < MAX_REDIRECTS; hops++) {
    const location = res.headers.get('location');
    if (!SAME_METHOD_REDIRECTS.has(res.status) || location === null) return res;
    const next = URL.parse(location, target);
    if (next === null || next.origin !== new URL(url).origin) return res;
    await res.body?.cancel();
    target = next.href;
    res = await send(target, { ...init, body: bodyAgain(), redirect: 'manual' });
  }
  return res;
}

/**
 * Sends a request with node:http, its head and whole body handed over at once (chunked when
 * `chunked`) or in `pieces`, on `agent`'s connection or on one of its own, and gives the answer as
 * a fetch `Response`. A connection of its own is closed once the answer has come, but the request says
 * keep-alive, as the kit's others do: asked to close, some servers (Helidon) read a body they
 * refused unread as another request and answer it too, and node:http fails on those bytes.
 */
function sendWithNodeHttp(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  chunked: boolean,
  {
    timeoutMs,
    agent,
    absoluteForm,
    pieces,
  }: {
    timeoutMs: number;
    agent?: HttpAgent | undefined;
    absoluteForm?: boolean | undefined;
    pieces?: readonly Uint8Array[];
  },
): Promise<Response> {
  // The codings fetch asks for, taken off as fetch takes them off: both ways read one answer.
  const head: Record<string, string> = {
    'accept-encoding': url.startsWith('https:') ? 'br, gzip, deflate' : 'gzip, deflate',
    ...headers,
  };
  if (body !== undefined && chunked) head['transfer-encoding'] = 'chunked';
  else if (body !== undefined) head['content-length'] = String(body.length);
  const secure = url.startsWith('https:');
  const send = secure ? httpsRequest : httpRequest;
  const own = agent === undefined ? keptAliveAgent(secure) : undefined;
  return new Promise<Response>((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        headers: head,
        agent: agent ?? own,
        timeout: timeoutMs,
        ...(absoluteForm ? { path: absoluteTarget(new URL(url)) } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const answer = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            answer.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
          }
          const status = res.statusCode ?? 0;
          const empty = [204, 205, 304].includes(status);
          const coding = res.headers['content-encoding'];
          const bytes = withoutContentCoding(Buffer.concat(chunks), coding);
          if (bytes === undefined) {
            reject(new Error(`the body is not in its Content-Encoding: ${coding}`));
            return;
          }
          resolve(new Response(empty ? null : bytes, { status, headers: answer }));
        });
      },
    );
    req.on('timeout', () => {
      req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
    });
    req.on('error', reject);
    if (pieces === undefined) req.end(body);
    else writeInPieces(req, pieces, !chunked).catch(reject);
  }).finally(() => own?.destroy());
}

/** How long a piece of a body sent in pieces waits after the one before it. */
const PIECE_PAUSE_MS = 20;

/**
 * Writes `pieces` and ends `req`: with `paused`, each after a pause, so that the server reads it
 * apart from the one before; else all at once (chunked, each write is a chunk of its own).
 */
async function writeInPieces(
  req: ClientRequest,
  pieces: readonly Uint8Array[],
  paused: boolean,
): Promise<void> {
  for (const [at, piece] of pieces.entries()) {
    if (paused && at > 0) await sleep(PIECE_PAUSE_MS);
    if (req.destroyed) return;
    req.write(piece);
  }
  req.end();
}

/** How a connection closed before any answer shows in a failed fetch. */
export const CLOSED_BEFORE_ANSWER = /ECONNRESET|EPIPE|other side closed|socket hang up/;

/** A body that ended before the length its `Content-Length` declared. */
class BodyCutShort extends Error {}

/**
 * The whole body of `res`. When the connection ends first, says what the server did wrong: a
 * `Content-Length` larger than the body it sent (`other side closed` says only what was seen).
 */
async function readAll(res: Response): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for await (const chunk of res.body ?? []) {
      chunks.push(chunk);
      received += chunk.length;
    }
  } catch (error) {
    const declared = res.headers.get('content-length');
    if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > received) {
      throw new BodyCutShort(
        `the server declared Content-Length: ${declared.trim()} but sent ${received} bytes of body and closed the connection`,
      );
    }
    throw error;
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The text of the body `request` carries before any padding; undefined for none or bytes. */
export function sentText(request: HttpRequest): string | undefined {
  return (
    request.keyBody?.value ??
    request.rawBody ??
    (request.json === undefined ? undefined : JSON.stringify(request.json))
  );
}

/** The body `request` carries, as bytes; undefined when it carries none. */
export function sentBytes(request: HttpRequest): Uint8Array | undefined {
  if (request.rawBytes !== undefined) return request.rawBytes;
  let text = sentText(request);
  if (text === undefined) return undefined;
  if (request.nesting !== undefined) {
    const [head, tail] = nestedAt(text);
    text = `${head}${'['.repeat(request.nesting)}${']'.repeat(request.nesting)}${tail}`;
  }
  const [head, tail] = paddedAt(text);
  return new TextEncoder().encode(
    request.padding === undefined ? text : `${head}${' '.repeat(request.padding)}${tail}`,
  );
}

/** `text` around its first `[]`, which `nesting` writes deeper. */
export function nestedAt(text: string): [head: string, tail: string] {
  const at = text.indexOf('[]');
  if (at === -1) throw new Error(`a nested body needs [] to nest: ${text}`);
  return [text.slice(0, at), text.slice(at + 2)];
}

/** `text` cut after its first `,`: where `padding` goes. */
export function paddedAt(text: string): [head: string, tail: string] {
  const at = text.indexOf(',') + 1;
  return [text.slice(0, at), text.slice(at)];
}

/** `bytes` as a stream of two chunks, so that fetch sends them with `Transfer-Encoding: chunked`. */
function chunkedBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, half));
      controller.enqueue(bytes.slice(half));
      controller.close();
    },
  });
}

/** The media type a message's Content-Type names, in lower case, without parameters; '' for none. */
export function mediaTypeOf(headers: Headers): string {
  return (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The media type and parsed body of an answer's text (traffic judged from a HAR file reads bodies so too). */
export function readBody(
  headers: Headers,
  text: string,
): Pick<HttpResponse, 'mediaType' | 'body' | 'jsonError'> {
  const mediaType = mediaTypeOf(headers);
  if (text.trim() === '') return { mediaType, body: undefined, jsonError: 'the body is empty' };
  try {
    return { mediaType, body: parseJson(text) };
  } catch (error) {
    return {
      mediaType,
      body: undefined,
      jsonError: `the body is not JSON (${(error as Error).message})`,
    };
  }
}

/**
 * The innermost useful reason of a failed fetch, e.g. `connect ECONNREFUSED 127.0.0.1:9`, and its
 * code when it has one (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`).
 */
function innermostCause(error: unknown): { message: string; code?: string } {
  let current = error as { message?: string; cause?: unknown; errors?: unknown[]; code?: string };
  while (current?.cause || (current?.errors && current.errors.length > 0)) {
    current = (current.cause ?? current.errors?.[0]) as typeof current;
  }
  const message = current?.message || current?.code || String(error);
  return typeof current?.code === 'string' ? { message, code: current.code } : { message };
}

/**
 * The TLS errors of a certificate chain that ends at no CA the kit trusts: often a CA of the
 * server's own, or of its organisation, which Node adds to its CAs from `NODE_EXTRA_CA_CERTS`.
 */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

/**
 * Why a request failed, in words, with what to do about it where the kit knows (a CA to trust, a
 * header size to read): the kit's own requests and the proxy's to its target say it alike.
 */
export function failureReason(error: unknown): string {
  return failureWords(innermostCause(error));
}

/** A failure's cause in words, with what to do about it where the kit knows. */
function failureWords({ message, code }: { message: string; code?: string }): string {
  // Fetch will not connect to some ports at all (the Fetch standard's "bad ports").
  if (message === 'bad port') return 'fetch refuses to connect to this port';
  if (code !== undefined && UNTRUSTED_CERTIFICATE.has(code)) return `${message} (${TRUST_HINT})`;
  if (code !== undefined && HEADER_OVERFLOW.has(code)) return `${message} (${HEADER_HINT})`;
  return message;
}

/** Codes of an answer whose header lines exceed what Node reads: undici's (fetch) and llhttp's. */
const HEADER_OVERFLOW = new Set(['UND_ERR_HEADERS_OVERFLOW', 'HPE_HEADER_OVERFLOW']);

/** HTTP lets a client limit a header section (RFC 9110 §5.4); Node's limit is a flag of its own. */
const HEADER_HINT = `the answer's header lines exceed the ${maxHeaderSize} bytes Node reads; to read more, run the kit with NODE_OPTIONS=--max-http-header-size=<bytes>`;

const TRUST_HINT =
  "to trust the server's CA, set NODE_EXTRA_CA_CERTS to the file of its certificate (PEM)";

/**
 * Milliseconds to wait after an answer asking to come back later, from `Retry-After` (seconds or
 * HTTP-date), capped.
 */
export function retryDelay(retryAfter: string | null, capMs: number): number {
  let ms = 1000;
  if (retryAfter !== null && /^\s*\d+\s*$/.test(retryAfter)) ms = Number(retryAfter) * 1000;
  else if (retryAfter !== null && !Number.isNaN(Date.parse(retryAfter))) {
    ms = Date.parse(retryAfter) - Date.now();
  }
  return Math.min(Math.max(ms, 0), capMs);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
