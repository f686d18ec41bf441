import {
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoSystemError,
  MongoTopologyClosedError,
} from 'mongodb';
import { StoreUnavailableError } from './pet-store.js';

// Socket errors the driver sometimes passes through unwrapped when the server goes away.
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTCONN',
  'EHOSTUNREACH',
]);

// Server codes meaning "not now, try again": the driver's retryable codes (host unreachable,
// network timeout, shutdown, stepdown, no primary, stale shard routing) and an interrupt.
const TRANSIENT_SERVER_CODES = new Set([
  6, 7, 63, 89, 91, 134, 150, 189, 262, 9001, 10107, 11600, 11601, 11602, 13435, 13436,
]);

// FerretDB cancels the operations in flight when it shuts down and reports each as an
// InternalError (code 1) whose message ends in "context canceled".
const INTERNAL_ERROR = 1;
const CANCELLED_AT_SHUTDOWN = /context canceled$/;

/** Whether a driver error means the database cannot be reached right now. */
export function isUnavailable(error: unknown): boolean {
  if (
    // Network errors include a pool cleared by one; system errors include server selection.
    error instanceof MongoNetworkError ||
    error instanceof MongoSystemError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoOperationTimeoutError ||
    (error instanceof Error && error.name === 'WaitQueueTimeoutError') ||
    SOCKET_ERROR_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')
  ) {
    return true;
  }
  if (
    error instanceof MongoError &&
    (error.hasErrorLabel('RetryableWriteError') || error.hasErrorLabel('ResetPool'))
  ) {
    return true;
  }
  if (!(error instanceof MongoServerError)) return false;
  const code = Number(error.code);
  return (
    TRANSIENT_SERVER_CODES.has(code) ||
    (code === INTERNAL_ERROR && CANCELLED_AT_SHUTDOWN.test(error.message))
  );
}

/** Runs a store operation, turning "database unreachable" into `StoreUnavailableError`. */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isUnavailable(error))
      throw new StoreUnavailableError('the database is unreachable', { cause: error });
    throw error;
  }
}

/** Whether a driver error is a duplicate key (E11000). */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}
