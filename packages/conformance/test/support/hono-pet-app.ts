// The service as a Hono developer writes it from the spec, with Hono's own defaults: the
// bearerAuth middleware, Zod schemas through @hono/zod-validator (z.coerce for the path and the
// query), c.json for answers, notFound and onError handlers that answer with an Error, all on
// @hono/node-server.
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';

const STATUSES = ['available', 'pending', 'sold'] as const;

const NewPet = z.object({
  name: z.string(),
  categoryId: z.number().int(),
  status: z.enum(STATUSES).optional(),
});
type Pet = z.infer<typeof NewPet> & { id: number };

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(STATUSES).optional(),
});
const PetPath = z.object({ petId: z.coerce.number().int() });

const error = (c: Context, status: ContentfulStatusCode, code: string, message: string) =>
  c.json({ code, message, status }, status);

/** What each validator answers when its Zod schema refuses: a 400 Error naming the issue. */
const invalid =
  (code: string) =>
  (
    result: { success: boolean; error?: { issues: readonly { message: string }[] } },
    c: Context,
  ) => {
    if (!result.success) return error(c, 400, code, result.error?.issues[0]?.message ?? code);
  };

/** A Hono app serving the spec's three operations under /v1, to holders of `apiKey`. */
export function honoPetApp(apiKey: string): Hono {
  const pets: Pet[] = [];
  const app = new Hono().basePath('/v1');

  app.use('*', bearerAuth({ token: apiKey }));

  app.get('/pets', zValidator('query', ListQuery, invalid('invalid_query')), (c) => {
    const { limit, status } = c.req.valid('query');
    return c.json(
      pets.filter((pet) => status === undefined || pet.status === status).slice(0, limit),
    );
  });

  app.post('/pets', zValidator('json', NewPet, invalid('validation_failed')), (c) => {
    const pet: Pet = { id: pets.length + 1, ...c.req.valid('json') };
    pets.push(pet);
    c.header('Location', `/v1/pets/${pet.id}`);
    return c.json(pet, 201);
  });

  app.get(
    '/pets/:petId',
    async (c, next) => {
      c.header('Deprecation', '@1767225600');
      c.header('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT');
      c.header('Link', '</v1/pets>; rel="successor-version"');
      await next();
    },
    zValidator('param', PetPath, invalid('invalid_pet_id')),
    (c) => {
      const { petId } = c.req.valid('param');
      const pet = pets.find((p) => p.id === petId);
      if (pet === undefined) return error(c, 404, 'not_found', `no pet ${petId}`);
      return c.json(pet);
    },
  );

  app.notFound((c) => error(c, 404, 'not_found', 'no such route'));
  // bearerAuth's 401 and 400, the validator's malformed JSON (400), and any other error.
  app.onError((failure, c) => {
    if (failure instanceof HTTPException) {
      const status = failure.status as ContentfulStatusCode;
      return error(c, status, status === 401 ? 'unauthorized' : 'bad_request', failure.message);
    }
    return error(c, 500, 'internal', 'internal error');
  });
  return app;
}

/** Serves `app` on 127.0.0.1, on a port of the system's choosing. */
export async function serveHono(app: Hono): Promise<Server> {
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return server;
}
