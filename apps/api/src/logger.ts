import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import { BUILD_INFO } from './build-info.js';

/**
 * JSON logs, on stdout unless told otherwise; every line names the service, its version, the
 * process id and the host. Credentials are redacted wherever they might be attached.
 *
 * Stdout is written synchronously (pino's own `pino.destination({ sync: true })`): an
 * asynchronous destination keeps every line it could not write yet in memory, without bound, so
 * a busy process holds a growing backlog of log lines and loses it if it dies. Written at once,
 * a line is out before the next statement runs, and a slow reader slows the service instead of
 * filling its memory.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: {
        service: 'animal-store-api',
        version: BUILD_INFO.version,
        pid: process.pid,
        hostname: hostname(),
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'authorization',
          'apiKey',
          'mongodbUri',
          'metricsToken',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
