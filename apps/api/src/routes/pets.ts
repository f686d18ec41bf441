import {
  API_PREFIX,
  DEFAULT_PET_STATUS,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
} from '@animal-store/contract';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Clock } from '../clock.js';
import { answer } from '../http/answer.js';
import type { AppState } from '../http/app-state.js';
import { GoneError, NotFoundError, ValidationError } from '../http/errors.js';
import { bodyFingerprint, idempotencyKeyOf, idempotentPet } from '../http/idempotency-key.js';
import { readJsonBody } from '../http/json-body.js';
import { nextPageLink } from '../http/next-link.js';
import type { PetStore } from '../store/pet-store.js';
import { EXACT_ROUTES } from './exact-routes.js';

export interface PetRoutesDeps {
  store: PetStore;
  clock: Clock;
  bodyLimitBytes: number;
  /** How long a request body may take to arrive (`readJsonBody`'s default when absent). */
  bodyTimeoutMs?: number;
  /** What runs before every pets operation: the API key check, then the rate limit. */
  guard: readonly Middleware<AppState>[];
}

/** Adds `getPet`'s deprecation headers (spec §4.3) to every answer, errors included. */
const deprecated: Middleware<AppState> = (ctx, next) => {
  ctx.set(GET_PET_DEPRECATION_HEADERS);
  return next();
};

const SUNSET_MS = GET_PET_SUNSET_AT.getTime();
const GONE_MESSAGE = `GET /pets/{petId} was removed on ${GET_PET_SUNSET_AT.toUTCString()}; use GET ${API_PREFIX}/pets?status=…`;

/** The three operations of the spec (§4), mounted under `/v1` by the caller. */
export function petRoutes({
  store,
  clock,
  bodyLimitBytes,
  bodyTimeoutMs,
  guard,
}: PetRoutesDeps): Router<AppState> {
  const router = new Router<AppState>(EXACT_ROUTES);

  const listPets: Middleware<AppState> = async (ctx) => {
    const parsed = parseListPetsQuery(new URLSearchParams(ctx.querystring));
    if (!parsed.ok) throw ValidationError.of(parsed.details);
    const query = parsed.value;
    const page = await store.listJson(query);
    if (page.hasMore && page.lastId !== undefined) {
      ctx.set('Link', nextPageLink(query, page.lastId));
      ctx.set('Next-After', String(page.lastId));
    }
    answer(ctx, 200, page.json);
  };

  const createPet: Middleware<AppState> = async (ctx) => {
    const key = idempotencyKeyOf(ctx);
    const body = await readJsonBody(ctx, bodyLimitBytes, bodyTimeoutMs);
    const checked = validateNewPet(body.value);
    if (!checked.ok) throw ValidationError.of(checked.details);
    const draft = { ...checked.value, status: checked.value.status ?? DEFAULT_PET_STATUS };
    const pet =
      key === undefined
        ? await store.create(draft)
        : idempotentPet(
            await store.createOnce({
              scope: ctx.state.apiKeyId ?? '',
              key,
              fingerprint: bodyFingerprint(body.bytes),
              draft,
            }),
            ctx,
          );
    ctx.set('Location', `${API_PREFIX}/pets/${pet.id}`);
    answer(ctx, 201, pet.json);
  };

  const getPet: Middleware<AppState> = async (ctx) => {
    if (clock() >= SUNSET_MS) throw new GoneError({ message: GONE_MESSAGE });
    const parsed = parsePetId(ctx.params.petId ?? '');
    if (!parsed.ok) throw ValidationError.of(parsed.details);
    const text = await store.getJson(parsed.value);
    if (text === undefined) throw new NotFoundError({ message: `no pet with id ${parsed.value}` });
    answer(ctx, 200, text);
  };

  router.get('/pets', ...guard, listPets);
  router.post('/pets', ...guard, createPet);
  router.get('/pets/:petId', deprecated, ...guard, getPet);
  return router;
}
