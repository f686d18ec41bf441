import { connect, createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 a moment ago (listen on port 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}

/**
 * What `start` gives on a port free a moment ago, tried again on another while it fails because
 * the port was taken in between (`EADDRINUSE`, or a server's own "address already in use", in its
 * error): `freePort` cannot hold the port it found, and other tests on the machine pick ports too.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      const taken =
        error instanceof Error && /EADDRINUSE|address already in use/i.test(error.message);
      if (!taken || attempt >= attempts) throw error;
    }
  }
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port` now. */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => done(true));
  });
}
