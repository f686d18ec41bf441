import { randomBytes } from 'node:crypto';
import { type StartedApi, startBuiltApi } from '@animal-store/test-support';
import { afterAll } from 'vitest';

export interface ApiProcess extends StartedApi {
  apiKey: string;
}

/** What test/global-setup.ts hands each file: the run's shared API on the in-memory store. */
export interface SharedApi {
  /** Its base URL, ending in `/v1`. */
  base: string;
  /** Its one API key. */
  apiKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The API every in-memory test of this package shares (test/global-setup.ts). */
    api: SharedApi;
    /** The origin of the page test/official-client-browser.test.ts loads, the API's CORS origin. */
    pageOrigin: string;
  }
}

/** Starts the built API with a fresh key and no rate limit, plus `env`; the caller stops it. */
export async function startApi(env: Record<string, string> = {}): Promise<ApiProcess> {
  const apiKey = `clients_${randomBytes(16).toString('hex')}`;
  const api = await startBuiltApi({
    API_KEYS: apiKey,
    RATE_LIMIT_REQUESTS: '0',
    LOG_LEVEL: 'info',
    ...env,
  });
  return { ...api, apiKey };
}

/**
 * As startApi, for one file: it is stopped after the file's tests. Call it while the file's suites
 * are collected: the hook that stops it is registered at once, not once the API has started,
 * when no suite would run it any more.
 */
export function startApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const starting = startApi(env);
  afterAll(async () => {
    // A start that failed has nothing to stop, and its tests already show why.
    const api = await starting.catch(() => undefined);
    await api?.stop();
  });
  return starting;
}

/**
 * The query that lists from `firstId` on: `after` the id before it. `after` is at least 1, and
 * every id is, so the first id of a store needs none. The files share one store and run one at a
 * time, so a listing from the first id a test created sees only what that test created.
 */
export const from = (firstId: number): { after?: number } =>
  firstId > 1 ? { after: firstId - 1 } : {};
