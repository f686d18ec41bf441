import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
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

/** The inodes of the TCP sockets listening on `port`, any address (Linux's `/proc/net/tcp*`). */
function listeningInodes(port: number): Set<string> {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // no IPv6 table on this machine
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …; 0A is LISTEN.
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(local) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * Whether process `pid` itself listens on TCP `port` now. A port `freePort` found can be taken by
 * another process before the one started on it listens; that one then accepts connections on it
 * (`portAccepts`) and answers in its stead, while the started process fails with `EADDRINUSE`.
 * Linux only: it reads `/proc`.
 */
export function listensOn(pid: number, port: number): boolean {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // the process is gone
  }
  for (const fd of fds) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket && inodes.has(socket[1] as string)) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}
