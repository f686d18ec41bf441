import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { shutDown } from '../src/shutdown.js';

const TIMEOUT_MS = 1_000;
const MARGIN_MS = 500;

function setUp(storeClose: () => Promise<void>) {
  const lines: { msg: string; level: number }[] = [];
  const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
  const exit = vi.fn<(code: number) => void>();
  const running = { close: vi.fn(async (_timeoutMs?: number) => {}) };
  const done = shutDown(
    {
      running,
      store: { close: storeClose },
      logger,
      timeoutMs: TIMEOUT_MS,
      marginMs: MARGIN_MS,
      exit,
    },
    'SIGTERM',
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
