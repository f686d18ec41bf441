import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SyncLogDestination } from '../src/log-destination.js';
import { runScriptProcess } from './helpers/processes.js';

const DESTINATION = fileURLToPath(new URL('../dist/log-destination.js', import.meta.url));

const IMPORT = `import { SyncLogDestination } from ${JSON.stringify(DESTINATION)};`;

describe('SyncLogDestination', () => {
  it('writes lines far larger than a non-blocking socket takes at once, whole and in order', async () => {
    // Once Node has made its stdout stream, the descriptor under it is non-blocking: a write
    // larger than the socket can take stops part-way or finds it full (EAGAIN), and must go on
    // from where it stopped. Short lines go through the destination's reused buffer, the long
    // one (9 MB) through a buffer of its own.
    const { stdout, code } = await runScriptProcess(`${IMPORT}
      import { constants, readFileSync } from 'node:fs';
      process.stdout;
      const flags = Number.parseInt(/flags:\\s*(\\d+)/.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'))[1], 8);
      if ((flags & constants.O_NONBLOCK) === 0) process.exit(3);
      const destination = new SyncLogDestination(1);
      for (let i = 0; i < 150; i++) destination.write(i + ' ' + 'é€🐕'.repeat(1000) + '\\n');
      destination.write('long ' + 'é€🐕'.repeat(1000000) + '\\n');
      destination.write('last\\n');
    `);
    expect(code).toBe(0);
    const expected = [
      ...Array.from({ length: 150 }, (_, i) => `${i} ${'é€🐕'.repeat(1000)}`),
      `long ${'é€🐕'.repeat(1_000_000)}`,
      'last',
    ];
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBe(expected.length);
    expect(lines).toEqual(expected);
  });

  it('drops lines without throwing once the reader is gone', async () => {
    const script = `${IMPORT}
      process.once('message', () => {
        const destination = new SyncLogDestination(1);
        destination.write('nobody reads this\\n');
        destination.write('nor this\\n');
        process.send('wrote', () => process.exit(0));
      });
      process.send('ready');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    const closed = once(child, 'close');
    const { stdout } = child;
    if (stdout === null) throw new Error('the child has no stdout pipe');
    await once(child, 'message');
    stdout.destroy();
    await once(stdout, 'close');
    child.send('write');
    const [reply] = await once(child, 'message');
    expect(reply).toBe('wrote');
    const [code] = await closed;
    expect(code).toBe(0);
  });

  it('throws a write error it cannot wait out', () => {
    const fd = openSync('/dev/null', 'w');
    closeSync(fd);
    expect(() => new SyncLogDestination(fd).write('line\n')).toThrow(
      expect.objectContaining({ code: 'EBADF' }),
    );
  });
});
