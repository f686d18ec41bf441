// The service as an Express developer writes it from the spec, with Express's own defaults:
// express.json() for bodies, req.query as Express parses it, res.json for answers, an error
// handler that answers every error with an Error. It is given the Express module, so the same
// app runs on Express 4 and Express 5: what differs between the two runs is Express alone.

import type { Express, NextFunction, Request, Response } from 'express';
import { newPetProblem, type Pet, STATUSES, storedPet } from './pet-app-model.js';

type ExpressModule = typeof import('express');

/** An Express app serving the spec's three operations under /v1, to holders of `apiKey`. */
export function expressPetApp(express: ExpressModule, apiKey: string): Express {
  const pets: Pet[] = [];
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
    if (status !== undefined && !STATUSES.includes(status as string)) {
      return fail(res, 400, 'invalid_status', `status is one of ${STATUSES.join(', ')}`);
    }
    res.json(pets.filter((pet) => status === undefined || pet.status === status).slice(0, n));
  });

  router.post('/pets', (req, res) => {
    const problem = newPetProblem(req.body);
    if (problem !== undefined) return fail(res, 400, 'validation_failed', problem);
    const pet = storedPet(pets, req.body as Pet);
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
