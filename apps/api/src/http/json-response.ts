import type { ServerResponse } from 'node:http';
import type { ParameterizedContext } from 'koa';
import type { AppState } from './app-state.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with a JSON body: the headers gathered in `ctx.state.headers`, then `Content-Type` and
 * `Content-Length`, in one `writeHead`, and the serialised body. It leaves Koa's response path
 * (`ctx.respond = false`) because that path sets each header on its own, Node validating and
 * storing each, then merges them again: about 5 of the API's 30 µs of CPU per
 * `GET /v1/pets/{id}` (tooling/bench). Headers set with `ctx.set` still go out: Node merges
 * them into the `writeHead`, only more slowly. A HEAD request gets the headers without the body
 * (Node drops it).
 */
export function sendJson(ctx: ParameterizedContext<AppState>, status: number, body: unknown): void {
  sendJsonText(ctx, status, JSON.stringify(body));
}

/** `sendJson` for a body already serialised (pets keep their JSON text: `pet-json.ts`). */
export function sendJsonText(
  ctx: ParameterizedContext<AppState>,
  status: number,
  text: string,
): void {
  ctx.respond = false;
  writeJsonText(ctx.res, status, ctx.state.headers, text);
}

/**
 * `sendJsonText` on Node's own response, without Koa: `headers`, then `Content-Type` and
 * `Content-Length`, in one `writeHead`, and the text (the bench's matched baseline answers
 * with it too).
 */
export function writeJsonText(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  text: string,
): void {
  headers['Content-Type'] = JSON_TYPE;
  headers['Content-Length'] = String(Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}
