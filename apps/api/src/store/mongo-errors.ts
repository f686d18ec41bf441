import {
  MongoClientClosedError,
  MongoError,
  MongoExpiredSessionError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoSystemError,
  MongoTopologyClosedError,
} from 'mongodb';
import { StoreUnavailableError } from './pet-store.js';

// The driver's pool checkout that waited `waitQueueTimeoutMS` (the class is not exported).
const WAIT_QUEUE_TIMEOUT = new Set(['MongoWaitQueueTimeoutError', 'WaitQueueTimeoutError']);
const isWaitQueueTimeout = (error: unknown) =>
  error instanceof Error && WAIT_QUEUE_TIMEOUT.has(error.name);
// A checkout from the pool of a client that is closing (the class is not exported).
const isPoolClosed = (error: unknown) =>
  error instanceof Error && error.name === 'MongoPoolClosedError';

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
// network timeout, shutdown, stepdown, no primary, stale shard routing), an interrupt, and a
// write concern not met in time (64: the write may have been applied; a retry with its
// Idempotency-Key does not duplicate it).
const TRANSIENT_SERVER_CODES = new Set([
  6, 7, 63, 64, 89, 91, 134, 150, 189, 262, 9001, 10107, 11600, 11601, 11602, 13435, 13436,
]);

// FerretDB reports two transient states as an InternalError (code 1): the operations in flight
// when it shuts down ("context canceled", or "context canceled after delay" from a read its
// handler of time limits passes on), and its SQLite backend's lock held by another writer under
// load (SQLITE_BUSY, "database is locked").
const INTERNAL_ERROR = 1;
const FERRETDB_TRANSIENT = /context canceled(?: after delay)?$|SQLITE_BUSY|database is locked/;

/** Whether a driver error means the database cannot serve right now (the API answers 503). */
export function isUnavailable(error: unknown): boolean {
  if (
    // Network errors include a pool cleared by one; system errors include server selection.
    error instanceof MongoNetworkError ||
    error instanceof MongoSystemError ||
    // The store closes its client to reconnect (a stalled monitor): a call on the wire then ends
    // with the client closed, and one begun meanwhile with its session ended or the pool closed.
    error instanceof MongoClientClosedError ||
    error instanceof MongoExpiredSessionError ||
    isPoolClosed(error) ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoOperationTimeoutError ||
    isWaitQueueTimeout(error) ||
    SOCKET_ERROR_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')
  ) {
    return true;
  }
  if (
    error instanceof MongoError &&
    (error.hasErrorLabel('RetryableWriteError') ||
      error.hasErrorLabel('TransientTransactionError') ||
      error.hasErrorLabel('ResetPool'))
  ) {
    return true;
  }
  if (!(error instanceof MongoServerError)) return false;
  const code = Number(error.code);
  return (
    TRANSIENT_SERVER_CODES.has(code) ||
    (code === INTERNAL_ERROR && FERRETDB_TRANSIENT.test(error.message))
  );
}

/**
 * Whether an unavailable-database error is a wait that ran out (an operation, a socket read, a
 * pool checkout) rather than a refused or lost connection.
 */
export function isTimeout(error: unknown): boolean {
  return (
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoNetworkTimeoutError ||
    isWaitQueueTimeout(error) ||
    (error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT'
  );
}

/**
 * Runs one call on the driver's client, its errors as the store's: `guarded`, or the store's own
 * `call`, which also refuses calls while it replaces its client (`MongoPetStore`).
 */
export type DatabaseCall = <T>(operation: () => Promise<T>) => Promise<T>;

/** Runs a store operation, turning "database unreachable" into `StoreUnavailableError`. */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isUnavailable(error)) {
      const timedOut = isTimeout(error);
      throw new StoreUnavailableError(
        timedOut ? 'the database did not answer in time' : 'the database is unreachable',
        { cause: error, kind: timedOut ? 'timeout' : 'unavailable' },
      );
    }
    throw error;
  }
}

/** Whether a driver error is a duplicate key (E11000). */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}
