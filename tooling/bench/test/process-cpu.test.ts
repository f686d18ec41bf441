import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { processCpuSeconds, sumSchedstat } from '../src/process-cpu.js';

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

  it('counts the work its other threads do', async () => {
    const before = processCpuSeconds(process.pid);
    const after = await whileWorkerBurns(300, () => processCpuSeconds(process.pid));
    const used = after - before;
    expect(used).toBeGreaterThanOrEqual(0.25);
  });
});
