/** A task under way: when it must be done, and what ends it otherwise. */
export interface PendingTask {
  readonly deadline: number;
  readonly expire: (error: Error) => void;
}

/**
 * The deadlines of tasks that share one time limit (request body reads, store calls), checked by
 * one timer: a task costs an entry in a set, not a timer of its own (a `setTimeout` and a
 * `clearTimeout` per create were 3% of its CPU in the bench's profile). The timer ticks every
 * twentieth of the limit (at most every 500 ms), so a task that is too slow ends between `limitMs`
 * and 1.05 × `limitMs` (plus 500 ms at most) after it began. It starts with a task and stops at
 * the first tick that finds none pending, not as the last one ends: requests that come one at a
 * time then share one timer instead of each starting and clearing one.
 */
export class SharedDeadlines {
  /** In insertion order, which is deadline order: every task here has the same time limit. */
  readonly #pending = new Set<PendingTask>();
  readonly #limitMs: number;
  readonly #tickMs: number;
  readonly #timeoutError: () => Error;
  #timer: NodeJS.Timeout | undefined;

  /** `timeoutError` makes the error a task past its deadline ends with. */
  constructor(limitMs: number, timeoutError: () => Error) {
    this.#limitMs = limitMs;
    this.#tickMs = Math.max(1, Math.min(500, Math.floor(limitMs / 20)));
    this.#timeoutError = timeoutError;
  }

  /** Starts the clock of a task: `expire` runs once if `done` is not called in time. */
  start(expire: (error: Error) => void): PendingTask {
    const task = { deadline: performance.now() + this.#limitMs, expire };
    this.#pending.add(task);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#tickMs);
      // A task in progress is its caller's business: it never keeps the process alive.
      this.#timer.unref();
    }
    return task;
  }

  /** The task ended (with its result or an error) before its deadline. */
  done(task: PendingTask): void {
    this.#pending.delete(task);
  }

  /** What `work` comes to, or the timeout error once it is past its deadline. */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const task = this.start(reject);
      work.then(
        (value) => {
          this.done(task);
          resolve(value);
        },
        (error: unknown) => {
          this.done(task);
          reject(error);
        },
      );
    });
  }

  #sweep(): void {
    const now = performance.now();
    for (const task of this.#pending) {
      if (task.deadline > now) break;
      this.#pending.delete(task);
      task.expire(this.#timeoutError());
    }
    if (this.#pending.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
