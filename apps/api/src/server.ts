import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppDeps, createApp } from './app.js';
import {
  createLimitedServer,
  DEFAULT_SERVER_LIMITS,
  type ServerLimits,
} from './http/server-limits.js';
import { ApiMetrics } from './metrics/api-metrics.js';

export interface RunningServer {
  server: Server;
  /** e.g. `http://127.0.0.1:3000` (no prefix). */
  origin: string;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(timeoutMs?: number): Promise<void>;
}

/** Starts the API on `host:port` (port 0 picks a free one), within `limits` (see the README). */
export async function startServer(
  deps: AppDeps,
  listen: { host: string; port: number },
  limits: Partial<ServerLimits> = {},
): Promise<RunningServer> {
  const metrics = deps.metrics ?? new ApiMetrics();
  const server = createLimitedServer(
    createApp({ ...deps, metrics }).callback(),
    { ...DEFAULT_SERVER_LIMITS, ...limits },
    ({ requestId, status, code, cause }) => {
      metrics.protocolErrors.inc({ status });
      deps.logger.info({ requestId, status, code, cause }, 'request refused');
    },
  );
  server.on('drop', () => metrics.droppedConnections.inc());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    server,
    origin: `http://${host}:${port}`,
    close: (timeoutMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        // Keep-alive sockets hold close() open once their last response is sent: reap them.
        const reap = setInterval(() => server.closeIdleConnections(), 20);
        server.close(() => {
          clearTimeout(force);
          clearInterval(reap);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
