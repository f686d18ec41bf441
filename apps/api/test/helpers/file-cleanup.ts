/**
 * What the helpers started for the current test file, each with how to stop it, run once that
 * file's tests are done (helpers/after-each-file.ts). vitest drops an `afterAll` registered while
 * a test runs, and most helpers are called inside tests, so they list their stops here instead.
 */
const pending = new Set<() => Promise<void>>();

/**
 * Lists `stop` to run after the file's tests; returns a stop to call sooner. It runs `stop` once,
 * whichever calls it first: later calls do nothing. Each stop orders its own steps (a balancer's
 * process ends before its folder is removed).
 */
export function stopAfterFile(stop: () => Promise<void> | void): () => Promise<void> {
  const once = async () => {
    if (!pending.delete(once)) return;
    await stop();
  };
  pending.add(once);
  return once;
}

/** Runs every stop still listed, at once. */
export async function stopWhatTheFileStarted(): Promise<void> {
  await Promise.all([...pending].map((stop) => stop()));
}
