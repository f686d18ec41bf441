/**
 * Logs what went wrong sending spans, at most once a minute: the first problem at once, then the
 * next one a minute after the last line, with how many came between. A collector that is down
 * fails every batch (one every `OTEL_BSP_SCHEDULE_DELAY`, more under load), and each line would
 * say the same.
 */
export class ExportProblems {
  #lastLineAt: number | undefined;
  #unlogged = 0;

  constructor(
    private readonly log: (message: string, unlogged: number) => void,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 60_000,
  ) {}

  report(message: string): void {
    const now = this.now();
    if (this.#lastLineAt !== undefined && now - this.#lastLineAt < this.everyMs) {
      this.#unlogged += 1;
      return;
    }
    this.log(message, this.#unlogged);
    this.#lastLineAt = now;
    this.#unlogged = 0;
  }
}
