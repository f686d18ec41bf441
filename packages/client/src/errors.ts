import type { ErrorCode, ErrorDetail } from '@animal-store/contract';

/**
 * What the client itself reports when no Error body came back: no answer (`network_error`), none
 * within the timeout (`timeout`), the caller's signal aborted (`aborted`), or an answer without
 * an Error body (`unexpected_response`).
 */
export type ClientErrorCode = 'network_error' | 'timeout' | 'aborted' | 'unexpected_response';

/** Every failure the client throws: an Error body the API answered, or one the client made. */
export class AnimalStoreError extends Error {
  override readonly name: string = 'AnimalStoreError';
  /** The API's error code (one of `ERROR_CODES`, or a code this client does not know yet). */
  readonly code: ErrorCode | ClientErrorCode | (string & {});
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** The raw answer, its body already read; `undefined` when none arrived. */
  readonly response: Response | undefined;
  /** Each offending field, on `validation_failed`. */
  readonly details: readonly ErrorDetail[];
  /**
   * The request's `X-Request-Id` (the answer's, else the one the client sent): name it when
   * asking about a failure.
   */
  readonly requestId: string | undefined;

  constructor(
    init: {
      code: AnimalStoreError['code'];
      message: string;
      status: number;
      details?: readonly ErrorDetail[] | undefined;
      requestId?: string | undefined;
      response?: Response | undefined;
    },
    options?: { cause?: unknown },
  ) {
    super(init.message, options);
    this.code = init.code;
    this.status = init.status;
    this.response = init.response;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
  }
}

/** `410 gone`: the operation has reached its sunset and is removed. */
export class GoneError extends AnimalStoreError {
  override readonly name: string = 'GoneError';
  /** When it was removed (its `Sunset` header), when the answer says. */
  readonly sunsetAt: Date | undefined;
  /** The operation to use instead (its `Link rel="successor-version"`), when the answer says. */
  readonly successor: string | undefined;

  constructor(
    init: ConstructorParameters<typeof AnimalStoreError>[0] & {
      sunsetAt?: Date | undefined;
      successor?: string | undefined;
    },
  ) {
    super(init);
    this.sunsetAt = init.sunsetAt;
    this.successor = init.successor;
  }
}
