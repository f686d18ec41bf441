import { readFileSync } from 'node:fs';
import { BODY_LIMIT_BYTES } from '@animal-store/contract';
import { ConfigError } from './config-error.js';
import { parseCorsOrigins } from './http/cors.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './http/json-body.js';
import { DEFAULT_RATE_LIMIT, type RateLimitSettings } from './http/rate-limit.js';
import {
  DEFAULT_MAX_URL_BYTES,
  DEFAULT_SERVER_LIMITS,
  type ServerLimits,
} from './http/server-limits.js';
import { parseApiKeys } from './keys/api-key.js';
import {
  DEFAULT_STORE_MAX_IN_FLIGHT,
  DEFAULT_STORE_TIMEOUT_MS,
} from './store/instrumented-pet-store.js';

/** Everything the process reads from its environment, validated. */
export interface Config {
  port: number;
  host: string;
  /** Raw `API_KEYS` value; parsed by `parseApiKeys`. Empty means: generate one at start. */
  apiKeys: string;
  logLevel: string;
  mongodbUri?: string;
  mongodbDb: string;
  /** Whether `MONGODB_URI` may weaken the write concern (`w`) or the read preference. */
  mongodbAllowWeakConsistency: boolean;
  /** With MongoDB: the longest a store call may take; also the driver's wait for a connection and for a reply. */
  storeTimeoutMs: number;
  /** Store calls waiting on the database at once; more are answered `503` at once. */
  storeMaxInFlight: number;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** On SIGTERM, how long `/readyz` answers 503 while requests are still served. */
  drainDelayMs: number;
  /** How old a process's copy of the `api_keys` collection may be: how late a new key or a revocation bites. */
  apiKeyCacheMs: number;
  /** Requests per window per API key; absent when `RATE_LIMIT_REQUESTS=0`. */
  rateLimit?: RateLimitSettings;
  /** Where the quota is counted: shared through MongoDB (`cluster`) or in each process. */
  rateLimitScope: 'cluster' | 'process';
  /** Socket-level limits of the HTTP server. */
  serverLimits: ServerLimits;
  /** Longest request target (path and query) answered; longer is `414`. */
  maxUrlBytes: number;
  /** How long a request body may take to arrive; slower is `408`. */
  bodyTimeoutMs: number;
  /** Bearer token `GET /metrics` asks for; absent means the endpoint is open. */
  metricsToken?: string;
  /** Origins whose pages may call the API (`*`: any); empty: no CORS. */
  corsOrigins: string[];
  /** Whether the probes' and `/metrics`' successful answers are access-logged and traced. */
  observeProbes: boolean;
}

export { ConfigError } from './config-error.js';

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

function boolean(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] || 'false';
  if (raw !== 'true' && raw !== 'false') {
    throw new ConfigError(`${name} must be true or false (got ${JSON.stringify(raw)})`);
  }
  return raw === 'true';
}

/**
 * A secret from `NAME`, or from the file `NAME_FILE` names (a mounted secret; trailing
 * whitespace dropped). Setting both is an error; the value is never echoed.
 */
export function secret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const path = env[`${name}_FILE`];
  if (path === undefined || path === '') return env[name];
  if (env[name] !== undefined && env[name] !== '') {
    throw new ConfigError(`set ${name} or ${name}_FILE, not both`);
  }
  try {
    return readFileSync(path, 'utf8').trimEnd();
  } catch (error) {
    throw new ConfigError(`${name}_FILE cannot be read: ${(error as Error).message}`);
  }
}

