/**
 * The Koa floor: the API's recorded answers (`replay-answers.ts`) sent through Koa and
 * @koa/router as published, the API's own framework, on the API's three routes: one handler
 * checks the key (`key.ts`), reads a declared request body to its end as Fastify does
 * (`declared-body.ts`) and answers with the recorded status, headers and body. No parsing,
 * store, log or metrics: what these answers cost through the framework alone, to set beside the
 * Fastify floor (`fastify-floor.ts`). Configured by `HOST`, `PORT`, `API_KEY` and `REPLAY`.
 */
import { createServer } from 'node:http';
import { API_PREFIX } from '@animal-store/contract';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { readDeclaredBody } from './declared-body.js';
import { keyCheck, serveUntilStopped } from './key.js';
import { REFUSAL, recordedAnswers } from './replay-answers.js';

const verify = keyCheck();
const answers = recordedAnswers();

const replay: Middleware = async (ctx) => {
  const answer = verify(ctx.get('Authorization')) && answers.get(`${ctx.method} ${ctx.url}`);
  await readDeclaredBody(ctx.req);
  if (!answer) {
    ctx.status = 401;
    ctx.type = 'application/json';
    ctx.body = REFUSAL;
    return;
  }
  for (const [name, value] of answer.headers) ctx.set(name, value);
  ctx.status = answer.status;
  ctx.body = answer.body;
};

const router = new Router({ prefix: API_PREFIX, sensitive: true, strict: true });
router.get('/pets', replay);
router.post('/pets', replay);
router.get('/pets/:petId', replay);
const app = new Koa();
app.use(router.routes());

serveUntilStopped(createServer(app.callback()));
