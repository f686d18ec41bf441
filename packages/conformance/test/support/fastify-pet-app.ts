// The service as a Fastify developer writes it from the spec, with Fastify's own defaults: JSON
// Schema on each route (Fastify's Ajv, which coerces types), its body parsers and serialiser,
// and an error handler that answers every error with an Error.
import Fastify, { type FastifyInstance } from 'fastify';
import { type Pet, STATUSES } from './pet-app-model.js';

/** A Fastify app serving the spec's three operations under /v1, to holders of `apiKey`. */
export function fastifyPetApp(apiKey: string): FastifyInstance {
  const pets: Pet[] = [];
  const app = Fastify();
  const error = (status: number, code: string, message: string) => ({ code, message, status });

  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return reply.code(401).send(error(401, 'unauthorized', 'send Authorization: Bearer <key>'));
    }
  });

  app.get<{ Querystring: { limit: number; status?: string } }>(
    '/v1/pets',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            status: { type: 'string', enum: STATUSES },
          },
        },
      },
    },
    async (request) => {
      const { limit, status } = request.query;
      return pets.filter((pet) => status === undefined || pet.status === status).slice(0, limit);
    },
  );

  app.post<{ Body: Omit<Pet, 'id'> }>(
    '/v1/pets',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name', 'categoryId'],
          properties: {
            name: { type: 'string' },
            // int64's bounds as a double holds them: ±2^63.
            categoryId: { type: 'integer', minimum: -(2 ** 63), maximum: 2 ** 63 },
            status: { type: 'string', enum: STATUSES },
          },
        },
      },
    },
    async (request, reply) => {
      const { name, categoryId, status } = request.body;
      const pet: Pet = { id: pets.length + 1, name, categoryId, ...(status ? { status } : {}) };
      pets.push(pet);
      return reply.code(201).header('location', `/v1/pets/${pet.id}`).send(pet);
    },
  );

  app.get<{ Params: { petId: number } }>(
    '/v1/pets/:petId',
    {
      schema: { params: { type: 'object', properties: { petId: { type: 'integer' } } } },
      onRequest: async (_request, reply) => {
        reply.headers({
          deprecation: '@1767225600',
          sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
          link: '</v1/pets>; rel="successor-version"',
        });
      },
    },
    async (request, reply) => {
      const pet = pets.find((p) => p.id === request.params.petId);
      if (pet === undefined) {
        return reply.code(404).send(error(404, 'not_found', `no pet ${request.params.petId}`));
      }
      return pet;
    },
  );

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(error(404, 'not_found', 'no such route')),
  );
  // Validation errors (400), parser errors (400, 413, 415) and any other.
  app.setErrorHandler(
    (failure: { statusCode?: number; code?: string; message: string }, _request, reply) => {
      const status = failure.statusCode ?? 500;
      return reply
        .code(status)
        .send(
          error(
            status,
            failure.code ?? 'internal',
            status < 500 ? failure.message : 'internal error',
          ),
        );
    },
  );
  return app;
}
