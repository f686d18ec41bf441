import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, listensOn, onFreePort, portAccepts } from '../src/port.js';
import { killAll, runProcess, spawnLogged, startLogged, waitUntil } from '../src/process.js';

const node = process.execPath;
/** Far more than one pipe chunk of two-, three- and four-byte characters, and a script writing it. */
const WIDE = 'é€🐕'.repeat(100_000);
const WRITE_WIDE = "process.stdout.write('é€🐕'.repeat(100_000))";

describe('spawnLogged', () => {
  it('keeps stdout and stderr, apart and interleaved', async () => {
    const child = spawnLogged(node, ['-e', 'console.log("out"); console.error("err")']);
    await child.exited;
    expect(child.stdout()).toBe('out\n');
    expect(child.stderr()).toBe('err\n');
    expect(child.output()).toMatch(/out\n[\s\S]*err\n|err\n[\s\S]*out\n/);
    expect(child.exitStatus()).toBe(0);
  });

  it('keeps characters whole that the pipe splits between chunks', async () => {
    const child = spawnLogged(node, ['-e', WRITE_WIDE]);
    await child.exited;
    expect(child.stdout()).toBe(WIDE);
  });

  it('keeps only the last `keep` characters when asked', async () => {
    const child = spawnLogged(node, ['-e', 'process.stdout.write("x".repeat(100) + "end")'], {
      keep: 5,
    });
    await child.exited;
    expect(child.output()).toBe('xxend');
  });

  it('stops with SIGTERM a process that heeds it', async () => {
    const child = await startLogged(
      node,
      ['-e', 'console.log("up"); setInterval(() => {}, 1000)'],
      {
        ready: /up/,
      },
    );
    await child.stop();
    expect(child.exitStatus()).toBe('SIGTERM');
  });

  it('stops with SIGKILL a process that ignores SIGTERM', async () => {
    const child = await startLogged(
      node,
      [
        '-e',
        'process.on("SIGTERM", () => console.log("ignored")); console.log("up"); setInterval(() => {}, 1000)',
      ],
      { ready: /up/ },
    );
    await child.stop();
    expect(child.exitStatus()).toBe('SIGKILL');
    expect(child.output()).toContain('ignored');
  });

  it('sends the stdout nowhere when told to ignore it, and keeps the stderr', async () => {
    const child = spawnLogged(node, ['-e', 'console.log("out"); console.error("err")'], {
      stdout: 'ignore',
    });
    await child.exited;
    expect(child.stdout()).toBe('');
    expect(child.output()).toBe('err\n');
  });

  it('waits for a line on the stderr', async () => {
    const child = spawnLogged(node, [
      '-e',
      'setTimeout(() => console.error("ready=7"), 100); setInterval(() => {}, 1000)',
    ]);
    const found = await child.untilStderr((text) => /ready=(\d)/.exec(text)?.[1]);
    expect(found).toBe('7');
    await child.stop();
  });

  it('fails the wait for a line the process exits without writing', async () => {
    const child = spawnLogged(node, ['-e', 'console.error("bye")']);
    await expect(child.untilStderr((text) => text.includes('never') || undefined)).rejects.toThrow(
      /exited \(0\) first[\s\S]*bye/,
    );
  });

  it('kills every child still running when asked', async () => {
    const child = spawnLogged(node, ['-e', 'setInterval(() => {}, 1000)']);
    killAll();
    await child.exited;
    expect(child.exitStatus()).toBe('SIGKILL');
  });

  it('counts a command that cannot be spawned as exited, with the reason in its output', async () => {
    const child = spawnLogged('/nonexistent/animal-store-command', []);
    await child.exited;
    expect(child.exitStatus()).toMatch(/ENOENT/);
    expect(child.output()).toMatch(/ENOENT/);
  });
});

describe('startLogged and waitUntil', () => {
  it('returns the match of the ready line', async () => {
    const child = await startLogged(
      node,
      ['-e', 'console.log("port=4711"); setInterval(() => {}, 1000)'],
      {
        ready: /port=(\d+)/,
      },
    );
    expect(child.match[1]).toBe('4711');
    await child.stop();
  });

  it('throws the output of a process that exits before it is ready', async () => {
    await expect(
      startLogged(node, ['-e', 'console.log("no luck"); process.exit(3)'], { ready: /never/ }),
    ).rejects.toThrow(/exited \(3\) before it was ready[\s\S]*no luck/);
  });

  it('stops a process that is not ready in time', async () => {
    const child = spawnLogged(node, ['-e', 'setInterval(() => {}, 1000)']);
    await expect(waitUntil(child, 'the idler', () => undefined, 200)).rejects.toThrow(
      /the idler was not ready within 200 ms/,
    );
    expect(child.exitStatus()).toBe('SIGTERM');
  });
});

describe('runProcess', () => {
  it('collects the output, characters whole, with the exit code', async () => {
    const finished = await runProcess(node, [
      '-e',
      `${WRITE_WIDE}; console.error('err'); process.exitCode = 3`,
    ]);
    expect(finished).toEqual({ stdout: WIDE, stderr: 'err\n', exitCode: 3, signal: null });
  });

  it('gives the signal that ended the process', async () => {
    const finished = await runProcess(node, ['-e', "process.kill(process.pid, 'SIGKILL')"]);
    expect(finished).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });
});

describe('freePort', () => {
  it('gives a port a server can listen on at once', async () => {
    const port = await freePort();
    const server = createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    server.close();
  });
});

describe('onFreePort', () => {
  it('starts again on another port when the port was taken in between, and on no other error', async () => {
    const ports: number[] = [];
    const started = await onFreePort(async (port) => {
      ports.push(port);
      if (ports.length === 1) throw new Error(`listen EADDRINUSE: address already in use :${port}`);
      return 'up';
    });
    expect(started).toBe('up');
    expect(ports).toHaveLength(2);
    // A server's own words for it: nginx, haproxy, FerretDB, Prometheus.
    const again = await onFreePort(async (port) => {
      ports.push(port);
      if (ports.length === 3)
        throw new Error(`bind() to 127.0.0.1:${port} failed (98: Address already in use)`);
      return 'up again';
    });
    expect(again).toBe('up again');
    expect(ports).toHaveLength(4);
    let calls = 0;
    const refused = onFreePort(async () => {
      calls += 1;
      throw new Error('bad config');
    });
    await expect(refused).rejects.toThrow('bad config');
    expect(calls).toBe(1);
  });

  it('gives up after its attempts while the port keeps being taken', async () => {
    let calls = 0;
    const taken = onFreePort(async () => {
      calls += 1;
      throw new Error('listen EADDRINUSE');
    }, 3);
    await expect(taken).rejects.toThrow('EADDRINUSE');
    expect(calls).toBe(3);
  });
});

describe('portAccepts', () => {
  it('is true while a server listens on the port and false once it has closed', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    expect(await portAccepts(port)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    expect(await portAccepts(port)).toBe(false);
  });
});

describe('listensOn', () => {
  it('tells the process that listens on a port from another that does not', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const other = spawnLogged(node, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      expect(listensOn(process.pid, port)).toBe(true);
      expect(listensOn(other.child.pid as number, port)).toBe(false);
    } finally {
      await other.stop();
    }
    await new Promise((resolve) => server.close(resolve));
    expect(listensOn(process.pid, port)).toBe(false);
  });

  it('is false for a process that is gone', async () => {
    const gone = spawnLogged(node, ['-e', '']);
    await gone.exited;
    expect(listensOn(gone.child.pid as number, await freePort())).toBe(false);
  });
});
