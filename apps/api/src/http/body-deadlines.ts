import { SharedDeadlines } from '../shared-deadlines.js';
import { RequestTimeoutError } from './errors.js';

const byTimeout = new Map<number, SharedDeadlines>();

/**
 * The deadlines of request body reads limited to `timeoutMs`, one set (and one timer) per limit,
 * made on first use: a read past its deadline ends with a 408.
 */
export function bodyDeadlines(timeoutMs: number): SharedDeadlines {
  let deadlines = byTimeout.get(timeoutMs);
  if (deadlines === undefined) {
    deadlines = new SharedDeadlines(
      timeoutMs,
      () =>
        new RequestTimeoutError({ message: `request body did not arrive within ${timeoutMs} ms` }),
    );
    byTimeout.set(timeoutMs, deadlines);
  }
  return deadlines;
}
