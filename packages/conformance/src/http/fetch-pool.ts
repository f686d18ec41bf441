import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The connections the kit's fetch requests go on: the run's own, not the process's shared pool,
 * so that the run can close the idle ones. A check of how a server treats a kept-alive connection
 * must not find the server's limit on kept-alive connections (cheroot keeps 10) spent on the
 * kit's own idle ones, which a run's concurrent creates leave behind; and a run leaves no
 * connection open when it ends. undici's own `fetch` goes with its `Agent`: a dispatcher of one
 * undici major does not work with the fetch another Node major carries.
 */
export class FetchPool {
  #agent: Agent;

  /** `connections`: the most the pool opens to one origin at once; more requests wait their turn. */
  constructor(private readonly connections?: number) {
    this.#agent = this.#newAgent();
  }

  readonly fetch: typeof fetch = (input, init) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: this.#agent,
    }) as unknown as Promise<Response>;

  /** Closes the idle connections; requests after it go on new ones. */
  async closeIdle(): Promise<void> {
    const idle = this.#agent;
    this.#agent = this.#newAgent();
    await idle.close();
  }

  #newAgent(): Agent {
    return new Agent(this.connections === undefined ? {} : { connections: this.connections });
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.#agent.close();
  }
}
