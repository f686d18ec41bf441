import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { shutDown } from '../src/shutdown.js';

const TIMEOUT_MS = 1_000;
const MARGIN_MS = 500;

function setUp(
  storeClose: () => Promise<void>,
  { signal = 'SIGTERM', drainDelayMs = 0, hurry = new AbortController() } = {},
) {
  const lines: { msg: string; level: number }[] = [];
  const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
  const exit = vi.fn<(code: number) => void>();
  const running = { drain: vi.fn(), close: vi.fn(async (_timeoutMs?: number) => {}) };
  const done = shutDown(
    {
      running,
      store: { close: storeClose },
      logger,
      drainDelayMs,
      timeoutMs: TIMEOUT_MS,
      marginMs: MARGIN_MS,
      hurry: hurry.signal,
      exit,
    },
    signal,
  );
  return { lines, exit, running, done };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('shutDown', () => {
  it('exits 0 once the server and the store have closed, and never again', async () => {
    const { exit, running, lines, done } = setUp(async () => {});
    await done;
    expect(running.close).toHaveBeenCalledWith(TIMEOUT_MS);
    expect(exit.mock.calls).toEqual([[0]]);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + MARGIN_MS + 1);
    expect(exit.mock.calls).toEqual([[0]]);
    expect(lines.map((l) => l.msg)).toEqual([
      'shutting down: finishing in-flight requests',
      'stopped',
    ]);
  });

  it('on SIGTERM, drains for the drain delay while serving, then closes', async () => {
    const { running, exit, done } = setUp(async () => {}, { drainDelayMs: 3_000 });
    expect(running.drain).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(running.close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(running.close).toHaveBeenCalledWith(TIMEOUT_MS);
    expect(exit.mock.calls).toEqual([[0]]);
  });

  it('on SIGINT (Ctrl-C), or a second signal, skips the drain delay', async () => {
    const ctrlC = setUp(async () => {}, { signal: 'SIGINT', drainDelayMs: 3_000 });
    await ctrlC.done;
    expect(ctrlC.running.drain).toHaveBeenCalledOnce();
    expect(ctrlC.exit.mock.calls).toEqual([[0]]);
    const hurry = new AbortController();
    const twice = setUp(async () => {}, { drainDelayMs: 3_000, hurry });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(twice.running.close).not.toHaveBeenCalled();
    hurry.abort();
    await twice.done;
    expect(twice.exit.mock.calls).toEqual([[0]]);
  });

  it('exits 1 when the store never closes, once the deadline and the margin have passed', async () => {
    const { exit, lines } = setUp(() => new Promise<void>(() => {}));
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + MARGIN_MS - 1);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit.mock.calls).toEqual([[1]]);
    expect(lines.at(-1)).toMatchObject({
      level: 50,
      msg: 'shutdown did not finish in time; exiting',
    });
  });

  it('exits 1 at once when closing the store fails', async () => {
    const { exit, lines, done } = setUp(async () => {
      throw new Error('connection pool closed');
    });
    await done;
    expect(exit.mock.calls).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + MARGIN_MS + 1);
    expect(exit.mock.calls).toEqual([[1]]);
    expect(lines.at(-1)).toMatchObject({ level: 50, msg: 'shutdown failed' });
  });
});
