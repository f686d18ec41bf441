import type { NewPet, Pet, PetStatus } from '@animal-store/contract';
import { type Environment, resolveBaseUrl } from './environments.js';
import { AnimalStoreError, GoneError } from './errors.js';
import { linkTarget, parseHttpDate, parseRetryAfter, parseStructuredDate } from './headers.js';
import { isAbort, newIdempotencyKey, type RetryOptions, sleep } from './retry.js';

export interface ClientOptions {
  /** `production`, `staging`, `local`, or a base address ending with `/v1`. */
  baseUrl: Environment | (string & {});
  /** The API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Retries of what is safe to retry (see the README); `false` never retries. */
  retry?: RetryOptions | false;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof globalThis.fetch;
  /** How to wait before a retry; default a timer. Tests pass one that returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The current time in milliseconds, for `Retry-After` dates; default `Date.now`. */
  now?: () => number;
}

/** The filter and page size of a listing. */
export interface ListOptions {
  status?: PetStatus;
  /** Animals per page (1 to 100; the API's default 20). */
  limit?: number;
  /** Start after this id. */
  after?: number;
  signal?: AbortSignal;
}

/** One page of a listing, and the query of the next one when there is more. */
export interface PetPage {
  pets: Pet[];
  next: ListOptions | undefined;
  requestId: string | undefined;
}

export interface CreateOptions {
  /** The `Idempotency-Key`; `true` makes one. With a key, every retry sends the same key. */
  idempotencyKey?: string | true;
  signal?: AbortSignal;
}

export interface Created {
  pet: Pet;
  /** `true` when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
  /** The key sent, if any: keep it to retry this create later. */
  idempotencyKey: string | undefined;
  requestId: string | undefined;
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
}

interface Call {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** Whether sending it twice is harmless: retries network errors, 503, 409 and 429. */
  repeatable: boolean;
}

const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 3, maxDelayMs: 60_000, backoffMs: 500 };

/** The Animal Store API. */
export class AnimalStoreClient {
  readonly baseUrl: string;
  /** The animals in the store. */
  readonly pets: PetsApi;
  readonly #apiKey: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #retry: Required<RetryOptions>;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;

  constructor(options: ClientOptions) {
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#retry =
      options.retry === false
        ? { ...DEFAULT_RETRY, attempts: 1 }
        : { ...DEFAULT_RETRY, ...options.retry };
    this.#sleep = options.sleep ?? sleep;
    this.#now = options.now ?? Date.now;
    this.pets = new PetsApi(this);
  }

