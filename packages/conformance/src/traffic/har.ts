// Reads a HAR 1.2 file (W3C Web Performance draft "HTTP Archive 1.2"), as browsers, Playwright's
// `recordHar`, mitmproxy and most HTTP tools export it, into recorded exchanges.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from '../run.js';
import { type HeaderLine, type RecordedExchange, requestBodyText } from './exchange.js';

interface HarHeader {
  readonly name?: unknown;
  readonly value?: unknown;
}

interface HarEntry {
  /** Playwright's mark of an entry a service worker sent (its own requests, not the page's). */
  readonly _serviceWorkerRef?: unknown;
  /** Playwright's marks of a test's own request (`page.request`, `context.request`), no page's. */
  readonly _apiRequest?: unknown;
  readonly _apiRequestRef?: unknown;
  /** Playwright's port of the server the answer came from, when it came from one. */
  readonly _serverPort?: unknown;
  readonly serverIPAddress?: unknown;
  /** Chrome's mark of an answer from the browser's cache: `memory` or `disk`. */
  readonly _fromCache?: unknown;
  /** Playwright's mark of an answer its test gave (`route.fulfill()`): no server saw the request. */
  readonly _wasFulfilled?: unknown;
  /** WebKit's (Safari's) source of an answer: `Network Load`, `Memory Cache`, `Disk Cache`, `Service Worker`… */
  readonly _fetchType?: unknown;
  /** HAR's cache state; chrome-har writes `beforeRequest` only for an answer from the browser's cache. */
  readonly cache?: { readonly beforeRequest?: unknown };
  readonly startedDateTime?: unknown;
  readonly time?: unknown;
  readonly request?: {
    readonly method?: unknown;
    readonly url?: unknown;
    readonly headers?: unknown;
    readonly postData?: { readonly text?: unknown; readonly encoding?: unknown };
    /** The body's size in bytes; -1 when the recorder did not know it. */
    readonly bodySize?: unknown;
  };
  readonly response?: {
    /** Chrome's mark of an answer a service worker gave the page (from its caches or a fetch of its own). */
    readonly _fetchedViaServiceWorker?: unknown;
    /**
     * The Chrome DevTools Protocol's marks of an answer from the browser's cache, its prefetch
     * cache or a service worker, as `chrome-har` (sitespeed.io, puppeteer-har) copies them; an
     * answer a page took from a `103`'s hints is marked `fromDiskCache` and `fromEarlyHints`.
     */
    readonly fromDiskCache?: unknown;
    readonly fromEarlyHints?: unknown;
    readonly fromPrefetchCache?: unknown;
    readonly fromServiceWorker?: unknown;
    readonly status?: unknown;
    /** The body's size on the wire; -1 when the recorder did not know it. */
    readonly bodySize?: unknown;
    readonly headers?: unknown;
    readonly content?: {
      readonly text?: unknown;
      readonly encoding?: unknown;
      readonly size?: unknown;
    };
  };
}

function headerLines(value: unknown): HeaderLine[] {
  if (!Array.isArray(value)) return [];
  return (value as HarHeader[]).flatMap((h) =>
    typeof h?.name === 'string' && typeof h.value === 'string' ? [[h.name, h.value] as const] : [],
  );
}

/**
 * The bytes of a HAR text (`encoding: base64` or plain text), or undefined when none was kept: no
 * text, or an empty one for a body that a size says had bytes (a recorder that dropped it).
 */
