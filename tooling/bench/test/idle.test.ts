import { describe, expect, it } from 'vitest';
import { untilIdle } from '../src/children.js';

describe('waiting for a server to finish its leftovers', () => {
  it('resolves only once the CPU time stops rising', async () => {
    // A process that uses 50 ms of CPU per look for its first five looks, then none.
    let looks = 0;
    const cpuSeconds = () => Math.min(++looks, 6) * 0.05;
    await untilIdle(cpuSeconds);
    expect(looks).toBe(7);
  });

  it('counts one clock tick per window as idle', async () => {
    let looks = 0;
    await untilIdle(() => ++looks * 0.01);
    expect(looks).toBe(2);
  });
});
