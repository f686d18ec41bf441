import { describeDetails, type ErrorCode, type ErrorDetail } from '@animal-store/contract';
import type { AuthFailureReason } from '../metrics/api-metrics.js';

/** What an `HttpError` answers with: `status` and `code` map one-to-one onto the Error body. */
export interface HttpErrorInit {
  status: number;
  code: ErrorCode;
  message: string;
  /** Each offending field, for the body's `details`. */
  details?: ErrorDetail[];
  /** Headers the answer carries besides the usual ones. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * An error that becomes an Error answer. Throw the subclass of its code (one per code, each
 * built from an options object); `errorAnswers` turns it into the answer.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor({ status, code, message, details, headers = {} }: HttpErrorInit) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

interface Message {
  message: string;
}

/** `400 bad_request`: a request whose meaning is ambiguous, or that the API will not read. */
export class BadRequestError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 400, code: 'bad_request', message });
  }
}

/** `400 validation_failed`, naming each offending field in `details`. */
export class ValidationError extends HttpError {
  constructor({ message, details }: Message & { details: ErrorDetail[] }) {
    super({ status: 400, code: 'validation_failed', message, details });
  }

  /** The 400 for what a contract check found: its details, described in the message. */
  static of(details: ErrorDetail[]): ValidationError {
    return new ValidationError({ message: describeDetails(details), details });
  }
}

/** `400 malformed_json`: a body that is not JSON (or not UTF-8, or cut short). */
export class MalformedJsonError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 400, code: 'malformed_json', message });
  }
}

/** `401 unauthorized`, with the RFC 6750 challenge; `reason` says why, for the metrics. */
export class UnauthorizedError extends HttpError {
  readonly reason: AuthFailureReason | undefined;

  constructor({ message, reason }: Message & { reason?: AuthFailureReason }) {
    super({
      status: 401,
      code: 'unauthorized',
      message,
      headers: { 'WWW-Authenticate': 'Bearer realm="animal-store"' },
    });
    this.reason = reason;
  }
}

/** `404 not_found`. */
export class NotFoundError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 404, code: 'not_found', message });
  }
}

/** `405 method_not_allowed`: a known path and a method it does not serve; `allow` lists those it does. */
export class MethodNotAllowedError extends HttpError {
  constructor({ message, allow }: Message & { allow: string }) {
    super({ status: 405, code: 'method_not_allowed', message, headers: { Allow: allow } });
  }
}

/** `408 request_timeout`: the body did not arrive in time; the connection closes after the answer. */
export class RequestTimeoutError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 408, code: 'request_timeout', message, headers: { Connection: 'close' } });
  }
}

/** `409 conflict`: the same request is still at work; retry after `retryAfterSeconds`. */
export class ConflictError extends HttpError {
  constructor({ message, retryAfterSeconds }: Message & { retryAfterSeconds: number }) {
    super({
      status: 409,
      code: 'conflict',
      message,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** `410 gone`: the operation has reached its sunset. */
export class GoneError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 410, code: 'gone', message });
  }
}

/** `413 payload_too_large`. */
export class PayloadTooLargeError extends HttpError {
  constructor({ limitBytes }: { limitBytes: number }) {
    super({
      status: 413,
      code: 'payload_too_large',
      message: `request body exceeds ${limitBytes} bytes`,
    });
  }
}

/** `414 uri_too_long`. */
export class UriTooLongError extends HttpError {
  constructor({ limitBytes }: { limitBytes: number }) {
    super({
      status: 414,
      code: 'uri_too_long',
      message: `request target exceeds ${limitBytes} bytes`,
    });
  }
}

/** `431 request_header_fields_too_large`; the connection closes after the answer. */
export class RequestHeaderFieldsTooLargeError extends HttpError {
  constructor({ message }: Message) {
    super({
      status: 431,
      code: 'request_header_fields_too_large',
      message,
      headers: { Connection: 'close' },
    });
  }
}

/**
 * `501 not_implemented`: a transfer coding other than `chunked` (RFC 9112 §6.1); the body is
 * never read, so the connection closes after the answer.
 */
export class NotImplementedError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 501, code: 'not_implemented', message, headers: { Connection: 'close' } });
  }
}

/** `415 unsupported_media_type`, with any header that says what would do (`Accept-Encoding`). */
export class UnsupportedMediaTypeError extends HttpError {
  constructor({ message, headers }: Message & { headers?: Readonly<Record<string, string>> }) {
    super({ status: 415, code: 'unsupported_media_type', message, headers });
  }
}

/** `422 idempotency_key_reused`: an `Idempotency-Key` sent again with another body. */
export class IdempotencyKeyReusedError extends HttpError {
  constructor({ message }: Message) {
    super({ status: 422, code: 'idempotency_key_reused', message });
  }
}

/** `429 rate_limited`, with `Retry-After`. */
export class RateLimitedError extends HttpError {
  constructor({
    retryAfterSeconds,
    message = 'rate limit exceeded for this API key; retry later',
  }: Partial<Message> & { retryAfterSeconds: number }) {
    super({
      status: 429,
      code: 'rate_limited',
      message,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** `500 internal_error`: a fault nobody foresaw; nothing internal leaks into the answer. */
export class InternalError extends HttpError {
  constructor() {
    super({ status: 500, code: 'internal_error', message: 'internal server error' });
  }
}

/** `503 service_unavailable`, with `Retry-After`. */
export class ServiceUnavailableError extends HttpError {
  constructor({ message, retryAfterSeconds }: Message & { retryAfterSeconds: number }) {
    super({
      status: 503,
      code: 'service_unavailable',
      message,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