function bytesOf(
  text: unknown,
  encoding: unknown,
  ...sizes: readonly unknown[]
): Uint8Array | undefined {
  if (typeof text !== 'string') return undefined;
  if (text === '' && sizes.some((size) => typeof size === 'number' && size > 0)) return undefined;
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

/** The answer's `Content-Length` as a number, or undefined. */
function contentLength(lines: readonly HeaderLine[]): number | undefined {
  const line = lines.find(([name]) => name.toLowerCase() === 'content-length');
  return line === undefined || !/^\d+$/.test(line[1].trim()) ? undefined : Number(line[1]);
}

/**
 * One entry as a recorded exchange, and whether its duration is known; throws a message on an
 * entry that is no HAR entry.
 */
function entryOf(
  value: unknown,
  n: number,
  recording: Recording,
): { exchange: RecordedExchange; timed: boolean } {
  const entry: HarEntry = typeof value === 'object' && value !== null ? value : {};
  const { request, response } = entry;
  const method = request?.method;
  const url = request?.url;
  if (typeof method !== 'string' || typeof url !== 'string' || !URL.canParse(url)) {
    throw new Error(`entry ${n} has no request method and absolute URL`);
  }
  const status = typeof response?.status === 'number' ? response.status : 0;
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : 0;
  const sentAt = Number.isFinite(started) ? started : 0;
  const timed = typeof entry.time === 'number' && entry.time > 0;
  const time = timed ? (entry.time as number) : 0;
  const body = bytesOf(request?.postData?.text, request?.postData?.encoding);
  const text = body === undefined ? undefined : requestBodyText(body);
  const responseHeaders = headerLines(response?.headers);
  const exchange: RecordedExchange = {
    method: method.toUpperCase(),
    url,
    requestHeaders: headerLines(request?.headers),
    ...(text === undefined
      ? {}
      : { requestBody: text, requestBodyWhole: request?.bodySize === body?.length }),
    status,
    responseHeaders,
    // Playwright records a service worker's answers with an empty text and their true sizes.
    responseBody: bytesOf(
      response?.content?.text,
      response?.content?.encoding,
      response?.content?.size,
      response?.bodySize,
      entry.request?.method === 'HEAD' ? undefined : contentLength(responseHeaders),
    ),
    sentAt,
    receivedAt: sentAt + time,
    ...(answeredWithoutServer(entry, recording) ? { fromCache: true } : {}),
  };
  return { exchange, timed };
}

/** WebKit's sources of an answer that are no request to the server. */
const WEBKIT_LOCAL_FETCHES = new Set(['Memory Cache', 'Disk Cache', 'Service Worker']);

/** What a recording as a whole tells of how to read its entries' marks. */
interface Recording {
  /** A service worker sent requests, and the page's requests carry the server's address. */
  readonly workers: boolean;
  /** Built by chrome-har, which marks a memory cache's answer only with `cache.beforeRequest`. */
  readonly chromeHar: boolean;
}

/**
 * True when something other than the server answered the entry: the browser's cache (Chrome's
 * `_fromCache`, WebKit's `_fetchType`, the DevTools Protocol's `fromDiskCache` but for an early
 * hint's, `fromPrefetchCache`, and chrome-har's `cache.beforeRequest`), a service worker (the
 * page's side: a worker's own request is an entry of its own where the recorder records workers,
 * and unjudged where it does not, as chrome-har), or a Playwright test's `route.fulfill()`.
 * Playwright marks no answer of a worker's on the page's side; in a recording where a worker sent
 * requests and the page's requests to servers carry the server's address, a page's entry with
 * none may be one (`workers`).
 */
function answeredWithoutServer(entry: HarEntry, recording: Recording): boolean {
  const response = entry.response;
  const earlyHint = response?.fromEarlyHints === true;
  return (
    (typeof entry._fromCache === 'string' && entry._fromCache !== '') ||
    response?._fetchedViaServiceWorker === true ||
    (response?.fromDiskCache === true && !earlyHint) ||
    response?.fromPrefetchCache === true ||
    response?.fromServiceWorker === true ||
    (recording.chromeHar &&
      !earlyHint &&
      typeof entry.cache?.beforeRequest === 'object' &&
      entry.cache.beforeRequest !== null) ||
    entry._wasFulfilled === true ||
    WEBKIT_LOCAL_FETCHES.has(entry._fetchType as string) ||
    (recording.workers && isPageEntry(entry) && !addressed(entry))
  );
}

/** True for an entry of a page's request: no service worker's, nor a test's own (`page.request`). */
function isPageEntry(entry: HarEntry): boolean {
  return (
    entry._serviceWorkerRef === undefined &&
    entry._apiRequest === undefined &&
    entry._apiRequestRef === undefined
  );
}

/** True for an entry that names the server it reached (Playwright leaves a cache's answer without). */
function addressed(entry: HarEntry): boolean {
  return (
    entry._serverPort !== undefined ||
    (typeof entry.serverIPAddress === 'string' && entry.serverIPAddress !== '')
  );
}

/** Header fields about one connection, which a cache does not store (RFC 9111 §3.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'age',
]);

/** The lines of `lines` a cache stores, their names lower-cased. */
function storedLines(lines: readonly HeaderLine[]): string[] {
  return lines
    .filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()))
    .map(([name, value]) => `${name.toLowerCase()}: ${value.trim()}`);
}

/** The values of the field `name` in `lines`, joined as one list. */
function field(lines: readonly HeaderLine[], name: string): string {
  return lines
    .filter(([n]) => n.toLowerCase() === name)
    .map(([, v]) => v.trim())
    .join(', ');
}

/**
 * True when `earlier`, a `200` to a `GET`, is an answer a browser's cache may give again for
 * `later`'s request: one it may store (not `no-store`, RFC 9111 §3), which a fetch with
 * `cache: 'force-cache'` takes however stale; to a request with other credentials (`Authorization`,
 * `Cookie`), only one it holds fresh without asking (`max-age` above 0, `Expires`, or a
 * `Last-Modified` to reckon from; not `no-cache`, §4.2), as a page's plain later read gets it;
 * and never across a `Vary` that names a field the requests differ in (§4.1).
 */
