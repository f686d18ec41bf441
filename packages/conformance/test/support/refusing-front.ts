// A front on 127.0.0.1 before a server: it relays each connection byte for byte, but answers a
// request `refuse` names itself (the answer's raw bytes) and closes the connection, as an HTTP
// layer that refuses a request its app never sees does.
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { type ConformanceReport, runConformance } from '../../src/index.js';
import { startFakeServer } from './fake-server.js';

export interface RefusingFront {
  /** The target's base URL, at the front's origin. */
  readonly baseUrl: string;
  /** How many requests it answered itself. */
  refused(): number;
  close(): Promise<void>;
}

/** `status` with a body of `body`'s JSON (none when undefined), closing the connection. */
export function rawAnswer(status: number, body?: unknown): string {
  const text = body === undefined ? '' : JSON.stringify(body);
  const type = body === undefined ? '' : 'content-type: application/json\r\n';
  return `HTTP/1.1 ${status} Refused\r\n${type}content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`;
}

/**
 * Starts a front before `target`. Each piece a client writes is read as text; `refuse` gives the
 * answer to one it refuses (the kit writes each request it probes so in one write, on a connection
 * of its own), or undefined to relay it.
 */
export async function startRefusingFront(
  target: string,
  refuse: (text: string) => string | undefined,
): Promise<RefusingFront> {
  const origin = new URL(target);
  const sockets = new Set<Socket>();
  let refused = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(origin.port), origin.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      const answer = refuse(chunk.toString('latin1'));
      if (answer === undefined) {
        upstream.write(chunk);
        return;
      }
      refused += 1;
      upstream.destroy();
      client.end(answer);
    });
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${origin.pathname}`,
    refused: () => refused,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The checks `only` names and the checks of every answer, run against the fake server behind a
 * front that refuses as `refuse` says; with how many requests the front answered itself.
 */
export async function runBehindRefusingFront(
  only: readonly string[],
  refuse: (text: string) => string | undefined,
): Promise<{ report: ConformanceReport; refused: number }> {
  const fake = await startFakeServer();
  const front = await startRefusingFront(fake.baseUrl, refuse);
  try {
    const report = await runConformance({
      baseUrl: front.baseUrl,
      apiKey: fake.apiKey,
      only: [...only, 'errors'],
      timeoutMs: 5_000,
    });
    return { report, refused: front.refused() };
  } finally {
    await front.close();
    await fake.close();
  }
}
