import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { SIGNAL_COPY_WINDOW_MS, StopSignals, shutDown, stopOnSignals } from '../src/shutdown.js';

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

describe('StopSignals', () => {
  it('takes the same signal again within the copy window as a copy, later as a second signal', () => {
    let now = 1_000_000;
    const signals = new StopSignals(() => now);
    expect(signals.receive('SIGTERM')).toBe('stop');
    now += SIGNAL_COPY_WINDOW_MS - 1;
    expect(signals.receive('SIGTERM')).toBe('copy');
    now += 1;
    expect(signals.receive('SIGTERM')).toBe('hurry');
    expect(signals.receive('SIGINT')).toBe('ignored');
  });

  it('takes another signal as a second signal at once (Ctrl-C during a SIGTERM drain)', () => {
    const signals = new StopSignals(() => 0);
    expect(signals.receive('SIGTERM')).toBe('stop');
    expect(signals.receive('SIGINT')).toBe('hurry');
  });
});

describe('stopOnSignals', () => {
  function listen() {
    const source = new EventEmitter();
    const lines: { msg: string; signal?: string }[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
    let now = 0;
    const stops: { signal: string; hurry: AbortSignal }[] = [];
    stopOnSignals(
      source,
      logger,
      (signal, hurry) => stops.push({ signal, hurry }),
      new StopSignals(() => now),
    );
    return {
      source,
      lines,
      stops,
      later: (ms: number) => {
        now += ms;
      },
    };
  }

  it('stops once on a signal and its copy, the drain not hurried', () => {
    const { source, lines, stops } = listen();
    source.emit('SIGTERM');
    source.emit('SIGTERM');
    expect(stops.map((s) => [s.signal, s.hurry.aborted])).toEqual([['SIGTERM', false]]);
    expect(lines).toMatchObject([{ signal: 'SIGTERM', msg: expect.stringMatching(/copy/) }]);
  });

  it("hurries on a person's second signal, once", () => {
    const { source, lines, stops, later } = listen();
    source.emit('SIGINT');
    later(SIGNAL_COPY_WINDOW_MS);
    source.emit('SIGINT');
    source.emit('SIGTERM');
    expect(stops).toHaveLength(1);
    expect(stops[0]?.hurry.aborted).toBe(true);
    expect(lines).toMatchObject([
      { signal: 'SIGINT', msg: 'second signal: the drain is cut short' },
    ]);
  });
});
