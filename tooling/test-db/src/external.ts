import { ping } from './process-server.js';
import { type StartedServer, type StrategyContext, Unavailable } from './types.js';

/** Use the server at MONGODB_URI as is, after checking that it answers `ping`; never stop it. */
export async function useExternal(context: StrategyContext): Promise<StartedServer> {
  const uri = context.env.MONGODB_URI;
  if (!uri) throw new Unavailable('MONGODB_URI is not set');
  try {
    await ping(uri, Math.min(context.readyTimeoutMs, 10_000));
  } catch (error) {
    throw new Error(
      `MONGODB_URI is set (${redact(uri)}) but that server did not answer ping: ${(error as Error).message}`,
    );
  }
  return { uri, description: `MONGODB_URI ${redact(uri)}`, stop: async () => {} };
}

/** The URI with any password replaced by `***`, for messages. */
export function redact(uri: string): string {
  return uri.replace(/^([a-z+]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
