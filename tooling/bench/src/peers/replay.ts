/**
 * The replay limit: bare `node:http` answering each request of the scenario with the status,
 * headers and body bytes the API sent for it (`replay-answers.ts`), after the same key check as
 * the Fastify peer. No parsing, store, log or metrics: what this machine can do for these
 * answers. Configured by `HOST`, `PORT`, `API_KEY` and `REPLAY`.
 */
import { createServer } from 'node:http';
import { readDeclaredBody } from './declared-body.js';
import { keyCheck, serveUntilStopped } from './key.js';
import { REFUSAL, recordedAnswers } from './replay-answers.js';

const verify = keyCheck();
const answers = recordedAnswers();

const server = createServer(async (req, res) => {
  const answer = verify(req.headers.authorization) && answers.get(`${req.method} ${req.url}`);
  // A request body (POST) is read to its end before answering, as the floors read it.
  await readDeclaredBody(req);
  if (!answer) {
    res.writeHead(401, { 'Content-Type': 'application/json' }).end(REFUSAL);
    return;
  }
  res.writeHead(answer.status, answer.headers.flat());
  res.end(answer.body);
});
serveUntilStopped(server);
