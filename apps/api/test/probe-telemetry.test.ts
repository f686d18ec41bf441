import type { Middleware } from 'koa';
import { describe, expect, it } from 'vitest';
import type { AppState } from '../src/http/app-state.js';
import type { RequestTracing } from '../src/tracing/request-tracing.js';
import { auth, startTestApi } from './helpers/api.js';

/** A tracing stand-in that records the path of each request it would have made a span of. */
function recordingTracing(): RequestTracing & { traced: string[] } {
  const traced: string[] = [];
  const middleware: Middleware<AppState> = async (ctx, next) => {
    traced.push(ctx.path);
    await next();
  };
  return { traced, middleware, traceStore: (store) => store, shutdown: async () => {} };
}

const METRICS_TOKEN = 'metrics-token-0123456789';

async function callEveryKind(origin: string) {
  for (const path of ['/healthz', '/readyz', '/healthz?x=1']) {
    expect((await fetch(`${origin}${path}`)).status).toBe(200);
  }
  const scrape = { Authorization: `Bearer ${METRICS_TOKEN}` };
  expect((await fetch(`${origin}/metrics`, { headers: scrape })).status).toBe(200);
  expect((await fetch(`${origin}/metrics`)).status).toBe(401);
  expect((await fetch(`${origin}/v1/pets`, { headers: auth })).status).toBe(200);
}

const logged = (logs: Record<string, unknown>[]) =>
  logs.filter((line) => line.msg === 'request').map((line) => `${line.route} ${line.status}`);

describe('the probes and /metrics', () => {
  it('are neither access-logged nor traced by default, unless answered other than 2xx', async () => {
    const tracing = recordingTracing();
    const api = await startTestApi({ tracing, metricsToken: METRICS_TOKEN });
    await callEveryKind(api.origin);
    expect(logged(api.logs)).toEqual(['/metrics 401', '/v1/pets 200']);
    expect(tracing.traced).toEqual(['/v1/pets']);
  });

  it('are logged and traced like every request with OBSERVE_PROBES=true', async () => {
    const tracing = recordingTracing();
    const api = await startTestApi({
      tracing,
      metricsToken: METRICS_TOKEN,
      observeProbes: true,
    });
    await callEveryKind(api.origin);
    expect(logged(api.logs)).toEqual([
      '/healthz 200',
      '/readyz 200',
      '/healthz 200',
      '/metrics 200',
      '/metrics 401',
      '/v1/pets 200',
    ]);
    expect(tracing.traced).toEqual([
      '/healthz',
      '/readyz',
      '/healthz',
      '/metrics',
      '/metrics',
      '/v1/pets',
    ]);
  });
});
