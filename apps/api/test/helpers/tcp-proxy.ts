import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy that can cut every connection and refuse new ones, then come back. */
export interface TcpProxy {
  port: number;
  /** How many connections `dropResponse` cut so far. */
  readonly dropped: number;
  /**
   * Holds every reply chunk `ms` from now on before relaying it (in order); `0` relays what
   * waits at once, and what follows without delay: a database that slows, then recovers.
   */
  delayReplies(ms: number): void;
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
  let replyDelayMs = 0;
  /** Each connection's relay of delayed replies: called with `true` to relay all at once. */
  const delayed = new Set<(now: boolean) => void>();
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
        if (dropResponse === undefined) {
          const queue: { chunk: Buffer; due: number }[] = [];
          let timer: NodeJS.Timeout | undefined;
          const relay = (all: boolean) => {
            clearTimeout(timer);
            timer = undefined;
            while (queue.length > 0 && (all || (queue[0]?.due ?? 0) <= Date.now())) {
              client.write(queue.shift()?.chunk as Buffer);
            }
            if (queue.length > 0) {
              timer = setTimeout(() => relay(false), (queue[0]?.due ?? 0) - Date.now());
            }
          };
          delayed.add(relay);
          upstream.on('close', () => {
            clearTimeout(timer);
            delayed.delete(relay);
          });
          upstream.on('data', (chunk: Buffer) => {
            if (replyDelayMs === 0 && queue.length === 0) client.write(chunk);
            else {
              queue.push({ chunk, due: Date.now() + replyDelayMs });
              if (timer === undefined) relay(false);
            }
          });
          upstream.on('end', () => client.end());
        } else {
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
    delayReplies(ms) {
      replyDelayMs = ms;
      if (ms === 0) for (const relay of delayed) relay(true);
    },
    down,
    up: listen,
    close: down,
  };
}
