/** The time, in epoch milliseconds. Everything that reads the time takes one, so tests can move it. */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = Date.now;
