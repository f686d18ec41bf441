import {
  formatListPetsQuery,
  LIST_PETS_PARAMS,
  type ListPetsQuery,
  ListPetsQuery as ListPetsQuerySchema,
  type NewPet,
  type Pet,
} from '@animal-store/contract';
import { type Environment, resolveBaseUrl } from './environments.js';
import { AnimalStoreError, GoneError } from './errors.js';
import { linkTarget, parseHttpDate, parseRetryAfter, parseStructuredDate } from './headers.js';
import { newIdempotencyKey, newRequestId, type RetryOptions, retryDelay, sleep } from './retry.js';

/** Each attempt's request, as the client sends it (the key hidden), before it is sent. */
export interface RequestEvent {
  method: string;
  url: string;
  /** 1 for the first attempt of a call, 2 for its first retry, and so on. */
  attempt: number;
  /** The call's `X-Request-Id`, the same for each of its attempts. */
  requestId: string;
  /** The headers sent, `Authorization` as `Bearer [redacted]`. */
  headers: Record<string, string>;
  body: string | undefined;
}

/** Each attempt's outcome: an answer, or none (then `error` says why). */
export interface ResponseEvent {
  method: string;
  url: string;
  attempt: number;
  requestId: string;
  /** The HTTP status; 0 when no answer arrived. */
  status: number;
  /** The raw answer, its body already read; `undefined` when none arrived. */
  response: Response | undefined;
  /** What the call throws if it is not retried; `undefined` for a success. */
  error: AnimalStoreError | undefined;
  /** Milliseconds from sending to the answer's whole body, or to the failure. */
  durationMs: number;
  /** The wait before the next attempt when this one is retried, else `undefined`. */
  retryInMs: number | undefined;
}

export interface ClientOptions {
  /** `production`, `staging`, `local`, or a base address ending with `/v1`. */
  baseUrl: Environment | (string & {});
  /** The API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** How long each attempt may take, from sending to the whole answer; default 30 s. */
  timeoutMs?: number;
  /** Retries of what is safe to retry (see the README); `false` never retries. */
  retry?: RetryOptions | false;
  /** Called before each attempt is sent: a place for a logger. */
  onRequest?: (event: RequestEvent) => void;
  /** Called after each attempt, answered or not. */
  onResponse?: (event: ResponseEvent) => void;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** How to wait before a retry; default a timer. Tests pass one that returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The current time in milliseconds, for `Retry-After` dates; default `Date.now`. */
  now?: () => number;
  /** A number in [0, 1) for the backoff's jitter; default `Math.random`. */
  random?: () => number;
}

/** What every call takes besides its own arguments. */
export interface CallOptions {
  /** Aborts the call: it throws `AnimalStoreError` with code `aborted`. */
  signal?: AbortSignal | undefined;
  /** This call's `timeoutMs`, instead of the client's. */
  timeoutMs?: number | undefined;
}

/** The query of a listing: the contract's `listPets` query parameters, each optional. */
export type ListQuery = { [name in keyof ListPetsQuery]?: ListPetsQuery[name] };

/** The query of a listing, and the call's options. */
export type ListOptions = ListQuery & CallOptions;

/** One page of a listing, and the query of the next one when there is more. */
export interface PetPage {
  pets: Pet[];
  /** The next page's query (this page's call options kept), or `undefined` on the last page. */
  next: ListOptions | undefined;
  requestId: string | undefined;
  /** The raw answer, its body already read. */
  response: Response;
}

export interface CreateOptions extends CallOptions {
  /** The `Idempotency-Key`; `true` makes one. With a key, every retry sends the same key. */
  idempotencyKey?: string | true;
}

export interface Created {
  pet: Pet;
  /** `true` when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
  /** The key sent, if any: keep it to retry this create later. */
  idempotencyKey: string | undefined;
  requestId: string | undefined;
  /** The raw answer, its body already read. */
  response: Response;
}

