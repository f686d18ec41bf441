/**
 * What `work` comes to, or `timeoutError()` once it has taken `ms`. A task that ends after its
 * deadline is ignored (its late rejection is handled here); the timer never keeps the process
 * alive.
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  timeoutError: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms).unref();
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
