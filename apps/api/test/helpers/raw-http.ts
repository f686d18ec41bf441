import { connect } from 'node:net';

/** One HTTP/1.1 response as read off the wire. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header's values joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

export interface Exchange {
  /** Every byte the server sent. */
  data: Buffer;
  /** Whether the server ended the connection (rather than `waitMs` running out). */
  closedByServer: boolean;
  /** Milliseconds from connecting until the server closed, or until we gave up. */
  ms: number;
}

export interface ExchangeOptions {
  /** Give up reading after this long (default 5 s). */
  waitMs?: number;
  /** Pause between chunks. */
  gapMs?: number;
  /** Half-close after writing, as a client with nothing more to send. */
  end?: boolean;
}

/**
 * For exchanges the server ends: the client waits long enough that only the server can end them
 * (a busy machine only delays that).
 */
export const SERVER_ENDS = { waitMs: 120_000 } as const satisfies ExchangeOptions;

/**
 * Opens a connection to `origin`, writes `chunks` (waiting `gapMs` between them), then reads
 * until the server closes the connection or `waitMs` passes. For requests `fetch` will not send.
 */
export function exchange(
  origin: string,
  chunks: string | Buffer | readonly (string | Buffer)[],
  { waitMs = 5000, gapMs = 0, end = false }: ExchangeOptions = {},
): Promise<Exchange> {
  const { hostname, port } = new URL(origin);
  const parts = Array.isArray(chunks) ? chunks : [chunks];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const received: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(received), closedByServer, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // A server that answers and closes while we still write may reset the connection; what it
    // sent before is kept.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true);
      else if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        if (socket.destroyed) return;
        socket.write(part);
      }
      if (end && !socket.destroyed) socket.end();
    });
  });
}

/**
 * Splits what a server sent into responses (`Content-Length` or chunked bodies). The first
 * final (non-1xx) response answers the request, so with `head` it has no body; interim (1xx),
 * 204 and 304 answers have none either, whatever their headers say. Any further response refuses
 * what followed the request (a second request, or bytes that were not one).
 */
export function parseResponses(data: Buffer, { head = false } = {}): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response head: ${JSON.stringify(String(rest))}`);
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not a status line: ${statusLine}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    rest = rest.subarray(end + 4);
    let body: Buffer;
    // The first final (2xx-5xx) answer is the HEAD request's: an interim 100 may come before it.
    const answersHead = head && status >= 200 && !responses.some((r) => r.status >= 200);
    if (answersHead || status < 200 || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const pieces: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        rest = rest.subarray(lineEnd + 2);
        if (size === 0) {
          rest = rest.subarray(rest.indexOf('\r\n') + 2);
          break;
        }
        pieces.push(rest.subarray(0, size));
        rest = rest.subarray(size + 2);
      }
      body = Buffer.concat(pieces);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    responses.push({ status, headers, body: body.toString('utf8') });
  }
  return responses;
}
