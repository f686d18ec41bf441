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

// Server codes meaning "not now, try again": shutdown, stepdown, no primary.
const TRANSIENT_SERVER_CODES = new Set([91, 189, 10107, 11600, 11602, 13435, 13436]);

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
  return error instanceof MongoServerError && TRANSIENT_SERVER_CODES.has(Number(error.code));
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
