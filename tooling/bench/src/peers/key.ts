import { createHash } from 'node:crypto';
import type { Server } from 'node:http';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The bearer key check of the bench's own servers, as any server would write it: the SHA-256 of
 * the presented token, looked up by digest. `API_KEY` is the one key; the name is its log label.
 */
export function keyCheck(): (authorization: string | undefined) => string | undefined {
  const key = process.env.API_KEY ?? '';
  const keys = new Map([[sha256(key), `env:${sha256(key).slice(0, 8)}`]]);
  return (authorization) => {
    const token = BEARER.exec(authorization ?? '')?.[1];
    return token === undefined ? undefined : keys.get(sha256(token));
  };
}

/** Where the bench tells its server to listen. */
export const listenOn = () => ({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
});

/** Has `server` listen where the bench says, and stop on `SIGTERM` (its connections cut). */
export function serveUntilStopped(server: Server): void {
  const { host, port } = listenOn();
  server.listen(port, host);
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
