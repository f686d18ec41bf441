import { BODY_LIMIT_BYTES } from '@animal-store/contract';

/** Everything the process reads from its environment, validated. */
export interface Config {
  port: number;
  host: string;
  /** Raw `API_KEYS` value; parsed by `parseApiKeys`. Empty means: generate one at start. */
  apiKeys: string;
  logLevel: string;
  mongodbUri?: string;
  mongodbDb: string;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** How long an API key lookup in MongoDB is reused (0: never): how late a revocation bites. */
  apiKeyCacheMs: number;
}

/** A configuration problem, worded for the person who set the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(
      `${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`,
    );
  }
  return Number(raw);
}

/** Reads and validates the configuration; throws `ConfigError` naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(logLevel)})`,
    );
  }
  const mongodbUri = env.MONGODB_URI || undefined;
  if (mongodbUri !== undefined && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
    // The URI may hold a password: never echo it.
    throw new ConfigError('MONGODB_URI must start with mongodb:// or mongodb+srv://');
  }
  const mongodbDb = env.MONGODB_DB || 'animal_store';
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(mongodbDb)) {
    throw new ConfigError(
      `MONGODB_DB must be 1-63 letters, digits, _ or - (got ${JSON.stringify(mongodbDb)})`,
    );
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    apiKeys: env.API_KEYS ?? '',
    logLevel,
    mongodbUri,
    mongodbDb,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', BODY_LIMIT_BYTES, 1, 10 * 1024 * 1024),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 5_000, 0, 600_000),
  };
}
