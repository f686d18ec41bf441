import { startBuiltApi } from '@animal-store/test-support';

export interface StartedApi {
  /** The base URL, ending in /v1, from the service's `listening` log line. */
  readonly url: string;
  /** Stops the service (SIGTERM, then SIGKILL if it lingers). */
  stop(): Promise<void>;
}

/** Starts the built API as its operators do, on a free port and the in-memory store. */
export async function startApi(apiKey: string): Promise<StartedApi> {
  const api = await startBuiltApi({ API_KEYS: apiKey });
  return { url: api.base, stop: api.stop };
}
