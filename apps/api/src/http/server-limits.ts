import { createServer, type RequestListener, type Server, ServerResponse } from 'node:http';
import { type ClientErrorListener, clientErrorListener, connectListener } from './client-errors.js';

/**
 * The most header fields a request may carry; more is `431`. Node keeps them all
 * (`maxHeadersCount` 0, bounded by `maxHeaderBytes`) so none can hide from the checks.
 */
export const MAX_HEADER_FIELDS = 100;

/** What the HTTP server accepts at the socket level, before the application sees a request. */
export interface ServerLimits {
  /**
   * Node's `maxHeaderSize`: the most bytes of request target, header names and header values
   * a request head may hold; more is `431`. llhttp counts them as it parses, in every read of
   * every head (a pipelined one too). What it drops unheld (a value's leading white space, blank
   * lines before a request line) is not counted: `headersTimeoutMs` bounds that in time.
   */
  maxHeaderBytes: number;
  /** Time to receive the request line and headers (slow-loris protection); slower is `408`. */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included; slower is `408`. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; Node closes any beyond at once, without an answer. */
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = {
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
};

/** Longest request target (path and query), in bytes; longer is `414`. */
export const DEFAULT_MAX_URL_BYTES = 8 * 1024;

/**
 * Node looks for requests past their timeout every `connectionsCheckingInterval` (30 s by
 * default, which would let a 10 s headers timeout run to 40 s): check ten times per timeout,
 * at most once a second and at least every 50 ms.
 */
function checkingIntervalMs(limits: ServerLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.min(1000, Math.max(50, Math.floor(shortest / 10)));
}

/**
 * An HTTP server enforcing `limits`, whose protocol-level refusals (`400`, `408`, `431`) carry
 * an Error body like every other answer.
 */
export function createLimitedServer(
  handler: RequestListener,
  limits: ServerLimits,
  onClientError?: ClientErrorListener,
  Response: typeof ServerResponse = ServerResponse,
): Server {
  const server = createServer(
    {
      ServerResponse: Response,
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
      // Node would answer a missing Host with an empty 400; requestChecks answers it with an Error.
      requireHostHeader: false,
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  // Node would drop every field past its 1,000th (a second Authorization among them) unseen.
  server.maxHeadersCount = 0;
  // An `Expect` other than 100-continue: Node answers 417 with an empty body unless told
  // otherwise. RFC 9110 §10.1.1 lets a server ignore it; the request is served as usual.
  server.on('checkExpectation', handler);
  // `Expect: 100-continue`: Node would send `100 Continue` before the application sees the
  // request, inviting a client without a valid key to upload its body. The body reader sends it
  // once the request has been let through (`readJsonBody`).
  server.on('checkContinue', handler);
  // A client that half-closes once its request is sent (as `nc` or an HTTP/1.0 client may)
  // still gets its answer; by default Node drops any request not answered by then.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', clientErrorListener(limits, onClientError));
  server.on('connect', connectListener);
  return server;
}
