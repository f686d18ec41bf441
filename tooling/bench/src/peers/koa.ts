/**
 * The Koa peer: an independent server doing the API's per-request work the way a Koa developer
 * writes it, on the API's framework (Koa and @koa/router as published) and sharing none of the
 * API's code: app middleware for the request id, the access log and error answers, then the
 * router's chains, one job per middleware: the bearer key check (`key.ts`), `getPet`'s
 * deprecation headers, @koa/bodyparser for the `POST` body, and the handler. A pino access-log
 * line per request and a prom-client latency histogram by method, route and status
 * (`telemetry.ts`); input checked with the contract's TypeBox checks (`parseListPetsQuery`,
 * `parsePetId`, `validateNewPet`); bodies are objects Koa serialises. Its in-memory store is
 * `peer-store.ts`; the bench creates the same pets in it as in the API, over HTTP, so its bodies
 * are the API's byte for byte (checked before every run). Configured by `HOST`, `PORT` and
 * `API_KEY`.
 */
import { createServer } from 'node:http';
import {
  API_PREFIX,
  BODY_LIMIT_BYTES,
  DEFAULT_PET_STATUS,
  describeDetails,
  type ErrorDetail,
  formatListPetsQuery,
  GET_PET_DEPRECATION_HEADERS,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
} from '@animal-store/contract';
import { bodyParser } from '@koa/bodyparser';
import Router, { type RouterContext } from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { keyCheck, serveUntilStopped } from './key.js';
import { PeerStore } from './peer-store.js';
import { accessLogger, requestIdFor, requestMetrics } from './telemetry.js';

interface State {
  requestId?: string;
  keyName?: string;
}

const store = new PeerStore();
const verify = keyCheck();
const { registry, duration } = requestMetrics();
const logger = accessLogger('koa-peer');

/** A 400 with the contract's details, as `ctx.throw` carries them to `errorAnswers`. */
const invalid = (details: ErrorDetail[]) => ({
  code: 'validation_failed',
  message: describeDetails(details),
  details,
});

const requestId: Middleware<State> = (ctx, next) => {
  const id = requestIdFor(ctx.req.headers['x-request-id']);
  ctx.state.requestId = id;
  ctx.set({ 'X-Request-Id': id, 'X-Content-Type-Options': 'nosniff' });
  return next();
};

const accessLog: Middleware<State> = async (ctx, next) => {
  const started = performance.now();
  await next();
  const ms = performance.now() - started;
  const matched = (ctx as unknown as RouterContext)._matchedRoute;
  const route = typeof matched === 'string' ? matched : ctx.path;
  duration.observe({ method: ctx.method, route, status: String(ctx.status) }, ms / 1000);
  const { requestId: id, keyName: key } = ctx.state;
  logger.info(
    {
      requestId: id,
      method: ctx.method,
      route,
      status: ctx.status,
      ms: Math.round(ms * 100) / 100,
      key,
    },
    'request',
  );
};

/** What a middleware throws (`ctx.throw`, the body parser's errors), as an Error body. */
const errorAnswers: Middleware<State> = async (ctx, next) => {
  try {
    await next();
  } catch (caught) {
    const error = caught as { status?: number; code?: string; message: string; details?: unknown };
    const status = error.status ?? 500;
    const code =
      error.code ??
      (status === 413 ? 'payload_too_large' : status === 400 ? 'malformed_json' : 'internal_error');
    const message = status === 500 ? 'internal error' : error.message;
    ctx.status = status;
    ctx.body = { code, message, status, ...(error.details ? { details: error.details } : {}) };
  }
};

const authenticate: Middleware<State> = (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  const name = verify(ctx.get('Authorization'));
  if (name === undefined) return ctx.throw(401, 'invalid API key', { code: 'unauthorized' });
  ctx.state.keyName = name;
  return next();
};

const deprecated: Middleware<State> = (ctx, next) => {
  ctx.set(GET_PET_DEPRECATION_HEADERS);
  return next();
};

const jsonOnly: Middleware<State> = (ctx, next) => {
  if (!ctx.is('application/json')) {
    ctx.throw(415, 'send the body as application/json', { code: 'unsupported_media_type' });
  }
  return next();
};

const listPets: Middleware<State> = (ctx) => {
  const parsed = parseListPetsQuery(new URLSearchParams(ctx.querystring));
  if (!parsed.ok) return ctx.throw(400, invalid(parsed.details));
  const query = parsed.value;
  const page = store.list(query.limit, query.status, query.after);
  const last = page.pets.at(-1);
  if (page.hasMore && last) {
    ctx.set(
      'Link',
      `<${API_PREFIX}/pets?${formatListPetsQuery({ ...query, after: last.id })}>; rel="next"`,
    );
    ctx.set('Next-After', String(last.id));
  }
  ctx.body = page.pets;
};

const getPet: Middleware<State, RouterContext<State>> = (ctx) => {
  const parsed = parsePetId(ctx.params.petId ?? '');
  if (!parsed.ok) return ctx.throw(400, invalid(parsed.details));
  const pet = store.byId.get(parsed.value);
  if (!pet) return ctx.throw(404, `no pet with id ${parsed.value}`, { code: 'not_found' });
  ctx.body = pet;
};

const createPet: Middleware<State> = (ctx) => {
  const checked = validateNewPet(ctx.request.body);
  if (!checked.ok) return ctx.throw(400, invalid(checked.details));
  const { name, categoryId, status = DEFAULT_PET_STATUS } = checked.value;
  const pet = store.create({ name, categoryId, status });
  ctx.set('Location', `${API_PREFIX}/pets/${pet.id}`);
  ctx.status = 201;
  ctx.body = pet;
};

const router = new Router<State>({ prefix: API_PREFIX, sensitive: true, strict: true });
router.get('/pets', authenticate, listPets);
router.post(
  '/pets',
  authenticate,
  jsonOnly,
  bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT_BYTES }),
  createPet,
);
router.get('/pets/:petId', deprecated, authenticate, getPet);
const metrics = new Router<State>();
metrics.get('/metrics', async (ctx) => {
  ctx.type = registry.contentType;
  ctx.body = await registry.metrics();
});

const app = new Koa<State>();
app.use(requestId);
app.use(accessLog);
app.use(errorAnswers);
app.use(router.routes());
app.use(router.allowedMethods());
app.use(metrics.routes());
app.silent = true;

serveUntilStopped(createServer(app.callback()));
