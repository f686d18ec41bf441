import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  processCpuByThread,
  processCpuSeconds,
  sumSchedstat,
  threadKind,
} from '../src/process-cpu.js';

/**
 * Runs `measure` while a worker thread is alive and has kept the process on the CPU for `cpuMs`
 * more: the time of a thread that has ended is no longer counted per thread.
 */
async function whileWorkerBurns<T>(cpuMs: number, measure: () => T): Promise<T> {
  const source = `
    const { parentPort } = require('node:worker_threads');
    const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    const t0 = used();
    while (used() - t0 < ${cpuMs});
    parentPort.postMessage('burnt');
    setInterval(() => {}, 1000);
  `;
  const worker = new Worker(source, { eval: true });
  try {
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return measure();
  } finally {
    await worker.terminate();
  }
}

describe('the CPU time of a process', () => {
  it('sums the run time of every thread, in nanoseconds', () => {
    const texts = ['1500000000 20 3\n', '2500 0 1\n', '0 0 0\n'];
    expect(sumSchedstat(texts)).toBeCloseTo(1.5000025, 9);
  });

  it("tells a Node process's threads apart: main, V8's helpers, worker threads, the rest", () => {
    expect(threadKind(100, 100, 'node')).toBe('main');
    expect(threadKind(100, 100, 'MainThread')).toBe('main');
    expect(threadKind(100, 103, 'V8Worker')).toBe('v8');
    expect(threadKind(100, 110, 'WorkerThread')).toBe('workers');
    expect(threadKind(100, 101, 'libuv-worker')).toBe('other');
    expect(threadKind(100, 102, 'DelayedTaskSche')).toBe('other');
  });

  it("puts a worker thread's work under workers, and the whole under the process", async () => {
    const before = processCpuByThread(process.pid);
    const [after, total] = await whileWorkerBurns(300, () => [
      processCpuByThread(process.pid),
      processCpuSeconds(process.pid),
    ]);
    expect(before && after).toBeDefined();
    if (!before || !after) return;
    expect(after.workers - before.workers).toBeGreaterThanOrEqual(0.25);
    expect(after.main).toBeGreaterThan(0);
    const sum = after.main + after.v8 + after.workers + after.other;
    // Read one after the other: the process ran a little between the two.
    expect(Math.abs(sum - (total as number))).toBeLessThan(0.05);
  });

  it('counts the work its other threads do', async () => {
    const before = processCpuSeconds(process.pid);
    const after = await whileWorkerBurns(300, () => processCpuSeconds(process.pid));
    const used = after - before;
    expect(used).toBeGreaterThanOrEqual(0.25);
  });
});
