// A reverse proxy that forwards every request to the target and every answer back unchanged (the
// bytes of bodies streamed through as they come, headers as sent, keep-alive), and hands each
// finished exchange to the judge. The one header it changes is Host, to the target's. What it
// cannot forward (a request Node's parser refuses) it answers itself, in words naming itself.
import {
  createServer,
  type Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { finished } from 'node:stream';
import { failureReason } from '../http/client.js';
import { saysClose } from '../http/close-option.js';
import { withoutContentCoding } from '../http/content-coding.js';
import { keptAliveAgent } from '../http/kept-alive-agent.js';
import { IDEMPOTENT } from '../http/methods.js';
import { connectHost } from '../http/request-target.js';
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

/**
 * The most bytes of header lines the proxy reads, of a request and of an answer: far beyond what
 * servers take (8 to 64 KiB), so that the target's own limit is the one a client meets, not
 * Node's default of 16 KiB.
 */
const HEADER_BYTES = 1024 * 1024;

/** The body of what the proxy answers itself (never judged): it names the proxy. */
function ownBody(why: string): string {
  return `animal-store-conformance proxy: it cannot forward the request: ${why}\n`;
}

/**
 * A whole answer of the proxy's own, as written on a connection it then closes; to a HEAD
 * (`bodiless`), its head alone (RFC 9110 §9.3.2).
 */
function ownAnswer(status: number, reason: string, why: string, bodiless = false): string {
  const body = ownBody(why);
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: text/plain; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    bodiless ? '' : body,
  ].join('\r\n');
}

/**
 * The answer to a request Node's parser refused, as Node's own would be (`431` past the header
 * limit, `408` to a late request, else `400`), with the reason; without a body to a HEAD:
 * `method` when the request was read that far, or one whose bytes begin with it.
 */
function refusal(
  error: NodeJS.ErrnoException & { reason?: string; rawPacket?: Buffer },
  method?: string,
): string {
  const bodiless = method === 'HEAD' || error.rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const why = `its header lines exceed ${HEADER_BYTES} bytes`;
    return ownAnswer(431, 'Request Header Fields Too Large', why, bodiless);
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return ownAnswer(408, 'Request Timeout', 'the request did not all come in time', bodiless);
  }
  const why = `it cannot read it as HTTP/1.1 (${error.reason ?? error.message})`;
  return ownAnswer(400, 'Bad Request', why, bodiless);
}

