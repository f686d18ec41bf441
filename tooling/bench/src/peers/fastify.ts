/**
 * The Fastify peer: an independent server doing the API's per-request work the way Fastify does
 * it, sharing none of the API's code: a request id (the caller's sane `X-Request-Id`, else a
 * UUID), the bearer key check (`key.ts`), one pino access-log line per request on stdout
 * (synchronous, as the API writes it), a prom-client latency histogram by method, route and
 * status (with the default process metrics), the `Link` of the next page and `getPet`'s
 * deprecation headers, validation by JSON schemas and answers serialised from response schemas.
 * Only the contract's constants (prefix, statuses, deprecation header values) come from the
 * monorepo. Its in-memory store keeps pets in id order and per status; the bench creates the
 * same pets in it as in the API, over HTTP, so its bodies are the API's byte for byte (checked
 * before every run). Configured by `HOST`, `PORT` and `API_KEY`.
 */
import { randomUUID } from 'node:crypto';
import { API_PREFIX, GET_PET_DEPRECATION_HEADERS, PET_STATUSES } from '@animal-store/contract';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { keyCheck, listenOn } from './key.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

/** Pets in id order, and per status: a page is a binary search and a slice. */
class PeerStore {
  nextId = 1;
  readonly all: Pet[] = [];
  readonly byId = new Map<number, Pet>();
  readonly byStatus = new Map<string, Pet[]>(PET_STATUSES.map((s) => [s, []]));

  create(draft: Omit<Pet, 'id'>): Pet {
    const pet = {
      id: this.nextId++,
      name: draft.name,
      categoryId: draft.categoryId,
      status: draft.status,
    };
    this.all.push(pet);
    this.byId.set(pet.id, pet);
    this.byStatus.get(pet.status)?.push(pet);
    return pet;
  }

  list(limit: number, status?: string, after?: number): { pets: Pet[]; hasMore: boolean } {
    const source = status === undefined ? this.all : (this.byStatus.get(status) ?? []);
    let [low, high] = [0, source.length];
    while (after !== undefined && low < high) {
      const mid = (low + high) >>> 1;
      if ((source[mid] as Pet).id <= after) low = mid + 1;
      else high = mid;
    }
    return { pets: source.slice(low, low + limit), hasMore: low + limit < source.length };
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

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

const registry = new Registry();
collectDefaultMetrics({ register: registry });
const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'time to answer each request',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

const logger = pino(
  { level: process.env.LOG_LEVEL ?? 'info', base: { service: 'fastify-peer', pid: process.pid } },
  pino.destination({ fd: 1, sync: true }),
);
const app = Fastify({
  loggerInstance: logger,
  disableRequestLogging: true,
  requestIdLogLabel: 'requestId',
  bodyLimit: 16_384,
  keepAliveTimeout: 5_000, // Node's default, which the API keeps
  genReqId: (req) => {
    const header = req.headers['x-request-id'];
    return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
  },
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
