/**
 * Server child: the replay limit. Bare `node:http` answering each request of the scenario with
 * the status, headers and body bytes the API sent for it, after the same key check the API makes
 * (`presentedApiKey`, then `StaticApiKeys`: SHA-256 and a lookup by digest). Nothing else:
 * no parsing, no store, no log. What this machine can do for these answers; API/limit says how
 * close the API comes. Not meant to be started by hand.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseApiKeys, StaticApiKeys, UnauthorizedError } from '@animal-store/api';
import { errorBody, presentedApiKey } from '@animal-store/api/internals';
import { listenBare, runChild } from './lifecycle.js';
import { writeJson } from './write-json.js';

/** Headers Node writes itself on every answer. */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** An answer as sent again: Node writes its own headers (`NODE_OWN`) itself. */
interface Prepared {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** What a request without the key (or outside the scenario) gets: the API's 401. */
const REFUSAL = new UnauthorizedError({ message: 'invalid API key' });
const REFUSAL_TEXT = JSON.stringify(errorBody(REFUSAL));

runChild(async (spec) => {
  const keys = new StaticApiKeys(parseApiKeys(spec.apiKey));
  const answers = new Map<string, Prepared>();
  for (const { method, path, status, headers, body } of spec.replay ?? []) {
    answers.set(`${method} ${path}`, {
      status,
      headers: headers.filter(([name]) => !NODE_OWN.has(name.toLowerCase())),
      body: Buffer.from(body, 'base64'),
    });
  }
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: Prepared | undefined;
    try {
      const identity = keys.verify(presentedApiKey(req));
      answer = identity && answers.get(`${req.method} ${req.url}`);
    } catch {
      // No single well-formed bearer key: the 401 below.
    }
    // A request body (POST) is read to its end, as the API reads it, before answering.
    for await (const _ of req) {
    }
    if (!answer) {
      writeJson(res, REFUSAL.status, { ...REFUSAL.headers }, REFUSAL_TEXT);
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }
  return listenBare((req, res) => void handle(req, res));
});
