import {
  API_PREFIX,
  DEFAULT_PET_STATUS,
  describeDetails,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
  parseListPetsQuery,
  parsePetId,
  validateNewPet,
} from '@animal-store/contract';
import Router from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import type { AppState } from '../http/app-state.js';
import type { Authenticate } from '../http/auth.js';
import { GoneError, NotFoundError, ValidationError } from '../http/errors.js';
import { bodyFingerprint, idempotencyKeyOf, idempotentPet } from '../http/idempotency-key.js';
import { readJsonBody } from '../http/json-body.js';
import { sendJsonText } from '../http/json-response.js';
import { nextPageLink } from '../http/next-link.js';
import { petJson, petListJson } from '../http/pet-json.js';
import type { PetStore } from '../store/pet-store.js';

export interface PetRoutesDeps {
  store: PetStore;
  clock: () => Date;
  bodyLimitBytes: number;
  /** How long a request body may take to arrive (`readJsonBody`'s default when absent). */
  bodyTimeoutMs?: number;
  /** Runs before every pets operation; authentication lives here. */
  guard: Authenticate;
}

type Context = ParameterizedContext<AppState>;

/**
 * One operation as one middleware: names the route for logs and metrics (the template built
 * once), adds the headers every answer carries, authenticates, then handles. A single function
 * instead of a chain of middleware saves the router a composition per request.
 */
function operation(
  template: string,
  guard: Authenticate,
  handle: (ctx: Context) => Promise<void>,
  headers?: Record<string, string>,
): Middleware<AppState> {
  const route = `${API_PREFIX}${template}`;
  return async (ctx) => {
    ctx.state.route = route;
    if (headers) Object.assign(ctx.state.headers, headers);
    await guard(ctx);
    await handle(ctx);
  };
}

/** The three operations of the spec (§4), mounted under `/v1` by the caller. */
export function petRoutes({
  store,
  clock,
  bodyLimitBytes,
  bodyTimeoutMs,
  guard,
}: PetRoutesDeps): Router<AppState> {
  const router = new Router<AppState>();

  router.get(
    '/pets',
    operation('/pets', guard, async (ctx) => {
      const parsed = parseListPetsQuery(new URLSearchParams(ctx.querystring));
      if (!parsed.ok)
        throw new ValidationError({
          message: describeDetails(parsed.details),
          details: parsed.details,
        });
      const query = parsed.value;
      const page = await store.list(query);
      const last = page.pets.at(-1);
      if (page.hasMore && last) ctx.state.headers.Link = nextPageLink(query, last.id);
      sendJsonText(ctx, 200, petListJson(page.pets));
    }),
  );

  router.post(
    '/pets',
    operation('/pets', guard, async (ctx) => {
      const key = idempotencyKeyOf(ctx);
      const body = await readJsonBody(ctx, bodyLimitBytes, bodyTimeoutMs);
      const checked = validateNewPet(body.value);
      if (!checked.ok)
        throw new ValidationError({
          message: describeDetails(checked.details),
          details: checked.details,
        });
      const draft = { ...checked.value, status: checked.value.status ?? DEFAULT_PET_STATUS };
      const pet =
        key === undefined
          ? await store.create(draft)
          : idempotentPet(
              await store.createOnce({
                scope: ctx.state.apiKeyName ?? '',
                key,
                fingerprint: bodyFingerprint(body.bytes),
                draft,
              }),
              ctx,
            );
      ctx.state.headers.Location = `${API_PREFIX}/pets/${pet.id}`;
      sendJsonText(ctx, 201, petJson(pet));
    }),
  );

  // Deprecated (spec §4.3): its headers go on every response, errors included.
  router.get(
    '/pets/:petId',
    operation(
      '/pets/:petId',
      guard,
      async (ctx) => {
        if (clock().getTime() >= GET_PET_SUNSET_AT.getTime()) {
          throw new GoneError({
            message: `GET /pets/{petId} was removed on ${GET_PET_SUNSET_AT.toUTCString()}; use GET ${API_PREFIX}/pets?status=…`,
          });
        }
        const parsed = parsePetId(ctx.params.petId ?? '');
        if (!parsed.ok)
          throw new ValidationError({
            message: describeDetails(parsed.details),
            details: parsed.details,
          });
        const pet = await store.get(parsed.value);
        if (!pet) throw new NotFoundError({ message: `no pet with id ${parsed.value}` });
        sendJsonText(ctx, 200, petJson(pet));
      },
      GET_PET_DEPRECATION_HEADERS,
    ),
  );

  return router;
}
