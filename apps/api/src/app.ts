import { API_PREFIX, BODY_LIMIT_BYTES } from '@animal-store/contract';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { AppState } from './http/app-state.js';
import { requireApiKey } from './http/auth.js';
import { edge } from './http/edge.js';
import type { ApiKeyVerifier } from './keys/api-key.js';
import { docsPageRoutes } from './routes/docs-page.js';
import { documentRoutes, probeRoutes } from './routes/meta.js';
import { petRoutes } from './routes/pets.js';
import type { PetStore } from './store/pet-store.js';

export interface AppDeps {
  store: PetStore;
  apiKeys: ApiKeyVerifier;
  logger: Logger;
  /** Injected so tests can move time (the getPet sunset). */
  clock?: () => Date;
  bodyLimitBytes?: number;
}

/** Builds the Koa application without listening. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  const v1 = new Router<AppState>({ prefix: API_PREFIX });
  const pets = petRoutes({
    store: deps.store,
    clock: deps.clock ?? (() => new Date()),
    bodyLimitBytes: deps.bodyLimitBytes ?? BODY_LIMIT_BYTES,
    guard: requireApiKey(deps.apiKeys),
  });
  v1.use(documentRoutes().routes());
  v1.use(docsPageRoutes().routes());
  v1.use(pets.routes());
  // One router holds every route (mounting copies a nested router's routes into the parent),
  // so a request costs one route match and one allowedMethods (404/405 with Allow) pass instead
  // of one per router: about 5% of the API's CPU per request (see tooling/bench).
  const root = new Router<AppState>();
  root.use(probeRoutes(deps.store).routes());
  root.use(v1.routes());

  app.use(edge(deps.logger));
  app.use(root.routes()).use(root.allowedMethods());
  // Koa logs what reaches it to stderr; the edge has already answered and logged it.
  app.silent = true;
  return app;
}
