import { HttpClient, type HttpClientOptions } from '../../src/http/client.js';

/** How long the test client waits for an answer. */
export const TEST_TIMEOUT_MS = 10_000;

/**
 * The kit's client for `baseUrl` as the tests use it: key `k`, no retries, over `fetch` (without
 * it, the client's own), with `options` in place of those.
 */
export function testClient(
  baseUrl: string,
  fetch?: typeof globalThis.fetch,
  options: Partial<HttpClientOptions> = {},
) {
  return new HttpClient({
    baseUrl,
    apiKey: 'k',
    timeoutMs: TEST_TIMEOUT_MS,
    maxRetries: 0,
    maxRetryWaitMs: 0,
    userAgent: 'test',
    ...(fetch === undefined ? {} : { fetch }),
    ...options,
  });
}
