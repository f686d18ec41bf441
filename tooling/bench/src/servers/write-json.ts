import type { ServerResponse } from 'node:http';

/**
 * Answers with JSON text on Node's own response, the headers in the order the API's Koa sends
 * them: `headers`, then `Content-Type` and `Content-Length`.
 */
export function writeJson(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  text: string,
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
