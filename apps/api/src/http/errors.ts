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

/** A known path and a method it does not serve; `allow` lists the ones it does. */
export class MethodNotAllowedError extends HttpError {
  constructor(message: string, allow: string) {
    super(405, 'method_not_allowed', message, undefined, { Allow: allow });
  }
}

/** A request whose meaning is ambiguous or that the API will not read (`400 bad_request`). */
export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, 'bad_request', message);
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
  constructor(message: string, headers: Readonly<Record<string, string>> = {}) {
    super(415, 'unsupported_media_type', message, undefined, headers);
  }
}

export class UriTooLongError extends HttpError {
  constructor(limitBytes: number) {
    super(414, 'uri_too_long', `request target exceeds ${limitBytes} bytes`);
  }
}

export class RateLimitedError extends HttpError {
  constructor(
    retryAfterSeconds: number,
    message = 'rate limit exceeded for this API key; retry later',
  ) {
    super(429, 'rate_limited', message, undefined, {
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