export interface Fetched {
  pet: Pet;
  /** When `getPet` became deprecated (`Deprecation`). */
  deprecatedAt: Date | undefined;
  /** When `getPet` is removed (`Sunset`); it answers `410 gone` from then on. */
  sunsetAt: Date | undefined;
  /** The address of its replacement (`Link rel="successor-version"`). */
  successor: string | undefined;
  requestId: string | undefined;
  /** The raw answer, its body already read. */
  response: Response;
}

interface Call extends CallOptions {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Whether sending it twice is harmless: then network errors and timeouts are retried. */
  repeatable: boolean;
}

/** A successful answer and its body's text. */
interface Answer {
  response: Response;
  text: string;
  requestId: string;
}

const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 3, maxDelayMs: 60_000, backoffMs: 500 };
/** How long an attempt may take when neither the client nor the call says. */
export const DEFAULT_TIMEOUT_MS = 30_000;
const ONLY_RATE_LIMITED = new Set([429]);
const RETRIED_READ = new Set([429, 502, 503, 504]);
const RETRIED_KEYED_CREATE = new Set([409, 429, 502, 503, 504]);

/**
 * The statuses each call retries: `429` always (the API refuses before acting); a balancer's or
 * the store's passing failure (502, 503, 504) when sending twice is harmless; `409` (the same
 * key still in progress) for a keyed create.
 */
function retriedStatuses(call: Call): ReadonlySet<number> {
  if (!call.repeatable) return ONLY_RATE_LIMITED;
  return call.method === 'POST' ? RETRIED_KEYED_CREATE : RETRIED_READ;
}

/** The key as sent: HTTP whitespace around it dropped, as `fetch` would; throws if unsendable. */
function checkedKey(apiKey: string): string {
  const key = apiKey.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  const bad = [...key].findIndex((char) => char < '!' || char > '~');
  if (key === '' || bad >= 0) {
    // The key is not repeated, nor is the character: it may be part of the secret.
    throw new TypeError(
      key === ''
        ? 'apiKey is empty'
        : `apiKey holds a character an HTTP header cannot carry, at position ${bad + 1}; ` +
            'an API key is printable ASCII without spaces',
    );
  }
  return key;
}

