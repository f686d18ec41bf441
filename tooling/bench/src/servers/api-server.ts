/**
 * Server child: the real API (`startServer` from `@animal-store/api`), configured as the service
 * configures itself (`loadConfig`: LOG_LEVEL defaults to `info`, JSON logs on stdout, which the
 * orchestrator points at /dev/null). Not meant to be started by hand.
 */
import {
  createLogger,
  loadConfig,
  parseApiKeys,
  StaticApiKeys,
  startServer,
} from '@animal-store/api';
import { runChild } from './lifecycle.js';

runChild(async (spec, store) => {
  const config = loadConfig({ ...process.env, API_KEYS: spec.apiKey });
  const running = await startServer(
    {
      store,
      apiKeys: new StaticApiKeys(parseApiKeys(config.apiKeys)),
      logger: createLogger(config.logLevel),
      bodyLimitBytes: config.bodyLimitBytes,
    },
    { host: '127.0.0.1', port: 0 },
  );
  return { port: Number(new URL(running.origin).port), close: () => running.close(1000) };
});
