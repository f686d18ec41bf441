import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppDeps, createApp } from './app.js';
import { registerBuildInfo } from './build-info.js';
import {
  createLimitedServer,
  DEFAULT_SERVER_LIMITS,
  type ServerLimits,
} from './http/server-limits.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { Readiness } from './readiness.js';

export interface RunningServer {
  server: Server;
  /** e.g. `http://127.0.0.1:3000` (no prefix). */
  origin: string;
  /** What `/readyz` answers. */
  readiness: Readiness;
  /**
   * Starts draining while still serving: `/readyz` answers `503 draining` and every answer says
   * `Connection: close`, so the balancer stops sending before the listener closes.
   */
  drain(): void;
  /**
   * Drains (`drain()`), stops accepting connections, closes idle keep-alive connections, lets
   * in-flight requests finish (their sockets are cut after `timeoutMs`), then resolves once the
   * last request's handler has ended, so the store can be closed under nothing.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** The requests whose handler has not ended yet (their socket may be gone already). */
class InFlight {
  #count = 0;
  #idle: (() => void)[] = [];

  /** `handler`, counted from its call until the promise it returns settles. */
  wrap(handler: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>) {
    return (req: IncomingMessage, res: ServerResponse) => {
      this.#count++;
      void handler(req, res).finally(() => {
        if (--this.#count === 0) for (const resolve of this.#idle.splice(0)) resolve();
      });
    };
  }

  /** Requests whose handler has not ended yet. */
  get count(): number {
    return this.#count;
  }

  /** Resolves once no request is in flight. */
  idle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
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
  close(server: Server, closed: () => void): void {
    this.draining = true;
    // A poll of the sockets first (there is always one between two check phases): a request
    // whose bytes have already arrived on an idle connection is read, so that connection counts
    // as busy and gets its answer. `close()` then closes the connections that are idle (Node 19+
    // does so in `close()`); the busy ones close after their `Connection: close` answer.
    setImmediate(() => setImmediate(() => server.close(closed)));
  }
}

/**
 * Starts the API on `host:port` (port 0 picks a free one), within `limits` (see the README),
 * once the database has been checked; it is checked again every `databaseCheckMs`.
 */
export async function startServer(
  deps: AppDeps & { databaseCheckMs?: number },
  listen: { host: string; port: number },
  limits: Partial<ServerLimits> = {},
): Promise<RunningServer> {
  const metrics = deps.metrics ?? new ApiMetrics();
  registerBuildInfo(metrics.registry);
  const readiness = deps.readiness ?? new Readiness(deps.store, metrics.registry);
  await readiness.start(deps.databaseCheckMs);
  const drain = new Drain();
  const inFlight = new InFlight();
  metrics.countInFlight(() => inFlight.count);
  const server = createLimitedServer(
    inFlight.wrap(createApp({ ...deps, metrics, readiness }).callback()),
    { ...DEFAULT_SERVER_LIMITS, ...limits },
    ({ requestId, status, code, cause }) => {
      metrics.protocolErrors.inc({ status });
      deps.logger.info({ requestId, status, code, cause }, 'request refused');
    },
    drain.Response,
  );
  server.on('drop', () => metrics.droppedConnections.inc());
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      readiness.stop();
      reject(error);
    };
    server.once('error', failed);
    server.listen(listen.port, listen.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const startDraining = () => {
    readiness.draining = true;
    drain.draining = true;
  };
  return {
    server,
    origin: `http://${host}:${port}`,
    readiness,
    drain: startDraining,
    close: async (timeoutMs = 10_000) => {
      startDraining();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        drain.close(server, () => {
          clearTimeout(force);
          resolve();
        });
      });
      await inFlight.idle();
      readiness.stop();
    },
  };
}
