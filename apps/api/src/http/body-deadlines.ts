/** A body read under way: when it must be done, and what ends it otherwise. */
interface PendingRead {
  readonly deadline: number;
  readonly expire: () => void;
}

/**
 * The deadlines of the request bodies being read with one time limit, checked by one timer: a
 * read costs an entry in a set, not a timer of its own (a `setTimeout` and a `clearTimeout` per
 * create were 3% of its CPU in the bench's profile). The timer runs only while a read is pending
 * and ticks every twentieth of the limit (at most every 500 ms), so a read that is too slow ends
 * between `timeoutMs` and 1.05 × `timeoutMs` (plus 500 ms at most) after it began.
 */
class BodyDeadlines {
  /** In insertion order, which is deadline order: every read here has the same time limit. */
  readonly #pending = new Set<PendingRead>();
  readonly #timeoutMs: number;
  readonly #tickMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#tickMs = Math.max(1, Math.min(500, Math.floor(timeoutMs / 20)));
  }

  /** Starts the clock of a read: `expire` runs once if `done` is not called in time. */
  start(expire: () => void): PendingRead {
    const read = { deadline: performance.now() + this.#timeoutMs, expire };
    this.#pending.add(read);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#tickMs);
      // A read in progress is the request's business: it never keeps the process alive.
      this.#timer.unref();
    }
    return read;
  }

  /** The read ended (with its body or an error) before its deadline. */
  done(read: PendingRead): void {
    this.#pending.delete(read);
    if (this.#pending.size === 0) this.#stop();
  }

  #sweep(): void {
    const now = performance.now();
    for (const read of this.#pending) {
      if (read.deadline > now) break;
      this.#pending.delete(read);
      read.expire();
    }
    if (this.#pending.size === 0) this.#stop();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

const byTimeout = new Map<number, BodyDeadlines>();

/** The deadlines of reads limited to `timeoutMs`; one per limit, made on first use. */
export function bodyDeadlines(timeoutMs: number): BodyDeadlines {
  let deadlines = byTimeout.get(timeoutMs);
  if (deadlines === undefined) {
    deadlines = new BodyDeadlines(timeoutMs);
    byTimeout.set(timeoutMs, deadlines);
  }
  return deadlines;
}