/** The Animal Store API. */
export class AnimalStoreClient {
  readonly baseUrl: string;
  /** The animals in the store. */
  readonly pets: PetsApi;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch;
  readonly #retry: Required<RetryOptions>;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #onRequest: ((event: RequestEvent) => void) | undefined;
  readonly #onResponse: ((event: ResponseEvent) => void) | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.#apiKey = checkedKey(options.apiKey);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#retry =
      options.retry === false
        ? { ...DEFAULT_RETRY, attempts: 1 }
        : { ...DEFAULT_RETRY, ...options.retry };
    this.#sleep = options.sleep ?? sleep;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#onRequest = options.onRequest;
    this.#onResponse = options.onResponse;
    this.pets = new PetsApi(this);
  }

  /** Sends `call`, retrying what is safe, and returns the successful answer with its body. */
  async send(call: Call): Promise<Answer> {
    const requestId = newRequestId();
    const headers = { ...call.headers, 'X-Request-Id': requestId };
    const timeoutMs = call.timeoutMs ?? this.#timeoutMs;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.#retry.attempts;
      this.#onRequest?.({
        method: call.method,
        url: call.url,
        attempt,
        requestId,
        headers: { Authorization: 'Bearer [redacted]', ...headers },
        body: call.body,
      });
      const started = this.#now();
      const outcome = await this.#attempt(call, headers, timeoutMs, requestId);
      let error: AnimalStoreError | undefined;
      let retryAfterMs: number | undefined;
      let retryable: boolean;
      if (outcome instanceof AnimalStoreError) {
        error = outcome;
        retryable = call.repeatable && error.code !== 'aborted';
      } else if (outcome.response.ok) {
        retryable = false;
      } else {
        const { response } = outcome;
        error = this.#failure(outcome);
        retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), this.#now());
        retryable = retriedStatuses(call).has(response.status);
      }
      const retryInMs =
        error && retryable && !last && (retryAfterMs ?? 0) <= this.#retry.maxDelayMs
          ? retryDelay(attempt, this.#retry, retryAfterMs, this.#random)
          : undefined;
      this.#onResponse?.({
        method: call.method,
        url: call.url,
        attempt,
        requestId,
        status: error ? error.status : (outcome as Answer).response.status,
        response: error ? error.response : (outcome as Answer).response,
        error,
        durationMs: this.#now() - started,
        retryInMs,
      });
      if (!error) return outcome as Answer;
      if (retryInMs === undefined) throw error;
      try {
        await this.#sleep(retryInMs, call.signal);
      } catch (reason) {
        if (call.signal?.aborted) throw this.#aborted(call, requestId, reason);
        throw reason;
      }
    }
  }

  /** One attempt: the answer and its body's text, or the client's error for no answer. */
  async #attempt(
    call: Call,
    headers: Record<string, string>,
    timeoutMs: number,
    requestId: string,
  ): Promise<Answer | AnimalStoreError> {
    if (call.signal?.aborted) return this.#aborted(call, requestId, call.signal.reason);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.#fetch(call.url, {
        method: call.method,
        headers: { Authorization: `Bearer ${this.#apiKey}`, ...headers },
        ...(call.body === undefined ? {} : { body: call.body }),
        signal: controller.signal,
      });
      const text = await response.text();
      return { response, text, requestId: response.headers.get('X-Request-Id') ?? requestId };
    } catch (error) {
      if (call.signal?.aborted) return this.#aborted(call, requestId, call.signal.reason);
      if (timedOut) {
        return new AnimalStoreError({
          code: 'timeout',
          status: 0,
          message: `${call.method} ${call.url}: no whole answer within ${timeoutMs} ms`,
          requestId,
        });
      }
      return new AnimalStoreError(
        {
          code: 'network_error',
          status: 0,
          message: `${call.method} ${call.url}: no answer (${error instanceof Error ? error.message : String(error)})`,
          requestId,
        },
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }

  #aborted(call: Call, requestId: string, reason: unknown): AnimalStoreError {
    return new AnimalStoreError(
      {
        code: 'aborted',
        status: 0,
        message: `${call.method} ${call.url}: aborted by the caller's signal`,
        requestId,
      },
      { cause: reason },
    );
  }

  /** The error an unsuccessful answer stands for. */
  #failure({ response, text, requestId }: Answer): AnimalStoreError {
    let body: { code?: unknown; message?: unknown; details?: unknown } | undefined;
    try {
      body = JSON.parse(text);
    } catch {}
    if (typeof body?.code !== 'string' || typeof body.message !== 'string') {
      return new AnimalStoreError({
        code: 'unexpected_response',
        status: response.status,
        message: `HTTP ${response.status} without an Error body: ${text.slice(0, 200)}`,
        requestId,
        response,
      });
    }
    const init = {
      code: body.code,
      status: response.status,
      message: body.message,
      details: Array.isArray(body.details) ? body.details : [],
      requestId,
      response,
    };
    if (response.status !== 410) return new AnimalStoreError(init);
    return new GoneError({
      ...init,
      sunsetAt: parseHttpDate(response.headers.get('Sunset')),
      successor: this.successorOf(response),
    });
  }

  /** The absolute address of a response's `Link rel="successor-version"`. */
  successorOf(res: Response): string | undefined {
    const target = linkTarget(res.headers.get('Link'), 'successor-version');
    return target === undefined ? undefined : new URL(target, this.baseUrl).href;
  }
}

/** `/pets` and `/pets/{petId}`. */
export class PetsApi {
  readonly #client: AnimalStoreClient;

  constructor(client: AnimalStoreClient) {
    this.#client = client;
  }

  /**
   * Every animal that matches, ascending by id, fetching the next page as the loop reaches it.
   * Stop the loop early to stop fetching.
   */
  async *list(options: ListOptions = {}): AsyncGenerator<Pet, void, undefined> {
    let query: ListOptions | undefined = options;
    while (query) {
      const page = await this.listPage(query);
      yield* page.pets;
      query = page.next;
    }
  }

