#!/usr/bin/env node
import { API_PREFIX } from '@animal-store/contract';
import type { Logger } from 'pino';
import { versionLine } from './build-info.js';
import { ConfigError, loadConfig } from './config.js';
import { configFingerprint, registerConfigInfo } from './config-fingerprint.js';
import type { RateLimiter, RateLimitSettings } from './http/rate-limit.js';
import { setUpApiKeys } from './keys/api-key-setup.js';
import { createLogger } from './logger.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { MongoPoolMetrics } from './metrics/mongo-pool-metrics.js';
import { startServer } from './server.js';
import { shutDown, stopOnSignals } from './shutdown.js';
import { createStore, type StoreDatabase } from './store/create-store.js';
import { StoreUnavailableError } from './store/pet-store.js';
import { startTracing } from './tracing/tracing.js';

/** The rate limit shared through MongoDB (`RATE_LIMIT_SCOPE=cluster`). */
async function sharedRateLimiter(
  { db, call }: StoreDatabase,
  settings: RateLimitSettings,
  metrics: ApiMetrics,
  logger: Logger,
): Promise<RateLimiter> {
  const { ClusterRateLimiter } = await import('./mongo.js');
  return ClusterRateLimiter.open(db, settings, {
    call,
    onLease: () => metrics.rateLimitLeases.inc(),
    onFallback: (error, untilMs) => {
      metrics.rateLimitFallbacks.inc();
      logger.warn(
        { err: (error as Error)?.message, until: new Date(untilMs).toISOString() },
        'rate limit: MongoDB unreachable; counting in this process until the window ends',
      );
    },
  });
}

/** Handles the command line (only `--version`); true when the process should start. */
function commandLine(args: readonly string[]): boolean {
  const [first] = args;
  if (first === undefined) return true;
  if (args.length === 1 && (first === '--version' || first === '-v')) {
    process.stdout.write(`${versionLine('animal-store-api')}\n`);
    return false;
  }
  process.stderr.write(
    `animal-store-api: unknown argument ${JSON.stringify(first)}: the service is configured through environment variables; --version prints its version\n`,
  );
  process.exitCode = 2;
  return false;
}

async function main(): Promise<void> {
  if (!commandLine(process.argv.slice(2))) return;
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Before the store: the MongoDB driver's instrumentation must see the driver load.
  const tracing = await startTracing(process.env, logger);
  const metrics = new ApiMetrics();
  const fingerprint = configFingerprint(config);
  registerConfigInfo(metrics.registry, fingerprint);
  const pool = config.mongodbUri === undefined ? undefined : new MongoPoolMetrics(metrics.registry);
  const { store, database } = await createStore(config, logger, (client) => pool?.observe(client));
  const keys = await setUpApiKeys(config, database);
  const key = keys.generatedKey;
  if (key !== undefined) {
    // Printed once to the terminal, never through the logger: logs must not hold keys.
    process.stderr.write(
      `\nNo API_KEYS configured; generated a key for this run only:\n\n    ${key}\n\n` +
        `Send it as: Authorization: Bearer ${key}\n\n`,
    );
  }
  const rateLimiter =
    config.rateLimit && config.rateLimitScope === 'cluster' && database
      ? await sharedRateLimiter(database, config.rateLimit, metrics, logger)
      : undefined;
  const running = await startServer(
    {
      store,
      tracing,
      metrics,
      rateLimiter,
      apiKeys: keys.verifier,
      logger,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyTimeoutMs: config.bodyTimeoutMs,
      maxUrlBytes: config.maxUrlBytes,
      rateLimit: config.rateLimit,
      metricsToken: config.metricsToken,
      corsOrigins: config.corsOrigins,
      observeProbes: config.observeProbes,
      storeLimits: {
        maxInFlight: config.storeMaxInFlight,
        // The in-memory store never waits: its calls pay for no deadline.
        timeoutMs: database === undefined ? undefined : config.storeTimeoutMs,
      },
    },
    { host: config.host, port: config.port },
    config.serverLimits,
  );
  // A runner's copy of the first signal (`pnpm start` gets its own when the whole process group
  // is signalled) is not a second signal: the drain goes on.
  stopOnSignals(process, logger, (signal, hurry) => {
    const exit = (code: number) => process.exit(code);
    // The spans still queued go out after the store closes, within the shutdown's deadline.
    const closing = {
      close: async () => {
        await store.close();
        await tracing?.shutdown();
      },
    };
    void shutDown(
      {
        running,
        store: closing,
        logger,
        drainDelayMs: config.drainDelayMs,
        timeoutMs: config.shutdownTimeoutMs,
        hurry,
        exit,
      },
      signal,
    );
  });
  // Only now: whoever waits for this line may signal the process at once.
  logger.info({ config: fingerprint, url: `${running.origin}${API_PREFIX}` }, 'listening');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`animal-store-api: configuration error: ${error.message}\n`);
  } else if (error instanceof StoreUnavailableError) {
    // The driver's message names hosts, never the credentials in MONGODB_URI.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    process.stderr.write(`animal-store-api: cannot reach MongoDB${cause}\n`);
  } else {
    // One line: the first of the message, no stack (LOG_LEVEL=debug logs the whole error).
    const first = String((error as Error)?.message ?? error).split('\n')[0];
    process.stderr.write(`animal-store-api: failed to start: ${first}\n`);
    if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') {
      process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    }
  }
  process.exit(1);
});
