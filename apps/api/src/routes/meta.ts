import { openApiDocument } from '@animal-store/contract';
import Router from '@koa/router';
import type { AppState } from '../http/app-state.js';
import type { PetStore } from '../store/pet-store.js';

/** Probes for the platform: liveness never touches the store; readiness does. */
export function probeRoutes(store: PetStore): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    // A store failure propagates: errorAnswers turns it into 503 service_unavailable.
    await store.ping();
    ctx.body = { status: 'ready' };
  });
  return router;
}

/** Public documentation under `/v1`: no API key needed. */
export function documentRoutes(): Router<AppState> {
  const router = new Router<AppState>();
  const body = JSON.stringify(openApiDocument);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  });
  return router;
}
