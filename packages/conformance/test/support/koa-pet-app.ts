// The service as a Koa developer writes it from the spec, with Koa's own defaults: an error
// middleware first that answers every thrown error (ctx.throw, the body parser's) with an Error,
// @koa/router with a middleware for the key, @koa/bodyparser for bodies, ctx.query as Koa parses
// it, and ctx.body for answers.
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { newPetProblem, type Pet, STATUSES, storedPet } from './pet-app-model.js';

/** A Koa app serving the spec's three operations under /v1, to holders of `apiKey`. */
export function koaPetApp(apiKey: string): Koa {
  const pets: Pet[] = [];
  const router = new Router({ prefix: '/v1' });

  router.use(async (ctx, next) => {
    if (ctx.get('Authorization') !== `Bearer ${apiKey}`) {
      ctx.throw(401, 'send Authorization: Bearer <key>', { code: 'unauthorized' });
    }
    await next();
  });

  router.get('/pets', (ctx) => {
    const { limit = '20', status } = ctx.query;
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > 100) {
      ctx.throw(400, 'limit is an integer from 1 to 100', { code: 'invalid_limit' });
    }
    if (status !== undefined && !STATUSES.includes(status as string)) {
      ctx.throw(400, `status is one of ${STATUSES.join(', ')}`, { code: 'invalid_status' });
    }
    ctx.body = pets.filter((pet) => status === undefined || pet.status === status).slice(0, n);
  });

  router.post('/pets', bodyParser(), (ctx) => {
    const problem = newPetProblem(ctx.request.body);
    if (problem !== undefined) ctx.throw(400, problem, { code: 'validation_failed' });
    const pet = storedPet(pets, ctx.request.body as Pet);
    ctx.status = 201;
    ctx.set('Location', `/v1/pets/${pet.id}`);
    ctx.body = pet;
  });

  router.get('/pets/:petId', (ctx) => {
    ctx.set({
      Deprecation: '@1767225600',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version"',
    });
    const petId = ctx.params.petId ?? '';
    if (!/^[0-9]+$/.test(petId)) ctx.throw(400, 'petId is an integer', { code: 'invalid_pet_id' });
    const pet = pets.find((p) => String(p.id) === petId);
    if (pet === undefined) ctx.throw(404, `no pet ${petId}`, { code: 'not_found' });
    ctx.body = pet;
  });

  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) ctx.throw(404, 'no such route');
    } catch (error) {
      const {
        status = 500,
        code,
        message,
      } = error as { status?: number; code?: string; message: string };
      // A client's fault (4xx, as ctx.throw and the body parser raise it) is told as it is; any
      // other error is a 500 that says nothing of the server.
      ctx.status = status;
      ctx.body = {
        code: code ?? (status < 500 ? 'bad_request' : 'internal'),
        message: status < 500 ? message : 'internal error',
        status,
      };
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