function reusable(earlier: RecordedExchange, later: RecordedExchange): boolean {
  const control = field(earlier.responseHeaders, 'cache-control').toLowerCase();
  if (/(^|,)\s*no-store\b/.test(control)) return false;
  const credentials = ['authorization', 'cookie'];
  if (
    credentials.some(
      (name) => field(earlier.requestHeaders, name) !== field(later.requestHeaders, name),
    )
  ) {
    if (/(^|,)\s*no-cache\b/.test(control)) return false;
    const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)/.exec(control)?.[2];
    const fresh =
      maxAge !== undefined
        ? Number(maxAge) > 0
        : field(earlier.responseHeaders, 'expires') !== '' ||
          field(earlier.responseHeaders, 'last-modified') !== '';
    if (!fresh) return false;
  }
  const vary = field(earlier.responseHeaders, 'vary').toLowerCase();
  return vary
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .every(
      (name) =>
        name !== '*' && field(earlier.requestHeaders, name) === field(later.requestHeaders, name),
    );
}

/**
 * Marks `fromCache` the `200`s to a `GET` that repeat, `Date` and all, an earlier answer to the same
 * URL a browser's cache may give again (`reusable`): Playwright's and Firefox's recordings mark no
 * answer of the browser's cache, which gives its stored lines and body (a cache keeps no
 * connection's lines). An answer of the server's own carries its own `Date`, unless it comes in
 * the same second with the same lines and body.
 */
function markCacheRepeats(recorded: readonly RecordedExchange[]): RecordedExchange[] {
  // By URL, `Date` and body: a repeat is looked for among the answers that share all three.
  const stored = new Map<string, { exchange: RecordedExchange; lines: Set<string> }[]>();
  return recorded.map((exchange) => {
    if (exchange.method !== 'GET' || exchange.status !== 200 || exchange.fromCache === true) {
      return exchange;
    }
    const date = field(exchange.responseHeaders, 'date');
    if (date === '') return exchange;
    const body =
      exchange.responseBody === undefined
        ? 'none'
        : createHash('sha256').update(exchange.responseBody).digest('base64');
    const key = `${exchange.url}\n${date}\n${body}`;
    const lines = storedLines(exchange.responseHeaders);
    const earlier = stored.get(key) ?? [];
    const repeat = earlier.some(
      (other) => lines.every((line) => other.lines.has(line)) && reusable(other.exchange, exchange),
    );
    earlier.push({ exchange, lines: new Set(lines) });
    stored.set(key, earlier);
    return repeat ? { ...exchange, fromCache: true } : exchange;
  });
}

/** Recorders that mark no answer of the browser's cache (Chrome and WebKit mark theirs). */
const UNMARKED_CACHE_RECORDERS = /^(playwright|firefox)$/i;

/** The exchanges of a HAR document, in the order their answers arrived. */
export function parseHar(text: string, source = 'the HAR file'): RecordedExchange[] {
  let document: { log?: { entries?: unknown; creator?: { name?: unknown } } };
  try {
    document = JSON.parse(text) as typeof document;
  } catch (error) {
    throw new UsageError(`${source} is not JSON: ${(error as Error).message}`);
  }
  const entries = document?.log?.entries;
  if (!Array.isArray(entries)) {
    throw new UsageError(`${source} is not a HAR file: it has no log.entries array`);
  }
  const harEntries = entries.map((entry): HarEntry => (typeof entry === 'object' && entry) || {});
  const creator = document.log?.creator?.name;
  const recording: Recording = {
    workers:
      harEntries.some((entry) => entry._serviceWorkerRef !== undefined) &&
      harEntries.some((entry) => isPageEntry(entry) && addressed(entry)),
    chromeHar: typeof creator === 'string' && /^chrome-har$/i.test(creator),
  };
  const read = entries.map((entry, i) => {
    try {
      return entryOf(entry, i, recording);
    } catch (error) {
      throw new UsageError(`${source}: ${(error as Error).message}`);
    }
  });
  // An entry of unknown duration (no time, or 0) may have ended as late as the recording did: a
  // read that started before then is not held to what it wrote.
  const end = read.reduce((latest, { exchange }) => Math.max(latest, exchange.receivedAt), 0);
  const recorded = read.map(({ exchange, timed }) =>
    timed ? exchange : { ...exchange, receivedAt: Math.max(end, exchange.sentAt) },
  );
  // Answers are judged in the order they arrived: a read sees the writes answered before it.
  // The sort is stable: answers that arrived together keep the file's order.
  const sorted = recorded.sort((a, b) => a.receivedAt - b.receivedAt);
  return typeof creator === 'string' && UNMARKED_CACHE_RECORDERS.test(creator)
    ? markCacheRepeats(sorted)
    : sorted;
}

/** Reads and parses a HAR file; throws `UsageError` when it cannot be read or is no HAR. */
export function readHar(file: string): RecordedExchange[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --har ${file}: ${(error as Error).message}`);
  }
  return parseHar(text, file);
}