/** Reads and validates the configuration; throws `ConfigError` naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(logLevel)})`,
    );
  }
  const mongodbUri = secret(env, 'MONGODB_URI') || undefined;
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
  const apiKeys = secret(env, 'API_KEYS') ?? '';
  // Checked here so a bad entry stops the process before anything starts.
  parseApiKeys(apiKeys);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    apiKeys,
    logLevel,
    mongodbUri,
    mongodbDb,
    mongodbAllowWeakConsistency: boolean(env, 'MONGODB_ALLOW_WEAK_CONSISTENCY'),
    storeTimeoutMs: integer(env, 'STORE_TIMEOUT_MS', DEFAULT_STORE_TIMEOUT_MS, 100, 600_000),
    storeMaxInFlight: integer(
      env,
      'STORE_MAX_IN_FLIGHT',
      DEFAULT_STORE_MAX_IN_FLIGHT,
      1,
      1_000_000,
    ),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', BODY_LIMIT_BYTES, 1, 10 * 1024 * 1024),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    drainDelayMs: integer(env, 'DRAIN_DELAY_MS', 0, 0, 600_000),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 5_000, 0, 600_000),
    rateLimitScope: rateLimitScope(env, mongodbUri !== undefined),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS ?? ''),
    observeProbes: boolean(env, 'OBSERVE_PROBES'),
    ...protectionConfig(env),
  };
}

/** `RATE_LIMIT_SCOPE`: `cluster` (the default with MongoDB, which it needs) or `process`. */
function rateLimitScope(env: NodeJS.ProcessEnv, mongodb: boolean): 'cluster' | 'process' {
  const raw = env.RATE_LIMIT_SCOPE || (mongodb ? 'cluster' : 'process');
  if (raw !== 'cluster' && raw !== 'process') {
    throw new ConfigError(
      `RATE_LIMIT_SCOPE must be cluster or process (got ${JSON.stringify(raw)})`,
    );
  }
  if (raw === 'cluster' && !mongodb) {
    throw new ConfigError(
      'RATE_LIMIT_SCOPE=cluster shares the limit through MongoDB: set MONGODB_URI',
    );
  }
  return raw;
}

// RFC 6750 token68: what fits in `Authorization: Bearer <token>`.
const METRICS_TOKEN = /^[A-Za-z0-9\-._~+/]{16,}=*$/;

/** Rate limit, protocol limits and the metrics token. */
function protectionConfig(env: NodeJS.ProcessEnv) {
  const requests = integer(env, 'RATE_LIMIT_REQUESTS', DEFAULT_RATE_LIMIT.requests, 0, 1e9);
  const windowSeconds = integer(
    env,
    'RATE_LIMIT_WINDOW_SECONDS',
    DEFAULT_RATE_LIMIT.windowSeconds,
    1,
    86_400,
  );
  const d = DEFAULT_SERVER_LIMITS;
  const serverLimits: ServerLimits = {
    maxHeaderBytes: integer(env, 'MAX_HEADER_BYTES', d.maxHeaderBytes, 1024, 1024 * 1024),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 1000, 600_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 1000, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100, 600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', d.maxConnections, 1, 1_000_000),
  };
  if (serverLimits.headersTimeoutMs > serverLimits.requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${serverLimits.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${serverLimits.requestTimeoutMs})`,
    );
  }
  const maxUrlBytes = integer(env, 'MAX_URL_BYTES', DEFAULT_MAX_URL_BYTES, 256, 1024 * 1024);
  if (maxUrlBytes >= serverLimits.maxHeaderBytes) {
    // Node counts the request line toward the header limit and answers 431 first.
    throw new ConfigError(
      `MAX_URL_BYTES (${maxUrlBytes}) must be less than MAX_HEADER_BYTES (${serverLimits.maxHeaderBytes})`,
    );
  }
  const metricsToken = secret(env, 'METRICS_TOKEN') || undefined;
  if (metricsToken !== undefined && !METRICS_TOKEN.test(metricsToken)) {
    // A token is a secret: never echo it.
    throw new ConfigError(
      'METRICS_TOKEN must be at least 16 characters from A-Z a-z 0-9 - . _ ~ + / (then = padding)',
    );
  }
  return {
    rateLimit: requests === 0 ? undefined : { requests, windowSeconds },
    serverLimits,
    maxUrlBytes,
    bodyTimeoutMs: integer(env, 'BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS, 100, 600_000),
    metricsToken,
  };
}
