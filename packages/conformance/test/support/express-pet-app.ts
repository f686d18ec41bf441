// The service as an Express developer writes it from the spec, with Express's own defaults:
// express.json() for bodies, req.query as Express parses it, res.json for answers, an error
// handler that answers every error with an Error. It is given the Express module, so the same
// app runs on Express 4 and Express 5: what differs between the two runs is Express alone.

import type { Express, NextFunction, Request, Response } from 'express';

type ExpressModule = typeof import('express');

const STATUSES: readonly unknown[] = ['available', 'pending', 'sold'];
const INT64_BOUND = 2 ** 63;

/** Why `body` is no NewPet, or undefined when it is one. */
function newPetProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return 'the body is a NewPet object';
  }
  const { name, categoryId, status } = body as Record<string, unknown>;
  if (typeof name !== 'string') return 'name is a string';
  if (
    typeof categoryId !== 'number' ||
    !Number.isInteger(categoryId) ||
    categoryId < -INT64_BOUND ||
    categoryId >= INT64_BOUND
  ) {
    return 'categoryId is an int64 integer';
  }
  if (status !== undefined && !STATUSES.includes(status)) {
    return `status is one of ${STATUSES.join(', ')}`;
  }
  return undefined;
}

/** An Express app serving the spec's three operations under /v1, to holders of `apiKey`. */
export function expressPetApp(express: ExpressModule, apiKey: string): Express {
  const pets: { id: number; name: string; categoryId: number; status?: string }[] = [];
  const fail = (res: Response, status: number, code: string, message: string) =>
    res.status(status).json({ code, message, status });
  const router = express.Router();

  router.use((req, res, next) => {
    if (req.get('authorization') !== `Bearer ${apiKey}`) {
      return fail(res, 401, 'unauthorized', 'send Authorization: Bearer <key>');
    }
    next();
  });

  router.get('/pets', (req, res) => {
    const { limit = '20', status } = req.query;
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > 100) {
      return fail(res, 400, 'invalid_limit', 'limit is an integer from 1 to 100');
    }
    if (status !== undefined && !STATUSES.includes(status)) {
      return fail(res, 400, 'invalid_status', `status is one of ${STATUSES.join(', ')}`);
    }
    res.json(pets.filter((pet) => status === undefined || pet.status === status).slice(0, n));
  });

  router.post('/pets', (req, res) => {
    const problem = newPetProblem(req.body);
    if (problem !== undefined) return fail(res, 400, 'validation_failed', problem);
    const { name, categoryId, status } = req.body as (typeof pets)[number];
    const pet = {
      id: pets.length + 1,
      name,
      categoryId,
      ...(status === undefined ? {} : { status }),
    };
    pets.push(pet);
    res.status(201).location(`/v1/pets/${pet.id}`).json(pet);
  });

  router.get('/pets/:petId', (req, res) => {
    res.set({
      Deprecation: '@1767225600',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version"',
    });
    const { petId } = req.params;
    if (!/^[0-9]+$/.test(petId)) return fail(res, 400, 'invalid_pet_id', 'petId is an integer');
    const pet = pets.find((p) => String(p.id) === petId);
    if (pet === undefined) return fail(res, 404, 'not_found', `no pet ${petId}`);
    res.json(pet);
  });

  const app = express();
  app.use(express.json());
  app.use('/v1', router);
  app.use((_req: Request, res: Response) => fail(res, 404, 'not_found', 'no such route'));
  // body-parser's errors carry their status (400, 413, 415) and a type.
  app.use(
    (
      error: { status?: number; type?: string; message: string },
      _req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      const status = error.status ?? 500;
      fail(res, status, error.type ?? 'internal', status < 500 ? error.message : 'internal error');
    },
  );
  return app;
}
