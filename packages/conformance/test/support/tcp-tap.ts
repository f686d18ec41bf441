// A TCP relay on 127.0.0.1 that keeps every byte each way of every connection, and reads them back
// as HTTP/1.1 exchanges: what a client really sent and received, below any HTTP library.

import type { AddressInfo } from 'node:net';
import { createConnection, createServer, type Socket } from 'node:net';

/** One HTTP/1.1 message as it went over the wire. */
export interface WireMessage {
  /** The start line and header lines, exactly as sent (CRLF-separated, without the blank line). */
  readonly head: string;
  /** The body with any chunked framing taken off. */
  readonly body: Buffer;
}

/** A request and its answer, in the order the requests began over every connection. */
export interface WireExchange {
  readonly request: WireMessage;
  readonly response: WireMessage;
  /** When the request's first byte and the answer's last byte passed (Date.now()). */
  readonly sentAt: number;
  readonly receivedAt: number;
}

export interface TcpTap {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Every exchange so far, in the order the requests began. */
  exchanges(): WireExchange[];
  /** How many connections were opened to it. */
  connections(): number;
  close(): Promise<void>;
}

interface Flow {
  readonly chunks: Buffer[];
  /** When each chunk passed (Date.now()). */
  readonly times: number[];
}

/** When the byte at `offset` of a flow passed. */
function timeAt(flow: Flow, offset: number): number {
  let seen = 0;
  for (const [i, chunk] of flow.chunks.entries()) {
    seen += chunk.length;
    if (offset < seen) return flow.times[i] ?? 0;
  }
  return flow.times.at(-1) ?? 0;
}

function headerValue(head: string, name: string): string | undefined {
  const line = head
    .split('\r\n')
    .slice(1)
    .find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

/** Splits one direction of a connection into messages, each with where it starts and ends. */
function messagesOf(
  data: Buffer,
  isResponse: boolean,
): (WireMessage & { start: number; end: number })[] {
  const messages: (WireMessage & { start: number; end: number })[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const start = at;
    const head = data.subarray(at, end).toString('latin1');
    at = end + 4;
    const status = isResponse ? Number(head.split(' ')[1]) : 0;
    const length = headerValue(head, 'content-length');
    let body: Buffer = Buffer.alloc(0);
    if (isResponse && (status === 204 || status === 304 || (status >= 100 && status < 200))) {
      // no body
    } else if (/chunked/i.test(headerValue(head, 'transfer-encoding') ?? '')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', at);
        const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
        at = lineEnd + 2;
        if (size === 0) {
          at = data.indexOf('\r\n', at) + 2; // no trailers in this project's traffic
          break;
        }
        parts.push(data.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
    } else if (length !== undefined) {
      body = data.subarray(at, at + Number(length));
      at += Number(length);
    } else if (isResponse) {
      body = data.subarray(at);
      at = data.length;
    }
    messages.push({ head, body: Buffer.from(body), start, end: at });
  }
  return messages;
}

/** The requests in the bytes a client sent over one connection, read as the tap reads them. */
export function requestsIn(data: Buffer): WireMessage[] {
  return messagesOf(data, false);
}

/** Starts a relay to `target` (`http://host:port`) that keeps what passes. */
export async function startTcpTap(target: string): Promise<TcpTap> {
  const { hostname, port } = new URL(target);
  const connections: { up: Flow; down: Flow; seq: number[] }[] = [];
  const sockets = new Set<Socket>();
  let order = 0;
  const server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(client).add(upstream);
    const up: Flow = { chunks: [], times: [] };
    const down: Flow = { chunks: [], times: [] };
    const seq: number[] = [];
    connections.push({ up, down, seq });
    // A request begins when bytes come from the client after its last answer (no pipelining).
    let awaitingAnswer = false;
    client.on('data', (chunk: Buffer) => {
      if (!awaitingAnswer) {
        awaitingAnswer = true;
        seq.push(order++);
      }
      up.chunks.push(chunk);
      up.times.push(Date.now());
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      awaitingAnswer = false;
      down.chunks.push(chunk);
      down.times.push(Date.now());
      client.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    for (const socket of [client, upstream]) {
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${own}`,
    connections: () => connections.length,
    exchanges() {
      const all: (WireExchange & { seq: number })[] = [];
      for (const { up, down, seq } of connections) {
        const requests = messagesOf(Buffer.concat(up.chunks), false);
        const responses = messagesOf(Buffer.concat(down.chunks), true);
        requests.forEach(({ start, end: _, ...request }, i) => {
          const answer = responses[i];
          if (answer === undefined) return;
          const { start: __, end, ...response } = answer;
          all.push({
            request,
            response,
            sentAt: timeAt(up, start),
            receivedAt: timeAt(down, end - 1),
            seq: seq[i] ?? 0,
          });
        });
      }
      return all.sort((a, b) => a.seq - b.seq).map(({ seq: _, ...exchange }) => exchange);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The exchanges as a HAR 1.2 document, as a recorder at the client's side would write it. */
export function harOf(origin: string, exchanges: readonly WireExchange[]): string {
  const headers = (head: string) =>
    head
      .split('\r\n')
      .slice(1)
      .map((line) => {
        const colon = line.indexOf(':');
        return { name: line.slice(0, colon), value: line.slice(colon + 1).trim() };
      });
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'tcp-tap', version: '1' },
      entries: exchanges.map(({ request, response, sentAt, receivedAt }) => {
        const [method, target] = request.head.split(' ');
        return {
          startedDateTime: new Date(sentAt).toISOString(),
          time: Math.max(0, receivedAt - sentAt),
          request: {
            method,
            url: `${origin}${target}`,
            httpVersion: 'HTTP/1.1',
            headers: headers(request.head),
            ...(request.body.length > 0
              ? { postData: { mimeType: 'application/json', text: request.body.toString('utf8') } }
              : {}),
          },
          response: {
            status: Number(response.head.split(' ')[1]),
            headers: headers(response.head),
            content: {
              size: response.body.length,
              text: response.body.toString('base64'),
              encoding: 'base64',
            },
          },
        };
      }),
    },
  });
}
