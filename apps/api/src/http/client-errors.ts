import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody, ErrorCode } from '@animal-store/contract';
import { requestIdFor } from './request-id.js';

/** A request Node refused before the application saw it. */
export interface ClientErrorEvent {
  requestId: string;
  status: number;
  code: ErrorCode;
  /** Node's reason, e.g. `HPE_HEADER_OVERFLOW` or `ERR_HTTP_REQUEST_TIMEOUT`. */
  cause: string;
}

export type ClientErrorListener = (event: ClientErrorEvent) => void;

interface Refusal {
  status: number;
  reason: string;
  code: ErrorCode;
  message: string;
}

/** What Node's `clientError` reasons become; any other parse error is a `400 bad_request`. */
function refusals(limits: { maxHeaderBytes: number }): Record<string, Refusal> {
  return {
    HPE_HEADER_OVERFLOW: {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'request_header_fields_too_large',
      message: `the request target and header fields exceed ${limits.maxHeaderBytes} bytes`,
    },
    ERR_HTTP_REQUEST_TIMEOUT: {
      status: 408,
      reason: 'Request Timeout',
      code: 'request_timeout',
      message: 'the request did not arrive in time',
    },
    HPE_CHUNK_EXTENSIONS_OVERFLOW: {
      status: 413,
      reason: 'Payload Too Large',
      code: 'payload_too_large',
      message: 'the chunk extensions of the request body are too large',
    },
  };
}

const BAD_REQUEST: Refusal = {
  status: 400,
  reason: 'Bad Request',
  code: 'bad_request',
  message: 'the request is not valid HTTP/1.1',
};

/**
 * The raw response: the connection closes after it, as the request cannot be trusted. An answer
 * to `HEAD` has the headers of the Error body but not the body (RFC 9110 §9.3.2).
 */
function rawResponse(refusal: Refusal, requestId: string, head: boolean): string {
  const body: ErrorBody = { code: refusal.code, message: refusal.message, status: refusal.status };
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n\r\n' +
    (head ? '' : json)
  );
}

/** Whether the refused request is a `HEAD`, as far as what Node parsed of it tells. */
function isHead(error: { rawPacket?: unknown }, inFlight: ServerResponse | null | undefined) {
  if (inFlight) return inFlight.req?.method === 'HEAD';
  const raw = error.rawPacket;
  return Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/**
 * A `clientError` listener doing what Node does by default (answer, then close), but with an
 * Error body. As in Node, nothing is written once a response to the request has begun.
 */
export function clientErrorListener(
  limits: { maxHeaderBytes: number },
  onClientError?: ClientErrorListener,
) {
  const known = refusals(limits);
  return (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void => {
    const cause = error.code ?? 'unknown';
    // The socket's in-flight response: `_httpMessage` is how Node's own handler finds it.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (cause === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      // The peer is gone, we already answered, or a response is under way: nothing to add.
      if (!socket.writableEnded) socket.destroy();
      return;
    }
    const refusal = known[cause] ?? BAD_REQUEST;
    // A request the application is reading (a body too slow) keeps the id it was given there.
    const given = inFlight?.getHeader('X-Request-Id');
    const requestId = typeof given === 'string' ? given : randomUUID();
    const head = isHead(error, inFlight);
    socket.end(rawResponse(refusal, requestId, head), () => socket.destroy());
    onClientError?.({ requestId, status: refusal.status, code: refusal.code, cause });
  };
}

/**
 * `CONNECT` (a proxy tunnel request) reaches no route: Node hands it over as a bare socket, which
 * gets a `404` Error and is closed, instead of being dropped without an answer.
 */
export function connectListener(req: IncomingMessage, socket: Duplex): void {
  const refusal: Refusal = {
    status: 404,
    reason: 'Not Found',
    code: 'not_found',
    message: `no route for CONNECT ${req.url ?? ''}`.slice(0, 200),
  };
  socket.end(rawResponse(refusal, requestIdFor(req.headers['x-request-id']), false));
}
