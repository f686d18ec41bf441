/**
 * The API's recorded answers, as the bench's replaying servers send them again: the replay limit
 * (bare `node:http`) and the two framework floors (Koa with @koa/router, Fastify). The bench
 * passes them in `REPLAY`, JSON of `ReplayAnswer`s, recorded from the API in the same run.
 */

/** One answer of the API as a replaying server sends it again. */
export interface ReplayAnswer {
  method: string;
  path: string;
  status: number;
  /** As received: names in their case, in their order. */
  headers: [string, string][];
  /** The body bytes, base64. */
  body: string;
}

/** An answer ready to send: its status, its headers as name-value pairs, its body. */
export interface Recorded {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Headers Node writes itself on every answer. */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The answers in `REPLAY`, by `METHOD /path?query` (the request target as sent). */
export function recordedAnswers(json = process.env.REPLAY ?? '[]'): Map<string, Recorded> {
  const answers = new Map<string, Recorded>();
  for (const { method, path, status, headers, body } of JSON.parse(json) as ReplayAnswer[]) {
    answers.set(`${method} ${path}`, {
      status,
      headers: headers.filter(([name]) => !NODE_OWN.has(name.toLowerCase())),
      body: Buffer.from(body, 'base64'),
    });
  }
  return answers;
}

/** What a replaying server answers a request without the bench's key. */
export const REFUSAL = Buffer.from(
  '{"code":"unauthorized","message":"invalid API key","status":401}',
);
