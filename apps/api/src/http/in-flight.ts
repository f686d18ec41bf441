import type { Middleware } from 'koa';
import type { AppState } from './app-state.js';

/** Keeps `counter.inFlight` at the number of requests started and not yet answered. */
export function countInFlight(counter: { inFlight: number }): Middleware<AppState> {
  return async (_ctx, next) => {
    counter.inFlight++;
    try {
      await next();
    } finally {
      counter.inFlight--;
    }
  };
}
