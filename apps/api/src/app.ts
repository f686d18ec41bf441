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
  const docs = documentRoutes();
  v1.use(docs.routes(), docs.allowedMethods());
  const docsPage = docsPageRoutes();
  v1.use(docsPage.routes(), docsPage.allowedMethods());
  v1.use(pets.routes(), pets.allowedMethods());
  const probes = probeRoutes(deps.store);

  app.use(edge(deps.logger));
  app.use(probes.routes()).use(probes.allowedMethods());
  app.use(v1.routes()).use(v1.allowedMethods());
  // Koa logs what reaches it to stderr; the edge has already answered and logged it.
  app.silent = true;
  return app;
}
