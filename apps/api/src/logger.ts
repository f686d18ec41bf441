import pino, { type DestinationStream, type Logger } from 'pino';

/** JSON logs. Credentials are redacted wherever they might be attached. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'animal-store-api' },
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
    destination,
  );
}
