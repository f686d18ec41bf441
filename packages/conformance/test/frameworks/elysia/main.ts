// The service as an Elysia developer writes it from the spec, with Elysia's own defaults, on Bun:
// its `t` schemas (TypeBox) for the body, the query and the path, an onBeforeHandle hook that
// checks the key, and an onError hook that answers every error (a 500 too) with an Error.
//
// Usage: API_KEY=... bun main.ts  (listens on 127.0.0.1, port 0; prints "listening on PORT";
// stops when its stdin closes, so that it never outlives the test that started it)
import { Elysia, t } from 'elysia';

const API_KEY = process.env.API_KEY ?? '';
const Status = t.UnionEnum(['available', 'pending', 'sold']);
const NewPet = t.Object({
  name: t.String(),
  categoryId: t.Integer(),
  status: t.Optional(Status),
});
type Pet = typeof NewPet.static & { id: number };

const DEPRECATION = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
};

const fail = (status: number, code: string, message: string) => ({ code, message, status });
const pets: Pet[] = [];

const app = new Elysia({ prefix: '/v1' })
  .onError(({ code, error, set }) => {
    const status =
      code === 'VALIDATION' || code === 'PARSE' ? 400 : code === 'NOT_FOUND' ? 404 : 500;
    set.status = status;
    return fail(
      status,
      String(code).toLowerCase(),
      error instanceof Error ? error.message : String(code),
    );
  })
  .onBeforeHandle(({ headers, set }) => {
    if (headers.authorization !== `Bearer ${API_KEY}`) {
      set.status = 401;
      return fail(401, 'unauthorized', 'send Authorization: Bearer <key>');
    }
  })
  .get(
    '/pets',
    ({ query: { limit = 20, status } }) =>
      pets.filter((pet) => status === undefined || pet.status === status).slice(0, limit),
    {
      query: t.Object({
        limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
        status: t.Optional(Status),
      }),
    },
  )
  .post(
    '/pets',
    ({ body, set }) => {
      const pet: Pet = { id: pets.length + 1, ...body };
      pets.push(pet);
      set.status = 201;
      set.headers.location = `/v1/pets/${pet.id}`;
      return pet;
    },
    { body: NewPet },
  )
  .get(
    '/pets/:petId',
    ({ params: { petId }, set }) => {
      Object.assign(set.headers, DEPRECATION);
      const pet = pets.find((p) => p.id === petId);
      if (pet !== undefined) return pet;
      set.status = 404;
      return fail(404, 'not_found', `no pet ${petId}`);
    },
    { params: t.Object({ petId: t.Integer() }) },
  )
  .listen({ hostname: '127.0.0.1', port: 0 });

console.log(`listening on ${app.server?.port}`);
for await (const _ of Bun.stdin.stream()) {
}
process.exit(0);
