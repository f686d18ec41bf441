/**
 * Server child: the real API (`startServer` from `@animal-store/api`), configured as the service
 * configures itself (`loadConfig`: LOG_LEVEL defaults to `info`, JSON logs on stdout, which the
 * orchestrator points at /dev/null; `startTracing`: traces when the `OTEL_*` variables ask for
 * them). Not meant to be started by hand.
 */
import {
  createLogger,
  loadConfig,
  parseApiKeys,
  StaticApiKeys,
  startServer,
  startTracing,
} from '@animal-store/api';
import { runChild, seededStore } from './lifecycle.js';

runChild(async (spec) => {
  const store = await seededStore(spec.pets);
  const config = loadConfig({ ...process.env, API_KEYS: spec.apiKey });
  const logger = createLogger(config.logLevel);
  const tracing = await startTracing(process.env, logger);
  const running = await startServer(
    {
      store,
      tracing,
      apiKeys: new StaticApiKeys(parseApiKeys(config.apiKeys)),
      logger,
      bodyLimitBytes: config.bodyLimitBytes,
      // As the service sets it on the in-memory store (no timeout: there is no database).
      storeLimits: { maxInFlight: config.storeMaxInFlight },
    },
    { host: '127.0.0.1', port: 0 },
  );
  return {
    port: Number(new URL(running.origin).port),
    close: async () => {
      await running.close(1000);
      await tracing?.shutdown();
    },
  };
});
