/**
 * The replay limit: bare `node:http` answering each request of the scenario with the status,
 * headers and body bytes the API sent for it (`REPLAY`, JSON of `ReplayAnswer`s), after the same
 * key check as the Fastify peer. No parsing, store, log or metrics: what this machine can do for
 * these answers. Configured by `HOST`, `PORT`, `API_KEY` and `REPLAY`.
 */
import { createServer } from 'node:http';
import { keyCheck, listenOn } from './key.js';

/** One answer of the API as the replay limit sends it again. */
export interface ReplayAnswer {
  method: string;
  path: string;
  status: number;
  /** As received: names in their case, in their order. */
  headers: [string, string][];
  /** The body bytes, base64. */
  body: string;
}

/** Headers Node writes itself on every answer. */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const verify = keyCheck();
const answers = new Map<string, { status: number; headers: string[]; body: Buffer }>();
for (const { method, path, status, headers, body } of JSON.parse(process.env.REPLAY ?? '[]')) {
  const kept = (headers as ReplayAnswer['headers']).filter(([n]) => !NODE_OWN.has(n.toLowerCase()));
  answers.set(`${method} ${path}`, {
    status,
    headers: kept.flat(),
    body: Buffer.from(body, 'base64'),
  });
}
const refusal = Buffer.from('{"code":"unauthorized","message":"invalid API key","status":401}');

const server = createServer(async (req, res) => {
  const answer = verify(req.headers.authorization) && answers.get(`${req.method} ${req.url}`);
  // A request body (POST) is read to its end, as the API reads it, before answering.
  for await (const _ of req) {
  }
  if (!answer) {
    res.writeHead(401, { 'Content-Type': 'application/json' }).end(refusal);
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
const { host, port } = listenOn();
server.listen(port, host);
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
