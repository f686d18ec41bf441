/**
 * The Fastify floor: the API's recorded answers (`replay-answers.ts`) sent through Fastify, the
 * Fastify peer's framework, on the API's three routes: one handler checks the key (`key.ts`),
 * takes a request body as bytes, unparsed, and answers with the recorded status, headers and
 * body. What these answers cost through the framework alone, to set beside the Koa floor
 * (`koa-floor.ts`). Configured by `HOST`, `PORT`, `API_KEY` and `REPLAY`.
 */
import { API_PREFIX } from '@animal-store/contract';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { keyCheck, listenOn } from './key.js';
import { REFUSAL, recordedAnswers } from './replay-answers.js';

const verify = keyCheck();
const answers = recordedAnswers();

const app = Fastify({ keepAliveTimeout: 5_000 });
// The body is read to its end and kept as bytes: the floor parses nothing.
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
  done(null, body),
);

const replay = async (request: FastifyRequest, reply: FastifyReply) => {
  const answer =
    verify(request.headers.authorization) && answers.get(`${request.method} ${request.url}`);
  if (!answer) return reply.code(401).type('application/json').send(REFUSAL);
  for (const [name, value] of answer.headers) reply.header(name, value);
  return reply.code(answer.status).send(answer.body);
};

app.get(`${API_PREFIX}/pets`, replay);
app.post(`${API_PREFIX}/pets`, replay);
app.get(`${API_PREFIX}/pets/:petId`, replay);

await app.listen(listenOn());
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
