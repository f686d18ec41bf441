import { openApiDocument } from '@animal-store/contract';
import Router from '@koa/router';
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
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', (ctx) => {
    if (readiness.draining) ctx.status = 503;
    ctx.body = {
      status: readiness.draining ? 'draining' : 'ready',
      database: readiness.database,
    };
  });
  return router;
}

/** Public documentation under `/v1`: no API key needed. */
export function documentRoutes(): Router<AppState> {
  const router = new Router<AppState>(EXACT_ROUTES);
  const body = JSON.stringify(openApiDocument);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  });
  return router;
}
