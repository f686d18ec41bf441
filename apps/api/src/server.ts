import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
  ServerResponse,
} from 'node:http';
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
  /**
   * Drains: stops accepting connections, answers every request still to be answered with
   * `Connection: close`, closes idle keep-alive connections, lets in-flight requests finish (cut
   * after `timeoutMs`), then resolves.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * The draining state of a server. Its responses are `DrainAwareResponse`s: each one whose head is
 * written once the drain has started says `Connection: close`, so the client knows not to send
 * on that connection again (closing a keep-alive connection between requests is what resets a
 * request already on its way). One flag read per answer: nothing is tracked per request.
 */
class Drain {
  draining = false;
  readonly Response: typeof ServerResponse;

  constructor() {
    const drain = this;
    this.Response = class DrainAwareResponse<
      Request extends IncomingMessage = IncomingMessage,
    > extends ServerResponse<Request> {
      // Every answer passes here: Node's implicit head (`res.end()` alone) calls `writeHead` too.
      override writeHead(
        statusCode: number,
        reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
        headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
      ): this {
        if (drain.draining) this.shouldKeepAlive = false;
        return super.writeHead(statusCode, reasonOrHeaders as string, headers);
      }
    };
  }

  /** Makes every answer not yet started say `Connection: close`, then closes the server. */
  start(server: Server, closed: () => void): void {
    this.draining = true;
    // A poll of the sockets first (there is always one between two check phases): a request
    // whose bytes have already arrived on an idle connection is read, so that connection counts
    // as busy and gets its answer. `close()` then closes the connections that are idle (Node 19+
    // does so in `close()`); the busy ones close after their `Connection: close` answer.
    setImmediate(() => setImmediate(() => server.close(closed)));
  }
}

/** Starts the API on `host:port` (port 0 picks a free one), within `limits` (see the README). */
export async function startServer(
  deps: AppDeps,
  listen: { host: string; port: number },
  limits: Partial<ServerLimits> = {},
): Promise<RunningServer> {
  const metrics = deps.metrics ?? new ApiMetrics();
  const drain = new Drain();
  const server = createLimitedServer(
    createApp({ ...deps, metrics }).callback(),
    { ...DEFAULT_SERVER_LIMITS, ...limits },
    ({ requestId, status, code, cause }) => {
      metrics.protocolErrors.inc({ status });
      deps.logger.info({ requestId, status, code, cause }, 'request refused');
    },
    drain.Response,
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
        drain.start(server, () => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
