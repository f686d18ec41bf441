// The service as a hapi developer writes it from the spec, with hapi's own defaults: an auth
// scheme of its own for the bearer key, Joi schemas on each route's query, params and payload,
// hapi's payload parsing, Boom errors, and an onPreResponse extension that answers every Boom
// error with an Error.
import Boom from '@hapi/boom';
import Hapi from '@hapi/hapi';
import Joi from 'joi';
import { type Pet, STATUSES } from './pet-app-model.js';

/** A hapi server serving the spec's three operations under /v1 on 127.0.0.1, to holders of `apiKey`. */
export async function hapiPetApp(apiKey: string): Promise<Hapi.Server> {
  const pets: Pet[] = [];
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });

  server.auth.scheme('api-key', () => ({
    authenticate(request, h) {
      if (request.headers.authorization !== `Bearer ${apiKey}`) {
        throw Boom.unauthorized('send Authorization: Bearer <key>', 'Bearer');
      }
      return h.authenticated({ credentials: { key: apiKey } });
    },
  }));
  server.auth.strategy('key', 'api-key');
  server.auth.default('key');

  server.route({
    method: 'GET',
    path: '/v1/pets',
    options: {
      validate: {
        query: Joi.object({
          limit: Joi.number().integer().min(1).max(100).default(20),
          status: Joi.string().valid(...STATUSES),
        }),
      },
    },
    handler(request) {
      const { limit, status } = request.query as { limit: number; status?: string };
      return pets.filter((pet) => status === undefined || pet.status === status).slice(0, limit);
    },
  });

  server.route({
    method: 'POST',
    path: '/v1/pets',
    options: {
      validate: {
        payload: Joi.object({
          name: Joi.string().required(),
          // int64's bounds as a double holds them: ±2^63.
          categoryId: Joi.number()
            .integer()
            .min(-(2 ** 63))
            .max(2 ** 63)
            .required(),
          status: Joi.string().valid(...STATUSES),
        }),
      },
    },
    handler(request, h) {
      const { name, categoryId, status } = request.payload as Omit<Pet, 'id'>;
      const pet: Pet = { id: pets.length + 1, name, categoryId, ...(status ? { status } : {}) };
      pets.push(pet);
      return h.response(pet).code(201).location(`/v1/pets/${pet.id}`);
    },
  });

  server.route({
    method: 'GET',
    path: '/v1/pets/{petId}',
    options: { validate: { params: Joi.object({ petId: Joi.number().integer() }) } },
    handler(request, h) {
      const { petId } = request.params as { petId: number };
      const pet = pets.find((p) => p.id === petId);
      if (pet === undefined) throw Boom.notFound(`no pet ${petId}`);
      return h
        .response(pet)
        .header('Deprecation', '@1767225600')
        .header('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT')
        .header('Link', '</v1/pets>; rel="successor-version"');
    },
  });

  // Boom's own body is { statusCode, error, message }: the spec's Error instead.
  server.ext('onPreResponse', (request, h) => {
    const { response } = request;
    if (!Boom.isBoom(response)) return h.continue;
    const status = response.output.statusCode;
    const code = response.output.payload.error.toLowerCase().replaceAll(' ', '_');
    return h.response({ code, message: response.message, status }).code(status);
  });

  await server.start();
  return server;
}
