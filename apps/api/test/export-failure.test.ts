import { describe, expect, it } from 'vitest';
import { exportFailure } from '../src/tracing/export-failure.js';

/** The exporter's error for an answer it gives up on: status text, status, the answer's body. */
class OTLPExporterError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: string,
  ) {
    super(message);
  }
}

describe('what the log says of spans the exporter could not send', () => {
  it('keeps the message and the code, never the collector answer', () => {
    const error = new OTLPExporterError('Bad Request', 400, 'rejected token abc-secret-123');
    expect(exportFailure(error)).toBe('Bad Request (400)');
  });

  it('names a socket error by its code', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4318'), {
      code: 'ECONNREFUSED',
    });
    expect(exportFailure(error)).toBe('connect ECONNREFUSED 127.0.0.1:4318 (ECONNREFUSED)');
  });

  it('cuts the user and password out of any URL in the message', () => {
    const error = new Error(
      'request to https://user:s3cret@collector.example:4318/v1/traces failed; HTTP://tok@x/',
    );
    const said = exportFailure(error);
    expect(said).toBe('request to https://collector.example:4318/v1/traces failed; HTTP://x/');
    expect(said).not.toContain('s3cret');
    // A scheme of letters, digits, `+`, `.` and `-`, after a letter.
    expect(exportFailure(new Error('at svn+ssh.2-x://u:p@h/ and (h2c://k@y)'))).toBe(
      'at svn+ssh.2-x://h/ and (h2c://y)',
    );
    expect(exportFailure(new Error('https://u:p@h/ refused, x2://u@h'))).toBe(
      'https://h/ refused, x2://h',
    );
  });

  it('says no code when the error has none, or a null one', () => {
    const error = Object.assign(new Error('socket hang up'), { code: null });
    expect(exportFailure(error)).toBe('socket hang up');
  });

  it('takes what is not an Error as its text, and at most 300 characters of anything', () => {
    expect(exportFailure('Request Timeout')).toBe('Request Timeout');
    expect(exportFailure(new Error('x'.repeat(1000)))).toHaveLength(300);
  });
});
