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
import { main, runChild } from './lifecycle.js';
import { readServerSpec } from './protocol.js';
import { BENCH_RATE_LIMIT, sharedRateLimiter } from './shared-rate-limit.js';

main(async () => {
  const spec = readServerSpec();
  const config = loadConfig({ ...process.env, API_KEYS: spec.apiKey });
  const logger = createLogger(config.logLevel);
  await runChild(spec, async (store) => {
    const rateLimiter = await sharedRateLimiter(store);
    const running = await startServer(
      {
        store,
        ...(rateLimiter ? { rateLimit: BENCH_RATE_LIMIT, rateLimiter } : {}),
        apiKeys: new StaticApiKeys(parseApiKeys(config.apiKeys)),
        logger,
        bodyLimitBytes: config.bodyLimitBytes,
      },
      { host: '127.0.0.1', port: 0 },
    );
    return { port: Number(new URL(running.origin).port), close: () => running.close(1000) };
  });
});
