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
});
