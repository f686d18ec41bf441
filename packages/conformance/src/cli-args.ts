// Option values the CLI's commands share the reading of.
import { UsageError } from './run.js';

/** The value of `--NAME N`: a whole number of 0 or more, or undefined when it was not given. */
export function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new UsageError(`--${name} must be a whole number of 0 or more, not "${raw}"`);
  }
  return Number(raw);
}
