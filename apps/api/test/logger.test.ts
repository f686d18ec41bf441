import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScriptProcess } from './helpers/processes.js';

const LOGGER = fileURLToPath(new URL('../dist/logger.js', import.meta.url));

describe('createLogger', () => {
  it('has written every line to stdout before the next statement runs, even if the process is killed right after', async () => {
    // 200 lines in a burst, then SIGKILL: nothing can be flushed later.
    const script =
      `import { createLogger } from ${JSON.stringify(LOGGER)};` +
      "const logger = createLogger('info');" +
      "for (let i = 0; i < 200; i++) logger.info({ i }, 'burst');" +
      "process.kill(process.pid, 'SIGKILL');";
    const { stdout, signal } = await runScriptProcess(script);
    expect(signal).toBe('SIGKILL');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('writes lines far larger than a non-blocking pipe takes at once, whole and in order', async () => {
    // Once Node has made its stdout stream, the descriptor under it is non-blocking: a write
    // larger than the pipe can take stops part-way or finds it full, and must go on from there.
    const script =
      `import { createLogger } from ${JSON.stringify(LOGGER)};` +
      'process.stdout;' +
      "const logger = createLogger('info');" +
      "for (let i = 0; i < 50; i++) logger.info({ i, text: 'é€🐕'.repeat(1000) }, 'short');" +
      "logger.info({ i: 50, text: 'é€🐕'.repeat(1_000_000) }, 'long');" +
      "logger.info({ i: 51 }, 'last');";
    const { stdout, exitCode } = await runScriptProcess(script);
    expect(exitCode).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; text?: string });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 52 }, (_, i) => i));
    expect(lines[50]?.text).toBe('é€🐕'.repeat(1_000_000));
  });
});
