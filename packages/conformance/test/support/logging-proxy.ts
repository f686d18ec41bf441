// A reverse proxy on 127.0.0.1 that writes an access-log line per request, as nginx and haproxy
// do (client, request line with its URL, status, user agent), and on request echoes every
// request header into the Error bodies it passes on, as a careless server would.
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggingProxy {
  /** The proxy's base URL: the target's, with the proxy's origin. */
  readonly baseUrl: string;
  /** One access-log line per request. */
  readonly log: readonly string[];
  close(): Promise<void>;
}

export interface LoggingProxyOptions {
  /**
   * Rewrites every Error answer: its message repeats the request's headers (long enough that a
   * report's quote cuts it inside the key), its `status` becomes a string so that the kit's
   * checks fail and quote it, and an `X-Echo` header carries the Authorization value.
   */
  readonly echoHeaders?: boolean;
}

/** The echoed message: the headers, then padding, then `Authorization` again where a quote is cut. */
function echo(headers: IncomingHttpHeaders): string {
  const auth = headers.authorization ?? '';
  const start = `you sent Authorization: ${auth}; `;
  // A report quotes 200 characters of a server's text: the second copy is cut a few
  // characters into the key.
  const pad = '.'.repeat(Math.max(0, 200 - start.length - auth.indexOf(' ') - 6));
  return `${start}${pad} ${auth} ${JSON.stringify(headers)}`;
}

/** Starts a proxy in front of `targetBaseUrl` (an `http://127.0.0.1:<port>/v1` URL). */
export async function startLoggingProxy(
  targetBaseUrl: string,
  options: LoggingProxyOptions = {},
): Promise<LoggingProxy> {
  const target = new URL(targetBaseUrl);
  const log: string[] = [];
  const server = createServer((req, res) => {
    const line = (status: number) =>
      log.push(
        `${req.socket.remoteAddress} "${req.method} ${req.url} HTTP/${req.httpVersion}" ${status} "${req.headers['user-agent'] ?? '-'}"`,
      );
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          const status = answer.statusCode ?? 502;
          if (options.echoHeaders && status >= 400) {
            try {
              const error = JSON.parse(body) as Record<string, unknown>;
              body = JSON.stringify({
                ...error,
                message: echo(req.headers),
                status: String(error.status),
              });
              headers['x-echo'] = req.headers.authorization ?? '';
            } catch {
              // Not JSON: passed on as it came.
            }
          }
          line(status);
          res.writeHead(status, headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', (error) => {
      line(502);
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    log,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
