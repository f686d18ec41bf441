/**
 * Server child: the matched baseline. Bare `node:http` doing the API's work for the benchmarked
 * routes with the API's own pieces (request checks, key check, parsing and validation, body
 * reader, store, errors, access-log line, metrics: README, step 1) and
 * the same status, headers in the same order, and body bytes. What it lacks is the framework: no
 * Koa context, no router, no middleware chain. Started by the orchestrator only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiMetrics,
  BadRequestError,
  createLogger,
  DEFAULT_MAX_URL_BYTES,
  GoneError,
  HttpError,
  InternalError,
  loadConfig,
  NotFoundError,
  parseApiKeys,
  StaticApiKeys,
  UnauthorizedError,
  ValidationError,
} from '@animal-store/api';
import {
  assertAcceptableRequest,
  errorBody,
  InstrumentedPetStore,
  logRequest,
  nextPageLink,
  presentedApiKey,
  readJsonRequest,
  requestIdFor,
} from '@animal-store/api/internals';
import {
  API_PREFIX,
  DEFAULT_PET_STATUS,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
} from '@animal-store/contract';
import { listenBare, runChild, seededStore } from './lifecycle.js';
import { writeJson } from './write-json.js';

const PETS = `${API_PREFIX}/pets`;
const PET = `${API_PREFIX}/pets/`;

/** What a handler answers: status, extra headers (in order) and the JSON text of its body. */
interface Reply {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
}

runChild(async (spec) => {
  const untimed = await seededStore(spec.pets);
  const config = loadConfig({ ...process.env, API_KEYS: spec.apiKey });
  const logger = createLogger(config.logLevel);
  const keys = new StaticApiKeys(parseApiKeys(config.apiKeys));
  const metrics = new ApiMetrics();
  const store = new InstrumentedPetStore(untimed, metrics);

  /** Checks the bearer key as the API does; marks the answer `no-store`, a 401 included. */
  async function authenticate(
    req: IncomingMessage,
    headers: Record<string, string>,
  ): Promise<string> {
    headers['Cache-Control'] = 'no-store';
    const identity = keys.verify(presentedApiKey(req));
    if (!identity) throw new UnauthorizedError({ message: 'invalid API key' });
    return identity.name;
  }

  async function listPets(query: string): Promise<Reply> {
    const parsed = parseListPetsQuery(new URLSearchParams(query));
    if (!parsed.ok) throw ValidationError.of(parsed.details);
    const page = await store.list(parsed.value);
    const last = page.pets.at(-1);
    const headers: Record<string, string> = {};
    if (page.hasMore && last) {
      headers.Link = nextPageLink(parsed.value, last.id);
      headers['Next-After'] = String(last.id);
    }
    return { status: 200, headers, text: JSON.stringify(page.pets) };
  }

  async function createPet(req: IncomingMessage): Promise<Reply> {
    // The API looks for an Idempotency-Key first, as here; the benchmark sends none, and the
    // baseline does not implement replays.
    if (req.headers['idempotency-key'] !== undefined) {
      throw new BadRequestError({ message: 'the baseline does not take Idempotency-Key' });
    }
    const checked = validateNewPet((await readJsonRequest(req, config.bodyLimitBytes)).value);
    if (!checked.ok) throw ValidationError.of(checked.details);
    const pet = await store.create({
      ...checked.value,
      status: checked.value.status ?? DEFAULT_PET_STATUS,
    });
    return { status: 201, headers: { Location: `${PETS}/${pet.id}` }, text: JSON.stringify(pet) };
  }

  async function getPet(rawId: string): Promise<Reply> {
    if (Date.now() >= GET_PET_SUNSET_AT.getTime()) {
      throw new GoneError({ message: 'GET /pets/{petId} has reached its sunset' });
    }
    const parsed = parsePetId(rawId);
    if (!parsed.ok) throw ValidationError.of(parsed.details);
    const pet = await store.get(parsed.value);
    if (!pet) throw new NotFoundError({ message: `no pet with id ${parsed.value}` });
    return { status: 200, headers: {}, text: JSON.stringify(pet) };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdFor(req.headers['x-request-id']);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const headers: Record<string, string> = {
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
    };
    let route: string | undefined;
    let key: string | undefined;
    let reply: Reply;
    try {
      assertAcceptableRequest(req, DEFAULT_MAX_URL_BYTES);
      if (path === PETS && (req.method === 'GET' || req.method === 'POST')) {
        route = PETS;
        key = await authenticate(req, headers);
        reply =
          req.method === 'GET'
            ? await listPets(q === -1 ? '' : url.slice(q + 1))
            : await createPet(req);
      } else if (path.startsWith(PET) && req.method === 'GET') {
        route = `${PETS}/:petId`;
        Object.assign(headers, GET_PET_DEPRECATION_HEADERS);
        key = await authenticate(req, headers);
        reply = await getPet(decodeURIComponent(path.slice(PET.length)));
      } else {
        throw new NotFoundError({ message: `no route for ${req.method} ${path}` });
      }
    } catch (caught) {
      if (!(caught instanceof HttpError)) logger.error({ err: caught }, 'unhandled error');
      const error = caught instanceof HttpError ? caught : new InternalError();
      reply = {
        status: error.status,
        headers: error.headers,
        text: JSON.stringify(errorBody(error)),
      };
    }
    Object.assign(headers, reply.headers);
    writeJson(res, reply.status, headers, reply.text);
    const ms = performance.now() - started;
    metrics.observeRequest(req.method ?? '', route, reply.status, ms / 1000);
    logRequest(logger, requestId, req.method, route ?? path, reply.status, ms, key);
  }

  return listenBare((req, res) => void handle(req, res));
});
