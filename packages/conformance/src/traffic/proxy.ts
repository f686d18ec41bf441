// A reverse proxy that forwards every request to the target and every answer back unchanged (the
// bytes of bodies streamed through as they come, headers as sent, keep-alive), and hands each
// finished exchange to the judge. The one header it changes is Host, to the target's.
import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { finished } from 'node:stream';
import { withoutContentCoding } from '../http/content-coding.js';
import { type HeaderLine, type RecordedExchange, requestBodyText } from './exchange.js';

export interface ProxyOptions {
  /** The server's base URL (`https://pets.example.com/v1`): requests go to its origin, paths as sent. */
  readonly target: string;
  /** The address to listen on: 127.0.0.1 unless given. */
  readonly host?: string;
  /** The port to listen on: any free one (0) unless given. */
  readonly port?: number;
  /** Called with each exchange once its answer has been passed on in full. */
  readonly onExchange: (exchange: RecordedExchange) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`: a client's base URL is this plus the target's path (`/v1`). */
  readonly origin: string;
  /** Stops listening, ends idle connections, and resolves once every open exchange is done. */
  close(): Promise<void>;
}

/**
 * The body as the judge reads it: with its Content-Encoding (RFC 9110 §8.4) taken off, as a HAR
 * holds it. Forwarded as it came; undefined (not judged) when an encoding cannot be undone.
 */
function decoded(body: Buffer, lines: readonly HeaderLine[]): Uint8Array | undefined {
  const header = lines.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
  return withoutContentCoding(body, header);
}

/** `rawHeaders` (name, value, name, value…) as lines. */
function linesOf(raw: readonly string[]): HeaderLine[] {
  const lines: HeaderLine[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([raw[i] as string, raw[i + 1] as string]);
  return lines;
}

/**
 * The URL a request asked for: its path and query at the target's `origin`; for a request target
 * in absolute form (a client that takes the proxy for a forward proxy, RFC 9112 §3.2.2), the URL
 * it names, which is judged only when it names the target; any other form (`*`) as written,
 * never judged.
 */
function askedUrl(origin: string, requestTarget: string): string {
  return requestTarget.startsWith('/') ? `${origin}${requestTarget}` : requestTarget;
}

/**
 * True when the connection to the target failed before any answer: a write of the request
 * failed, or the target closed (`socket hang up`) or reset the connection.
 */
function connectionLost(error: Error): boolean {
  const { syscall, code } = error as NodeJS.ErrnoException;
  return syscall === 'write' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** Starts the proxy; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const secure = target.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const open = new Set<Promise<void>>();

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    // Node adds Date to an answer that has none: the proxy adds nothing.
    res.sendDate = false;
    const sentAt = Date.now();
    const url = askedUrl(target.origin, req.url ?? '/');
    const requestLines = linesOf(req.rawHeaders);
    const upstreamHeaders = requestLines.flatMap(([name, value]) =>
      name.toLowerCase() === 'host' ? [name, target.host] : [name, value],
    );
    const requestChunks: Buffer[] = [];
    const responseChunks: Buffer[] = [];
    let done: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      done = resolve;
    });
    open.add(settled);
    const record = (status: number, responseLines: HeaderLine[], kept: boolean) => {
      open.delete(settled);
      done();
      const body = requestBodyText(Buffer.concat(requestChunks));
      const answer = kept ? decoded(Buffer.concat(responseChunks), responseLines) : undefined;
      options.onExchange({
        method: req.method ?? 'GET',
        url,
        requestHeaders: requestLines,
        // A target may answer before the body has all come (a 413, a 401): then it is not whole.
        // No body is kept for a request that declared none, only an empty one it declared.
        ...(body === undefined || (body === '' && req.headers['content-length'] !== '0')
          ? {}
          : { requestBody: body, requestBodyWhole: req.readableEnded }),
        status,
        responseHeaders: responseLines,
        ...(answer === undefined ? {} : { responseBody: answer }),
        sentAt,
        receivedAt: Date.now(),
      });
    };
    /** Sends the request to the target: streamed as it comes, or (`again`) whole, in one write. */
    const sendUpstream = (again: boolean) => {
      const upstream = send(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: upstreamHeaders,
          agent,
          setHost: false,
        },
        (received) => {
          res.writeHead(received.statusCode ?? 502, received.statusMessage, received.rawHeaders);
          // HTTP/1.1 framing is the one thing per hop: Node writes the bytes with the same
          // framing header (Content-Length or chunked) the target sent.
          res.flushHeaders();
          received.on('data', (chunk: Buffer) => responseChunks.push(chunk));
          received.pipe(res);
          received.on('end', () =>
            record(received.statusCode ?? 0, linesOf(received.rawHeaders), true),
          );
          received.on('error', () => {
            res.destroy();
            record(0, [], false);
          });
        },
      );
      upstream.on('error', (error) => {
        // Once the answer has begun (its head passed on), its own end or failure finishes the
        // exchange.
        if (res.headersSent) return;
        if (!again && connectionLost(error)) {
          // The target answered on the head alone and closed the connection (RFC 9112 §9.6 lets
          // it); node:http drops that answer when a later write of the body fails first. Or it
          // closed a kept-alive connection without saying so (hyper does, after such an
          // answer), and the agent sent this request on it. The request goes again, once,
          // whole and in one write once the client's body has come, so that its answer can be
          // read, as the kit's own client does.
          finished(req.resume(), (cut) => {
            if (cut) return record(0, [], false);
            current = sendUpstream(true);
            current.end(Buffer.concat(requestChunks));
          });
          return;
        }
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(
          `animal-store-conformance proxy: ${target.host} gave no answer: ${error.message}\n`,
        );
        record(0, [], false);
      });
      return upstream;
    };
    let current = sendUpstream(false);
    // A client that goes away mid-exchange takes the request to the target with it.
    res.on('close', () => {
      if (!res.writableFinished) current.destroy();
    });
    req.on('data', (chunk: Buffer) => requestChunks.push(chunk));
    req.pipe(current);
  };

  const server = createServer(forward);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    origin: `http://${host}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.all([...open]);
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
}
