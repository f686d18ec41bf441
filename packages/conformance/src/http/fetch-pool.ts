import { Agent, Client, type Dispatcher, fetch as undiciFetch } from 'undici';
import { IDEMPOTENT } from './methods.js';

/**
 * The connections the kit's fetch requests go on: the run's own, not the process's shared pool.
 *
 * - The run can close the idle ones: a check of how a server treats a kept-alive connection must
 *   not find the server's limit on kept-alive connections (cheroot keeps 10) spent on the kit's
 *   own idle ones, which a run's concurrent creates leave behind. A run leaves no connection open
 *   when it ends.
 * - A request that is not idempotent (a createPet) goes on a new connection, closed after its
 *   answer (the request itself asks for nothing: a `Connection: close` changes how some servers
 *   treat it). A server may close an idle kept-alive connection at any moment (RFC 9112 §9.5), and
 *   a request sent on it just then gets no answer; an idempotent one is sent again, but a
 *   createPet may not be (§9.3.1), and its lost answer would fail checks on a conforming server.
 *
 * undici's own `fetch` goes with its `Agent`: a dispatcher of one undici major does not work with
 * the fetch another Node major carries.
 */
export class FetchPool {
  #kept: Agent;
  readonly #once: Dispatcher;

  /** `connections`: the most kept-alive ones to one origin at once; more requests wait their turn. */
  constructor(private readonly connections?: number) {
    this.#kept = this.#newAgent();
    // The agent only carries the interceptor: each request goes on the client made for it.
    this.#once = new Agent().compose(() => (options, handler) => {
      // A client of its own, closed once this request's answer has come: the connection carries
      // no other request. The request says nothing of closing: it is sent as any other.
      const client = new Client(options.origin as string | URL);
      const dispatched = client.dispatch(options, handler);
      void client.close();
      return dispatched;
    });
  }

  /** Sends an idempotent request on a kept-alive connection, any other on a new one. */
  readonly fetch: typeof fetch = (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    return this.#send(input, init, IDEMPOTENT.has(method) ? this.#kept : this.#once);
  };

  /** Sends the request on a new connection, closed after its answer. */
  readonly fetchOnNewConnection: typeof fetch = (input, init) =>
    this.#send(input, init, this.#once);

  #send(input: unknown, init: RequestInit | undefined, dispatcher: Dispatcher): Promise<Response> {
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    }) as unknown as Promise<Response>;
  }

  /** Closes the idle kept-alive connections; requests after it go on new ones. */
  async closeIdle(): Promise<void> {
    const idle = this.#kept;
    this.#kept = this.#newAgent();
    await idle.close();
  }

  /** Closes every kept-alive connection (the others close after their answer). */
  async close(): Promise<void> {
    await this.#kept.close();
  }

  #newAgent(): Agent {
    return new Agent(this.connections === undefined ? {} : { connections: this.connections });
  }
}
