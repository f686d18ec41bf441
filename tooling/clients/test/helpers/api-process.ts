import { randomBytes } from 'node:crypto';
import { type StartedApi, startBuiltApi } from '@animal-store/test-support';
import { afterAll } from 'vitest';

export interface ApiProcess extends StartedApi {
  apiKey: string;
}

/**
 * Starts the built API with a fresh key and no rate limit, plus `env`; it is stopped after the
 * file's tests.
 */
export async function startApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const apiKey = `clients_${randomBytes(16).toString('hex')}`;
  const api = await startBuiltApi({
    API_KEYS: apiKey,
    RATE_LIMIT_REQUESTS: '0',
    LOG_LEVEL: 'info',
    ...env,
  });
  afterAll(api.stop);
  return { ...api, apiKey };
}