/** `rawHeaders` without Transfer-Encoding. */
function withoutChunked(raw: readonly string[]): string[] {
  return linesOf(raw).flatMap(([name, value]) =>
    name.toLowerCase() === 'transfer-encoding' ? [] : [name, value],
  );
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
  const agent = keptAliveAgent(secure);
  const open = new Set<Promise<void>>();

  /** The requests whose answers are under way, on each connection, and those answers. */
  const underWay = new WeakMap<Socket, Map<IncomingMessage, ServerResponse>>();
  /** The refusal of a request that followed on a connection with answers under way: sent after. */
  const refusals = new WeakMap<Socket, string>();

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    // Node adds Date to an answer that has none: the proxy adds nothing.
    res.sendDate = false;
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      // RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without Host.
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(ownBody('an HTTP/1.1 request needs a Host header'));
      return;
    }
    const { socket } = req;
    const requests = underWay.get(socket) ?? new Map<IncomingMessage, ServerResponse>();
    underWay.set(socket, requests.set(req, res));
    res.on('close', () => {
      requests.delete(req);
      const refused = refusals.get(socket);
      if (requests.size === 0 && refused !== undefined) socket.end(refused);
    });
    const sentAt = Date.now();
    const url = askedUrl(target.origin, req.url ?? '/');
    const requestLines = linesOf(req.rawHeaders);
    // A request that asks to close its connection closes the one to the target too (its
    // Connection line goes on as sent): in the shared pool, a request after it would meet that
    // close. A request that is not idempotent must not be sent again after a lost connection
    // (RFC 9112 §9.3.1): on a kept-alive one, a target's idle close may just then have ended it.
    // Each such request goes on a connection of its own, closed once its exchange has ended; it
    // still says keep-alive, as the shared ones do, unless the client said otherwise. A HEAD
    // too: its answer has no content whatever its header lines say (RFC 9110 §9.3.2), and the
    // bytes of a body a target sends after the head anyway would be read as the next answer on
    // a shared connection, another client's.
    const idempotent = IDEMPOTENT.has(req.method ?? 'GET');
    const ownConnection = saysClose(requestLines) || !idempotent || req.method === 'HEAD';
    /** The agent of the connection of its own, while one is open. */
    let ownAgent: HttpAgent | undefined;
    const upstreamHeaders = requestLines.flatMap(([name, value]) =>
      name.toLowerCase() === 'host' ? [name, target.host] : [name, value],
    );
    // An HTTP/1.0 request may come without Host; it goes on as HTTP/1.1, which needs one.
    if (req.headers.host === undefined) upstreamHeaders.push('Host', target.host);
    const requestChunks: Buffer[] = [];
    const responseChunks: Buffer[] = [];
    let done: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      done = resolve;
    });
    open.add(settled);
    let recorded = false;
    const record = (status: number, responseLines: HeaderLine[], kept: boolean) => {
      if (recorded) return;
      recorded = true;
      ownAgent?.destroy();
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
      ownAgent?.destroy();
      ownAgent = ownConnection ? keptAliveAgent(secure) : undefined;
      const upstream = send(
        {
          protocol: target.protocol,
          // node:http looks up a hostname in brackets as a name: [::1] is no address to it.
          hostname: connectHost(target),
          port: target.port,
          method: req.method,
          path: req.url,
          headers: upstreamHeaders,
          agent: ownAgent ?? agent,
          setHost: false,
          maxHeaderSize: HEADER_BYTES,
        },
        (received) => {
          // HTTP/1.1 framing is the one thing per hop: Node writes the bytes with the same
          // framing header (Content-Length or chunked) the target sent. An HTTP/1.0 client
          // cannot read chunked (RFC 9112 §6.1): to it, a body without Content-Length ends
          // with the connection.
          const head =
            req.httpVersion === '1.0' ? withoutChunked(received.rawHeaders) : received.rawHeaders;
          res.writeHead(received.statusCode ?? 502, received.statusMessage, head);
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
      // Node would drop every header line of the answer past its 2,000th, unseen.
      upstream.maxHeadersCount = 0;
      // The target's `100 Continue` (to `Expect: 100-continue`) goes on to the client, whose body
      // then comes; the proxy sends none of its own.
      upstream.on('continue', () => res.writeContinue());
      upstream.on('error', (error) => {
        // Once the answer has begun (its head passed on), its own end or failure finishes the
        // exchange.
        if (res.headersSent) return;
        // A proxy must not send a request that is not idempotent again (RFC 9112 §9.3.1) unless
        // the target cannot have applied it: here, when its body had not all gone.
        const unapplied = idempotent || !upstream.writableFinished;
        if (!again && unapplied && connectionLost(error)) {
          // The target answered on the head alone and closed the connection (RFC 9112 §9.6 lets
          // it); node:http drops that answer when a later write of the body fails first. Or it
          // closed a kept-alive connection without saying so (hyper does, after such an
          // answer), and the agent sent this request on it. The request goes again, once,
          // whole and in one write once the client's body has come, so that its answer can be
          // read, as the kit's own client does.
          finished(req.resume(), (cut) => {
            // Not for a client that has gone meanwhile: its exchange has ended unanswered.
            if (cut || res.destroyed) return record(0, [], false);
            current = sendUpstream(true);
            current.end(Buffer.concat(requestChunks));
          });
          return;
        }
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(
          `animal-store-conformance proxy: ${target.host} gave no answer: ${failureReason(error)}\n`,
        );
        record(0, [], false);
      });
      return upstream;
    };
    let current = sendUpstream(false);
    // A client that goes away mid-exchange takes the request to the target with it, and the
    // exchange ends unanswered: its connection may close with answers to pipelined requests still
    // queued behind the one that said close. Node 22 tells a queued answer nothing of that: its
    // connection does.
    const clientGone = () => {
      socket.off('close', clientGone);
      if (res.writableFinished) return;
      current.destroy();
      record(0, [], false);
    };
    res.on('close', clientGone);
    socket.on('close', clientGone);
    req.on('data', (chunk: Buffer) => requestChunks.push(chunk));
    req.pipe(current);
  };

  const server = createServer(
    {
      maxHeaderSize: HEADER_BYTES,
      // A request without Host is answered in `forward`, in words that name the proxy.
      requireHostHeader: false,
    },
    forward,
  );
  // Node would drop every header line of a request past its 2,000th, unseen.
  server.maxHeadersCount = 0;
  // A client that half-closes once its request is sent (as `nc -N` or an HTTP/1.0 client may)
  // still gets its answer: by default Node drops any request not answered by then.
  (server as typeof server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Every expectation is the target's to meet or refuse: by default Node would answer
  // `100 Continue` itself before the target has seen the request, and `417` to any other.
  server.on('checkContinue', forward);
  server.on('checkExpectation', forward);
  // CONNECT asks for a tunnel, which only a forward proxy opens (RFC 9110 §9.3.6); without this
  // listener Node would close the connection without a word.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(ownAnswer(501, 'Not Implemented', 'it opens no tunnel (CONNECT)'));
  });
  // A request Node cannot read is answered by the proxy in its own words, not in Node's empty
  // ones that a client would take for the target's: a request that follows answers under way on
  // its connection, after them; a body it cannot read (an unknown transfer coding, a body cut
  // short), unless the target's answer to it has begun: then, as with Node's own handler, the
  // connection just ends.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const requests = [...(underWay.get(socket) ?? [])];
    const cut = requests.find(([req]) => !req.complete)?.[0];
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
    } else if (cut !== undefined) {
      if (requests.some(([, res]) => res.headersSent)) socket.destroy();
      else socket.end(refusal(error, cut.method));
    } else if (requests.length > 0) {
      refusals.set(socket, refusal(error));
    } else {
      socket.end(refusal(error));
    }
  });
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
