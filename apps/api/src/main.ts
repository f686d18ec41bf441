#!/usr/bin/env node
import { API_PREFIX } from '@animal-store/contract';
import { ConfigError, loadConfig } from './config.js';
import { setUpApiKeys } from './keys/api-key-setup.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { createStore } from './store/create-store.js';
import { StoreUnavailableError } from './store/pet-store.js';

/** Time a stop may take beyond SHUTDOWN_TIMEOUT_MS (closing the store) before the process leaves. */
const SHUTDOWN_MARGIN_MS = 5_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const { store, db } = await createStore(config, logger);
  const keys = await setUpApiKeys(config, db);
  const key = keys.generatedKey;
  if (key !== undefined) {
    // Printed once to the terminal, never through the logger: logs must not hold keys.
    process.stderr.write(
      `\nNo API_KEYS configured; generated a key for this run only:\n\n    ${key}\n\n` +
        `Send it as: Authorization: Bearer ${key}\n\n`,
    );
  }
  const running = await startServer(
    {
      store,
      apiKeys: keys.verifier,
      logger,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyTimeoutMs: config.bodyTimeoutMs,
      maxUrlBytes: config.maxUrlBytes,
      rateLimit: config.rateLimit,
      metricsToken: config.metricsToken,
    },
    { host: config.host, port: config.port },
    config.serverLimits,
  );
  logger.info({ url: `${running.origin}${API_PREFIX}` }, 'listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    // A stop must never hang (seen once: a store close that never settled after its database
    // went away): past the request deadline plus a margin, leave anyway.
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + SHUTDOWN_MARGIN_MS).unref();
    try {
      await running.close(config.shutdownTimeoutMs);
      await store.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`animal-store-api: configuration error: ${error.message}\n`);
  } else if (error instanceof StoreUnavailableError) {
    // The driver's message names hosts, never the credentials in MONGODB_URI.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    process.stderr.write(`animal-store-api: cannot reach MongoDB${cause}\n`);
  } else {
    process.stderr.write(`animal-store-api: failed to start: ${(error as Error).stack ?? error}\n`);
  }
  process.exit(1);
});