  /** Sends `call`, retrying what is safe, and returns the successful answer. */
  async send(call: Call): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.#retry.attempts;
      const backoff = this.#retry.backoffMs * 2 ** (attempt - 1);
      let res: Response;
      try {
        res = await this.#fetch(call.url, {
          method: call.method,
          headers: { Authorization: `Bearer ${this.#apiKey}`, ...call.headers },
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.signal ? { signal: call.signal } : {}),
        });
      } catch (error) {
        if (isAbort(error, call.signal)) throw error;
        if (!call.repeatable || last || backoff > this.#retry.maxDelayMs) {
          throw new AnimalStoreError(
            {
              code: 'network_error',
              status: 0,
              message: `${call.method} ${call.url}: no answer (${error instanceof Error ? error.message : String(error)})`,
            },
            { cause: error },
          );
        }
        await this.#sleep(backoff, call.signal);
        continue;
      }
      if (res.ok) return res;
      const retryable =
        res.status === 429 || (call.repeatable && (res.status === 503 || res.status === 409));
      const delay = parseRetryAfter(res.headers.get('Retry-After'), this.#now()) ?? backoff;
      if (!retryable || last || delay > this.#retry.maxDelayMs) throw await this.#failure(res);
      await res.body?.cancel();
      await this.#sleep(delay, call.signal);
    }
  }

  /** The error an unsuccessful answer stands for. */
  async #failure(res: Response): Promise<AnimalStoreError> {
    const requestId = res.headers.get('X-Request-Id') ?? undefined;
    const text = await res.text().catch(() => '');
    let body: { code?: unknown; message?: unknown; details?: unknown } | undefined;
    try {
      body = JSON.parse(text);
    } catch {}
    if (typeof body?.code !== 'string' || typeof body.message !== 'string') {
      return new AnimalStoreError({
        code: 'unexpected_response',
        status: res.status,
        message: `HTTP ${res.status} without an Error body: ${text.slice(0, 200)}`,
        requestId,
      });
    }
    const init = {
      code: body.code,
      status: res.status,
      message: body.message,
      details: Array.isArray(body.details) ? body.details : [],
      requestId,
    };
    if (res.status !== 410) return new AnimalStoreError(init);
    return new GoneError({
      ...init,
      sunsetAt: parseHttpDate(res.headers.get('Sunset')),
      successor: this.successorOf(res),
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
    const { signal, ...query } = options;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.set(name, String(value));
    }
    const search = params.size > 0 ? `?${params}` : '';
    const res = await this.#client.send({
      method: 'GET',
      url: `${this.#client.baseUrl}/pets${search}`,
      signal,
      repeatable: true,
    });
    const pets = (await res.json()) as Pet[];
    return { pets, next: nextQuery(res, options), requestId: requestIdOf(res) };
  }

  /**
   * Adds an animal. With an `idempotencyKey` a network error, `503`, `409` (the same key still in
   * progress) or `429` is retried with the same key and body, and `replayed` tells whether the
   * answer is the stored one of an earlier request; without a key only `429` is retried.
   */
  async create(pet: NewPet, options: CreateOptions = {}): Promise<Created> {
    const key = options.idempotencyKey === true ? newIdempotencyKey() : options.idempotencyKey;
    const res = await this.#client.send({
      method: 'POST',
      url: `${this.#client.baseUrl}/pets`,
      headers: {
        'Content-Type': 'application/json',
        ...(key === undefined ? {} : { 'Idempotency-Key': key }),
      },
      body: JSON.stringify(pet),
      signal: options.signal,
      repeatable: key !== undefined,
    });
    return {
      pet: (await res.json()) as Pet,
      replayed: res.headers.get('Idempotency-Replayed') === 'true',
      idempotencyKey: key,
      requestId: requestIdOf(res),
    };
  }

  /**
   * One animal by its id.
   *
   * @deprecated Removed on 2030-12-05 (then it throws `GoneError`, `410 gone`); use
   * {@link PetsApi.list} with the `status` filter instead.
   */
  async get(petId: number, options: { signal?: AbortSignal } = {}): Promise<Fetched> {
    const res = await this.#client.send({
      method: 'GET',
      url: `${this.#client.baseUrl}/pets/${encodeURIComponent(String(petId))}`,
      signal: options.signal,
      repeatable: true,
    });
    return {
      pet: (await res.json()) as Pet,
      deprecatedAt: parseStructuredDate(res.headers.get('Deprecation')),
      sunsetAt: parseHttpDate(res.headers.get('Sunset')),
      successor: this.#client.successorOf(res),
      requestId: requestIdOf(res),
    };
  }
}

function requestIdOf(res: Response): string | undefined {
  return res.headers.get('X-Request-Id') ?? undefined;
}

/**
 * The query of the next page: the parameters of the `Link rel="next"` target, sent to the
 * client's own base address (the target's path starts at the server root, which may differ).
 */
function nextQuery(res: Response, current: ListOptions): ListOptions | undefined {
  const target = linkTarget(res.headers.get('Link'), 'next');
  if (target === undefined) return undefined;
  const params = new URL(target, 'http://link.invalid').searchParams;
  const number = (name: string) => (params.has(name) ? Number(params.get(name)) : undefined);
  const next: ListOptions = {};
  const status = params.get('status');
  if (status !== null) next.status = status as PetStatus;
  const limit = number('limit');
  if (limit !== undefined) next.limit = limit;
  const after = number('after');
  if (after !== undefined) next.after = after;
  if (current.signal) next.signal = current.signal;
  return next;
}
