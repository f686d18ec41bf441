/**
 * Server child: the matched baseline. Bare `node:http` doing the API's work for the benchmarked
 * routes with the same pieces: request id, the API's key check (`presentedApiKey`, then
 * `StaticApiKeys`), the contract's query/id parsing, JSON text parsing and body validation,
 * strict UTF-8 decoding, the same store class, the same access-log line through the same logger,
 * the same metrics (`ApiMetrics`, process metrics included, and the store timed by
 * `InstrumentedPetStore`), the API's error classes and Error body, and the same status, headers
 * (in the same order) and body bytes.
 * What it lacks is the framework: no Koa context, no router, no middleware chain. Not meant to be
 * started by hand.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiMetrics,
  BadRequestError,
  createLogger,
  errorBody,
  GoneError,
  HttpError,
  InstrumentedPetStore,
  InternalError,
  loadConfig,
  MalformedJsonError,
  NotFoundError,
  nextPageLink,
  PayloadTooLargeError,
  type PetStore,
  parseApiKeys,
  presentedApiKey,
  requestIdFor,
  StaticApiKeys,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@animal-store/api';
import {
  API_PREFIX,
  DEFAULT_PET_STATUS,
  describeDetails,
  type ErrorDetail,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
  parseJsonText,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
} from '@animal-store/contract';
import { main, runChild } from './lifecycle.js';
import { readServerSpec } from './protocol.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const PETS = `${API_PREFIX}/pets`;
const PET = `${API_PREFIX}/pets/`;
/** As the API decodes a body: bytes that are not UTF-8 are refused, never replaced. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const invalid = (details: ErrorDetail[]) =>
  new ValidationError({ message: describeDetails(details), details });
/** As the API answers a request without a body. */
const required = () =>
  new ValidationError({
    message: 'request body is required',
    details: [{ path: '', message: 'is required' }],
  });

/** What a handler answers: status, extra headers (in order) and a JSON body. */
interface Reply {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: unknown;
}

function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        reject(new PayloadTooLargeError({ limitBytes }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(UTF8.decode(Buffer.concat(chunks, size)));
      } catch {
        reject(new MalformedJsonError({ message: 'request body is not valid UTF-8' }));
      }
    });
    req.on('error', reject);
  });
}

async function readJson(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
    throw required();
  }
  const [type = '', ...params] = (req.headers['content-type'] ?? '').split(';');
  if (type.trim().toLowerCase() !== 'application/json') {
    throw new UnsupportedMediaTypeError({ message: 'request body must be application/json' });
  }
  for (const param of params) {
    const [name, value = ''] = param.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value.trim().toLowerCase() !== 'utf-8') {
      throw new UnsupportedMediaTypeError({ message: 'request body must be UTF-8' });
    }
  }
  if (Number(length) > limitBytes) throw new PayloadTooLargeError({ limitBytes });
  const text = await readBody(req, limitBytes);
  if (text.trim() === '') throw required();
  try {
    return parseJsonText(text);
  } catch (error) {
    throw new MalformedJsonError({
      message: `request body is not valid JSON: ${(error as Error).message}`,
    });
  }
}

main(async () => {
  const spec = readServerSpec();
  const config = loadConfig({ ...process.env, API_KEYS: spec.apiKey });
  const logger = createLogger(config.logLevel);
  const keys = new StaticApiKeys(parseApiKeys(config.apiKeys));

  /** Checks the bearer key as the API does; marks the answer `no-store`, a 401 included. */
  async function authenticate(
    req: IncomingMessage,
    headers: Record<string, string>,
  ): Promise<string> {
    headers['Cache-Control'] = 'no-store';
    const identity = await keys.verify(presentedApiKey(req));
    if (!identity) throw new UnauthorizedError({ message: 'invalid API key' });
    return identity.name;
  }

  async function listPets(store: PetStore, query: string): Promise<Reply> {
    const parsed = parseListPetsQuery(new URLSearchParams(query));
    if (!parsed.ok) throw invalid(parsed.details);
    const page = await store.list(parsed.value);
    const last = page.pets.at(-1);
    const headers: Record<string, string> = {};
    if (page.hasMore && last) headers.Link = nextPageLink(parsed.value, last.id);
    return { status: 200, headers, body: page.pets };
  }

  async function createPet(store: PetStore, req: IncomingMessage): Promise<Reply> {
    // The API looks for an Idempotency-Key first, as here; the benchmark sends none, and the
    // baseline does not implement replays.
    if (req.headers['idempotency-key'] !== undefined) {
      throw new BadRequestError({ message: 'the baseline does not take Idempotency-Key' });
    }
    const checked = validateNewPet(await readJson(req, config.bodyLimitBytes));
    if (!checked.ok) throw invalid(checked.details);
    const pet = await store.create({
      ...checked.value,
      status: checked.value.status ?? DEFAULT_PET_STATUS,
    });
    return { status: 201, headers: { Location: `${PETS}/${pet.id}` }, body: pet };
  }

  async function getPet(store: PetStore, rawId: string): Promise<Reply> {
    if (Date.now() >= GET_PET_SUNSET_AT.getTime()) {
      throw new GoneError({ message: 'GET /pets/{petId} has reached its sunset' });
    }
    const parsed = parsePetId(rawId);
    if (!parsed.ok) throw invalid(parsed.details);
    const pet = await store.get(parsed.value);
    if (!pet) throw new NotFoundError({ message: `no pet with id ${parsed.value}` });
    return { status: 200, headers: {}, body: pet };
  }

  const metrics = new ApiMetrics();
  await runChild(spec, async (untimed) => {
    const store = new InstrumentedPetStore(untimed, metrics.storeDuration);
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
        if (path === PETS && (req.method === 'GET' || req.method === 'POST')) {
          route = PETS;
          key = await authenticate(req, headers);
          reply =
            req.method === 'GET'
              ? await listPets(store, q === -1 ? '' : url.slice(q + 1))
              : await createPet(store, req);
        } else if (path.startsWith(PET) && req.method === 'GET') {
          route = `${PETS}/:petId`;
          Object.assign(headers, GET_PET_DEPRECATION_HEADERS);
          key = await authenticate(req, headers);
          reply = await getPet(store, decodeURIComponent(path.slice(PET.length)));
        } else {
          throw new NotFoundError({ message: `no route for ${req.method} ${path}` });
        }
      } catch (caught) {
        if (!(caught instanceof HttpError)) logger.error({ err: caught }, 'unhandled error');
        const error = caught instanceof HttpError ? caught : new InternalError();
        reply = { status: error.status, headers: error.headers, body: errorBody(error) };
      }
      const text = JSON.stringify(reply.body);
      Object.assign(headers, reply.headers);
      headers['Content-Type'] = JSON_TYPE;
      headers['Content-Length'] = String(Buffer.byteLength(text));
      res.writeHead(reply.status, headers);
      res.end(text);
      const ms = performance.now() - started;
      metrics.observeRequest(req.method ?? '', route, reply.status, ms / 1000);
      logger.info(
        {
          requestId,
          method: req.method,
          route: route ?? path,
          status: reply.status,
          ms: Math.round(ms * 100) / 100,
          key,
        },
        'request',
      );
    }

    const server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  });
});
