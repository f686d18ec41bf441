/**
 * What `work` comes to, or `timeoutError()` once it has taken `ms`. A task that ends after its
 * deadline is ignored (its late rejection is handled here); the timer never keeps the process
 * alive. One promise and one timer, cleared when `work` settles.
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  timeoutError: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutError()), ms).unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
