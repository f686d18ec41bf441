// The service as an h3 developer writes it from the spec, with h3's own defaults (h3 v2): an H3
// app of the three operations with a middleware for the key, mounted under /v1, readBody for
// bodies, getQuery and getRouterParam as h3 reads them, HTTPError for every refusal and an onError
// hook that answers every error (h3's own 404 and 400s among them) with an Error, served by h3's
// serve (srvx on node:http).
import { getQuery, getRouterParam, H3, HTTPError, readBody, serve } from 'h3';
import { newPetProblem, type Pet, STATUSES, storedPet } from './pet-app-model.js';

/** A refusal with the Error's `code` beside h3's status and message. */
const refusal = (status: number, code: string, message: string) =>
  new HTTPError({ status, message, body: { code } });

/** An h3 app serving the spec's three operations under /v1, to holders of `apiKey`. */
export function h3PetApp(apiKey: string): H3 {
  const pets: Pet[] = [];
  const api = new H3();

  api.use((event) => {
    if (event.req.headers.get('authorization') !== `Bearer ${apiKey}`) {
      throw refusal(401, 'unauthorized', 'send Authorization: Bearer <key>');
    }
  });

  api.get('/pets', (event) => {
    const { limit = '20', status } = getQuery(event);
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > 100) {
      throw refusal(400, 'invalid_limit', 'limit is an integer from 1 to 100');
    }
    if (status !== undefined && !STATUSES.includes(status as string)) {
      throw refusal(400, 'invalid_status', `status is one of ${STATUSES.join(', ')}`);
    }
    return pets.filter((pet) => status === undefined || pet.status === status).slice(0, n);
  });

  api.post('/pets', async (event) => {
    const body = await readBody(event);
    const problem = newPetProblem(body);
    if (problem !== undefined) throw refusal(400, 'validation_failed', problem);
    const pet = storedPet(pets, body as Pet);
    event.res.status = 201;
    event.res.headers.set('Location', `/v1/pets/${pet.id}`);
    return pet;
  });

  api.get('/pets/:petId', (event) => {
    event.res.headers.set('Deprecation', '@1767225600');
    event.res.headers.set('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT');
    event.res.headers.set('Link', '</v1/pets>; rel="successor-version"');
    const petId = getRouterParam(event, 'petId') ?? '';
    if (!/^[0-9]+$/.test(petId)) throw refusal(400, 'invalid_pet_id', 'petId is an integer');
    const pet = pets.find((p) => String(p.id) === petId);
    if (pet === undefined) throw refusal(404, 'not_found', `no pet ${petId}`);
    return pet;
  });

  // The refusals above, readBody's 400, h3's 404 for no route and its 400 for a malformed path,
  // and any other error (a 500 that says nothing of the server).
  const app = new H3({
    onError(error, event) {
      const { status } = error;
      const code = error.body?.code;
      event.res.status = status;
      const fallback = status === 404 ? 'not_found' : status < 500 ? 'bad_request' : 'internal';
      return {
        code: typeof code === 'string' ? code : fallback,
        message: status < 500 ? error.message : 'internal error',
        status,
      };
    },
  });
  return app.mount('/v1', api);
}

/** Serves `app` on 127.0.0.1, on a port of the system's choosing: its base URL, and how to stop it. */
export async function serveH3(app: H3): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const server = serve(app, {
    hostname: '127.0.0.1',
    port: 0,
    silent: true,
    gracefulShutdown: false,
  });
  await server.ready();
  return { baseUrl: new URL('v1', server.url).href, stop: () => server.close(true) };
}
