/**
 * The Fastify peer: an independent server doing the API's per-request work the way Fastify does
 * it, sharing none of the API's code: a request id (the caller's sane `X-Request-Id`, else a
 * UUID), the bearer key check (`key.ts`), one pino access-log line per request on stdout
 * (synchronous, as the API writes it), a prom-client latency histogram by method, route and
 * status (with the default process metrics; these three from `telemetry.ts`), the `Link` of the
 * next page and `getPet`'s deprecation headers, validation by JSON schemas and answers
 * serialised from response schemas. Only the contract's constants (prefix, statuses, deprecation
 * header values) come from the monorepo. Its in-memory store is `peer-store.ts`; the bench
 * creates the same pets in it as in the API, over HTTP, so its bodies are the API's byte for
 * byte (checked before every run). Configured by `HOST`, `PORT` and `API_KEY`.
 */
import { API_PREFIX, GET_PET_DEPRECATION_HEADERS, PET_STATUSES } from '@animal-store/contract';
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { keyCheck, listenOn } from './key.js';
import { PeerStore } from './peer-store.js';
import { accessLogger, requestIdFor, requestMetrics } from './telemetry.js';

const PET_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
  required: ['id', 'name', 'categoryId', 'status'],
} as const;

const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    status: { type: 'integer' },
  },
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    keyName?: string;
  }
}

const store = new PeerStore();
const verify = keyCheck();

const { registry, duration } = requestMetrics();
const logger = accessLogger('fastify-peer');
const app = Fastify({
  loggerInstance: logger,
  logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
  bodyLimit: 16_384,
  keepAliveTimeout: 5_000, // Node's default, which the API keeps
  genReqId: (req) => requestIdFor(req.headers['x-request-id']),
});

app.addHook('onRequest', async (request, reply) => {
  reply.header('X-Request-Id', request.id);
  reply.header('X-Content-Type-Options', 'nosniff');
});
app.addHook('onResponse', async (request, reply) => {
  const route = request.routeOptions.url ?? request.url;
  const ms = reply.elapsedTime;
  duration.observe({ method: request.method, route, status: String(reply.statusCode) }, ms / 1000);
  request.log.info(
    {
      method: request.method,
      route,
      status: reply.statusCode,
      ms: Math.round(ms * 100) / 100,
      key: request.keyName,
    },
    'request',
  );
});

const refuse = (reply: FastifyReply, message: string) =>
  reply.code(401).send({ code: 'unauthorized', message, status: 401 });

/** The bearer check: every pets route runs it first. */
const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
  reply.header('Cache-Control', 'no-store');
  const name = verify(request.headers.authorization);
  if (name === undefined) return refuse(reply, 'invalid API key');
  request.keyName = name;
};

const statusEnum = { type: 'string', enum: [...PET_STATUSES] } as const;
const responses = (status: number) => ({ [status]: PET_SCHEMA, '4xx': ERROR_SCHEMA });

app.get<{ Querystring: { limit: number; status?: string; after?: number } }>(
  `${API_PREFIX}/pets`,
  {
    onRequest: authenticate,
    schema: {
      querystring: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          status: statusEnum,
          after: { type: 'integer', minimum: 0 },
        },
      },
      response: { 200: { type: 'array', items: PET_SCHEMA }, '4xx': ERROR_SCHEMA },
    },
  },
  async (request, reply) => {
    const { limit, status, after } = request.query;
    const page = store.list(limit, status, after);
    const last = page.pets.at(-1);
    if (page.hasMore && last) {
      const query = `limit=${limit}${status === undefined ? '' : `&status=${status}`}&after=${last.id}`;
      reply.header('Link', `<${API_PREFIX}/pets?${query}>; rel="next"`);
      reply.header('Next-After', String(last.id));
    }
    return page.pets;
  },
);

app.get<{ Params: { petId: number } }>(
  `${API_PREFIX}/pets/:petId`,
  {
    onRequest: [
      async (_request, reply) => {
        reply.headers(GET_PET_DEPRECATION_HEADERS);
      },
      authenticate,
    ],
    schema: {
      params: { type: 'object', properties: { petId: { type: 'integer', minimum: 1 } } },
      response: responses(200),
    },
  },
  async (request, reply) => {
    const pet = store.byId.get(request.params.petId);
    if (!pet) {
      const message = `no pet with id ${request.params.petId}`;
      return reply.code(404).send({ code: 'not_found', message, status: 404 });
    }
    return pet;
  },
);

app.post<{ Body: { name: string; categoryId: number; status?: string } }>(
  `${API_PREFIX}/pets`,
  {
    onRequest: authenticate,
    schema: {
      body: {
        type: 'object',
        required: ['name', 'categoryId'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          categoryId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
          status: statusEnum,
        },
      },
      response: responses(201),
    },
  },
  async (request, reply) => {
    const { name, categoryId, status = 'available' } = request.body;
    const pet = store.create({ name, categoryId, status });
    reply.header('Location', `${API_PREFIX}/pets/${pet.id}`);
    return reply.code(201).send(pet);
  },
);

app.get('/metrics', async (_request, reply) => {
  reply.type(registry.contentType);
  return registry.metrics();
});

await app.listen(listenOn());
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
