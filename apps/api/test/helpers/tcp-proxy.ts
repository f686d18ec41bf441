import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy that can cut every connection and refuse new ones, then come back. */
export interface TcpProxy {
  port: number;
  /** How many connections `dropResponse` cut so far. */
  readonly dropped: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export interface TcpProxyOptions {
  /**
   * Asked for each chunk the target sends back: `true` cuts both connections instead of
   * relaying it, as a network that fails after the request went through but before the
   * response came back.
   */
  dropResponse?: () => boolean;
}

/**
 * Proxies 127.0.0.1:<free port> to `target`; used to take a database we do not own offline,
 * and to lose responses on their way back.
 */
export async function startTcpProxy(
  target: { host: string; port: number },
  options: TcpProxyOptions = {},
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let port = 0;
  let dropped = 0;
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        const { dropResponse } = options;
        if (dropResponse === undefined) upstream.pipe(client);
        else {
          upstream.on('data', (chunk: Buffer) => {
            if (!dropResponse()) client.write(chunk);
            else if (!client.destroyed) {
              dropped++;
              client.destroy();
              upstream.destroy();
            }
          });
          upstream.on('end', () => client.end());
        }
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server?.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    const closing = new Promise<void>((resolve) =>
      server ? server.close(() => resolve()) : resolve(),
    );
    for (const s of sockets) s.destroy();
    await closing;
    server = undefined;
  };
  await listen();
  return {
    port,
    get dropped() {
      return dropped;
    },
    down,
    up: listen,
    close: down,
  };
}
