import type { ErrorCode, ErrorDetail } from '@animal-store/contract';

/** An error that becomes an Error response: `status` and `code` map one-to-one onto the body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends HttpError {
  constructor(message: string, details: ErrorDetail[]) {
    super(400, 'validation_failed', message, details);
  }
}

export class MalformedJsonError extends HttpError {
  constructor(message: string) {
    super(400, 'malformed_json', message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message: string) {
    super(401, 'unauthorized', message, undefined, {
      'WWW-Authenticate': 'Bearer realm="animal-store"',
    });
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

export class GoneError extends HttpError {
  constructor(message: string) {
    super(410, 'gone', message);
  }
}

/** The request (its body) did not arrive in time; the connection is closed after the answer. */
export class RequestTimeoutError extends HttpError {
  constructor(message: string) {
    super(408, 'request_timeout', message, undefined, { Connection: 'close' });
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

export class UriTooLongError extends HttpError {
  constructor(limitBytes: number) {
    super(414, 'uri_too_long', `request target exceeds ${limitBytes} bytes`);
  }
}

export class RateLimitedError extends HttpError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'rate limit exceeded for this API key; retry later', undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, 'service_unavailable', message, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

/** The Error a fault we did not foresee becomes: nothing internal leaks. */
export const internalError = () => new HttpError(500, 'internal_error', 'internal server error');
