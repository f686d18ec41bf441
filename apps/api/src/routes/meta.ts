import { openApiDocument, openApiDocument30 } from '@animal-store/contract';
import Router from '@koa/router';
import { answer } from '../http/answer.js';
import type { AppState } from '../http/app-state.js';
import type { Readiness } from '../readiness.js';
import { EXACT_ROUTES } from './exact-routes.js';

/**
 * Probes for the platform; neither waits on the database. Liveness: the process answers.
 * Readiness: `200 ready` while this process should get traffic, `503 draining` from SIGTERM on;
 * both say the database's state as last checked.
 */
export function probeRoutes(readiness: Readiness): Router<AppState> {
  const router = new Router<AppState>(EXACT_ROUTES);
  const alive = JSON.stringify({ status: 'ok' });
  router.get('/healthz', (ctx) => answer(ctx, 200, alive));
  router.get('/readyz', (ctx) => {
    const { draining, database } = readiness;
    const status = draining ? 'draining' : 'ready';
    answer(ctx, draining ? 503 : 200, JSON.stringify({ status, database }));
  });
  return router;
}

/**
 * Public documentation under `/v1`: no API key needed. The OpenAPI document, and its 3.0
 * rendering for generators that read only 3.0.
 */
export function documentRoutes(): Router<AppState> {
  const router = new Router<AppState>(EXACT_ROUTES);
  for (const [path, document] of [
    ['/openapi.json', openApiDocument],
    ['/openapi-3.0.json', openApiDocument30],
  ] as const) {
    const body = JSON.stringify(document);
    router.get(path, (ctx) => answer(ctx, 200, body));
  }
  return router;
}