  /** One page of animals and the query of the next page, from the answer's `Link rel="next"`. */
  async listPage(options: ListOptions = {}): Promise<PetPage> {
    const { signal, timeoutMs, ...query } = options;
    const search = formatListPetsQuery(query);
    const answer = await this.#client.send({
      method: 'GET',
      url: `${this.#client.baseUrl}/pets${search === '' ? '' : `?${search}`}`,
      signal,
      timeoutMs,
      repeatable: true,
    });
    const next = nextQuery(answer.response);
    return {
      pets: JSON.parse(answer.text) as Pet[],
      next: next && { ...next, ...callOptions(options) },
      requestId: answer.requestId,
      response: answer.response,
    };
  }

  /**
   * Adds an animal. With an `idempotencyKey` a network error, a timeout, `409` (the same key
   * still in progress), `502`, `503`, `504` or `429` is retried with the same key and body, and
   * `replayed` tells whether the answer is the stored one of an earlier request; without a key
   * only `429` is retried.
   */
  async create(pet: NewPet, options: CreateOptions = {}): Promise<Created> {
    const key = options.idempotencyKey === true ? newIdempotencyKey() : options.idempotencyKey;
    const answer = await this.#client.send({
      method: 'POST',
      url: `${this.#client.baseUrl}/pets`,
      headers: {
        'Content-Type': 'application/json',
        ...(key === undefined ? {} : { 'Idempotency-Key': key }),
      },
      body: JSON.stringify(pet),
      ...callOptions(options),
      repeatable: key !== undefined,
    });
    return {
      pet: JSON.parse(answer.text) as Pet,
      replayed: answer.response.headers.get('Idempotency-Replayed') === 'true',
      idempotencyKey: key,
      requestId: answer.requestId,
      response: answer.response,
    };
  }

  /**
   * One animal by its id.
   *
   * @deprecated Removed on 2030-12-05 (then it throws `GoneError`, `410 gone`); use
   * {@link PetsApi.list} with the `status` filter instead.
   */
  async get(petId: number, options: CallOptions = {}): Promise<Fetched> {
    const answer = await this.#client.send({
      method: 'GET',
      url: `${this.#client.baseUrl}/pets/${encodeURIComponent(String(petId))}`,
      ...callOptions(options),
      repeatable: true,
    });
    const { response } = answer;
    return {
      pet: JSON.parse(answer.text) as Pet,
      deprecatedAt: parseStructuredDate(response.headers.get('Deprecation')),
      sunsetAt: parseHttpDate(response.headers.get('Sunset')),
      successor: this.#client.successorOf(response),
      requestId: answer.requestId,
      response,
    };
  }
}

/** The call options among `options`, those that are set. */
function callOptions(options: CallOptions): CallOptions {
  const picked: CallOptions = {};
  if (options.signal) picked.signal = options.signal;
  if (options.timeoutMs !== undefined) picked.timeoutMs = options.timeoutMs;
  return picked;
}

/** Whether the contract types `listPets`' parameter `name` as an integer. */
function isInteger(name: keyof ListPetsQuery): boolean {
  return (ListPetsQuerySchema.properties[name] as { type?: unknown }).type === 'integer';
}

/**
 * The query of the next page: each of the contract's `listPets` parameters in the
 * `Link rel="next"` target, typed as the contract types it. The target's path starts at the
 * server root, which may differ from the base address: only its query is taken.
 */
function nextQuery(res: Response): ListQuery | undefined {
  const target = linkTarget(res.headers.get('Link'), 'next');
  if (target === undefined) return undefined;
  const params = new URL(target, 'http://link.invalid').searchParams;
  const next: Record<string, string | number> = {};
  for (const name of LIST_PETS_PARAMS) {
    const value = params.get(name);
    if (value !== null) next[name] = isInteger(name) ? Number(value) : value;
  }
  return next as ListQuery;
}
