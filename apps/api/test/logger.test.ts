import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../dist/logger.js', import.meta.url));

describe('createLogger', () => {
  it('has written every line to stdout before the next statement runs, even if the process is killed right after', async () => {
    // 200 lines in a burst, then SIGKILL: nothing can be flushed later.
    const script =
      `import { createLogger } from ${JSON.stringify(LOGGER)};` +
      "const logger = createLogger('info');" +
      "for (let i = 0; i < 200; i++) logger.info({ i }, 'burst');" +
      "process.kill(process.pid, 'SIGKILL');";
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const [, signal] = await once(child, 'exit');
    expect(signal).toBe('SIGKILL');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});
