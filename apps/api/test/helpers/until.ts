/** What tests that wait on a process share: a pause, and a bounded wait for a condition. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a wait lasts before it fails: far beyond what any step takes. */
export const GIVE_UP_MS = 90_000;

/**
 * Waits until `done` holds, looking every 50 ms; fails, saying what it waited for, once
 * `giveUpMs` have passed (well before the test's timeout, so a stuck step is named rather than a
 * hang reported). Says on stderr every half minute what it still waits for.
 */
export async function until(
  done: () => boolean | Promise<boolean>,
  what = 'a condition',
  giveUpMs = GIVE_UP_MS,
): Promise<void> {
  const started = performance.now();
  let next = started + 30_000;
  while (!(await done())) {
    const now = performance.now();
    if (now - started > giveUpMs) {
      throw new Error(`gave up after ${Math.round(giveUpMs / 1000)} s waiting for ${what}`);
    }
    if (now > next) {
      process.stderr.write(`still waiting for ${what}\n`);
      next += 30_000;
    }
    await sleep(50);
  }
}
