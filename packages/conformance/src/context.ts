import type { Fixtures, SentPet } from './fixtures.js';
import type { HttpClient, HttpRequest, HttpResponse } from './http/client.js';

/** What a check gets: the HTTP client, the shared fixtures and every answer seen so far. */
export class CheckContext {
  /** Every final answer the kit received, in order (the `errors` group judges them). */
  readonly responses: HttpResponse[] = [];
  private readonly memos = new Map<string, Promise<unknown>>();

  constructor(
    private readonly http: HttpClient,
    readonly fixtures: Fixtures,
    readonly readOnly: boolean,
    /** The valid key, for checks that send it in an unusual form. */
    readonly apiKey: string,
    /** Seeds every generated case, so a run can be replayed. */
    readonly seed: number,
    /** The pet set the operator loaded (`--fixtures`), for the checks that read it. */
    readonly fixtureSet: readonly SentPet[] = [],
    /**
     * The key may go where it is logged (`--disposable-key`): it is sent in the query string and
     * in header fields other than `Authorization` too.
     */
    readonly disposableKey = false,
  ) {}

  /**
   * Sends one request (retrying on 429 or 503, with the run's timeout). A read first waits out
   * the settle time after the last write, for servers whose reads lag their writes.
   */
  async send(request: HttpRequest): Promise<HttpResponse> {
    if (request.method !== 'POST') await this.fixtures.settled();
    return this.http.send(request);
  }

  /** Closes the kit's idle connections to the server (see `HttpClient.closeIdleConnections`). */
  closeIdleConnections(): Promise<void> {
    return this.http.closeIdleConnections();
  }

  /** Runs `make` once per key and shares its promise. */
  memo<T>(key: string, make: () => Promise<T>): Promise<T> {
    let found = this.memos.get(key) as Promise<T> | undefined;
    if (found === undefined) {
      found = make();
      this.memos.set(key, found);
    }
    return found;
  }

  /**
   * A random key of the valid key's shape that is not it, the same for the whole run: what goes
   * where a key would be logged (a URL, a header field other than `Authorization`).
   */
  get lookAlikeKey(): string {
    return this.http.lookAlikeKey;
  }

  /** The base URL every request goes below. */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** `GET /pets<query>` with the valid key, shared between checks while the data stays the same. */
  list(query = ''): Promise<HttpResponse> {
    const key = `GET /pets${query} after ${this.fixtures.creations} created`;
    return this.memo(key, () => this.send({ method: 'GET', path: `/pets${query}` }));
  }
}
