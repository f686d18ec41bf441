import { createRequire } from 'node:module';
import {
  MongoClientClosedError,
  MongoExpiredSessionError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import { guarded, isDuplicateKey, isUnavailable } from '../src/store/mongo-errors.js';
import { StoreUnavailableError } from '../src/store/pet-store.js';

const serverError = (code: number, errmsg: string) =>
  new MongoServerError({ ok: 0, code, errmsg, message: errmsg });

describe('which driver errors mean the database is unreachable', () => {
  it('counts network and server-selection failures', () => {
    expect(isUnavailable(new MongoNetworkError('connection reset'))).toBe(true);
    const noServer = new MongoServerSelectionError('no server', { error: undefined } as never);
    expect(isUnavailable(noServer)).toBe(true);
  });

  it('counts shutdown, stepdown and interrupt codes', () => {
    for (const code of [91, 189, 10107, 11600, 11601, 11602, 13435, 13436]) {
      expect(isUnavailable(serverError(code, 'not now')), `code ${code}`).toBe(true);
    }
  });

  it('counts an operation FerretDB cancelled while shutting down', () => {
    const cancelled = serverError(
      1,
      '[msg_insert.go:168 handler.(*Handler).MsgInsert] [db.go:134 fsql.(*DB).InTransaction] context canceled',
    );
    expect(isUnavailable(cancelled)).toBe(true);
    // A read cut short so: FerretDB's handler of time limits passes the cancellation on.
    const read = serverError(
      1,
      '[msg_find.go:344 handler.handleMaxTimeMSError] [values.go:74 iterator.ConsumeValuesN[...]] [query_iterator.go:79 sqlite.(*queryIterator).Next] context canceled after delay',
    );
    expect(isUnavailable(read)).toBe(true);
  });

  it('counts FerretDB’s SQLite backend busy under load', () => {
    const busy = serverError(
      1,
      '[msg_insert.go:168 handler.(*Handler).MsgInsert] database is locked (5) (SQLITE_BUSY)',
    );
    expect(isUnavailable(busy)).toBe(true);
  });

  it('counts errors the driver labels retryable, and a write concern not met in time', () => {
    const labelled = serverError(2, 'some state');
    labelled.addErrorLabel('RetryableWriteError');
    expect(isUnavailable(labelled)).toBe(true);
    expect(isUnavailable(serverError(64, 'waiting for replication timed out'))).toBe(true);
    for (const label of ['TransientTransactionError', 'ResetPool']) {
      const error = serverError(2, 'some state');
      error.addErrorLabel(label);
      expect(isUnavailable(error), label).toBe(true);
    }
  });

  it('counts a socket error the driver passes on unwrapped, and nothing for no error', () => {
    for (const code of ['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT']) {
      expect(isUnavailable(Object.assign(new Error(code), { code })), code).toBe(true);
    }
    expect(isUnavailable(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
    expect(isUnavailable(undefined)).toBe(false);
    expect(isUnavailable(null)).toBe(false);
  });

  it('counts a call cut short by its client closing (the store reconnects so)', () => {
    expect(isUnavailable(new MongoClientClosedError())).toBe(true);
    expect(isUnavailable(new MongoExpiredSessionError())).toBe(true);
    // The driver's own class (not exported from its entry): a checkout from a closed pool.
    const { PoolClosedError } = createRequire(import.meta.url)('mongodb/lib/cmap/errors.js') as {
      PoolClosedError: new (pool: { address: string }) => Error;
    };
    expect(isUnavailable(new PoolClosedError({ address: '127.0.0.1:27017' }))).toBe(true);
  });

  it('does not count other internal errors, duplicate keys or plain bugs', () => {
    expect(isUnavailable(serverError(1, 'index out of range'))).toBe(false);
    expect(isUnavailable(serverError(11000, 'E11000 duplicate key error'))).toBe(false);
    expect(isUnavailable(new TypeError('x is undefined'))).toBe(false);
  });

  it('turns an unreachable database into StoreUnavailableError and passes the rest on', async () => {
    const cancelled = serverError(1, 'context canceled');
    await expect(guarded(() => Promise.reject(cancelled))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    const bug = new TypeError('x is undefined');
    await expect(guarded(() => Promise.reject(bug))).rejects.toBe(bug);
  });

  it('tells a wait that ran out (timeout) from an unreachable database (unavailable)', async () => {
    const kindOf = (error: unknown) =>
      guarded(() => Promise.reject(error)).catch((e: StoreUnavailableError) => e.kind);
    expect(await kindOf(new MongoNetworkTimeoutError('socket timed out'))).toBe('timeout');
    expect(await kindOf(new MongoOperationTimeoutError('timeoutMS expired'))).toBe('timeout');
    // The driver's own class (not exported from its entry): a checkout past waitQueueTimeoutMS.
    const { WaitQueueTimeoutError } = createRequire(import.meta.url)(
      'mongodb/lib/cmap/errors.js',
    ) as { WaitQueueTimeoutError: new (message: string, address: string) => Error };
    const waited = new WaitQueueTimeoutError('checkout timed out', '127.0.0.1:27017');
    expect(await kindOf(waited)).toBe('timeout');
    expect(await kindOf(new MongoNetworkError('connection reset'))).toBe('unavailable');
    const noServer = new MongoServerSelectionError('no server', { error: undefined } as never);
    expect(await kindOf(noServer)).toBe('unavailable');
    const socketWait = Object.assign(new Error('read ETIMEDOUT'), { code: 'ETIMEDOUT' });
    expect(await kindOf(socketWait)).toBe('timeout');
    expect(await kindOf(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(
      'unavailable',
    );
  });

  it('words each kind for the log', async () => {
    const messageOf = (error: unknown) =>
      guarded(() => Promise.reject(error)).catch((e: StoreUnavailableError) => e.message);
    expect(await messageOf(new MongoNetworkTimeoutError('socket timed out'))).toBe(
      'the database did not answer in time',
    );
    expect(await messageOf(new MongoNetworkError('connection reset'))).toBe(
      'the database is unreachable',
    );
  });
});

describe('which driver errors are a duplicate key', () => {
  it("is the server's E11000 alone", () => {
    expect(isDuplicateKey(serverError(11000, 'E11000 duplicate key error'))).toBe(true);
    expect(isDuplicateKey(serverError(59, "no such command: 'endSessions'"))).toBe(false);
    expect(isDuplicateKey(new MongoNetworkError('connection reset'))).toBe(false);
    expect(isDuplicateKey(Object.assign(new Error('E11000'), { code: 11000 }))).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
  });
});
