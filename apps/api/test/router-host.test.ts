import Router, { type RouterOptions } from '@koa/router';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { koaServers } from './helpers/koa-servers.js';

// @koa/router is patched (patches/, pnpm-workspace.yaml) so that a router without a `host`
// option never reads `ctx.host`, which Koa parses from the Host header on every read.

const servers = koaServers();
afterEach(() => servers.closeAll());

/** Serves `GET /pets` through a router built with `options`; counts the reads of `ctx.host`. */
async function routed(options: RouterOptions) {
  const app = new Koa();
  const counter = { hostReads: 0 };
  Object.defineProperty(app.context, 'host', {
    get(this: Koa.Context) {
      counter.hostReads++;
      return this.request.host;
    },
  });
  const router = new Router(options);
  router.get('/pets', (ctx) => {
    ctx.body = 'ok';
  });
  app.use(router.routes());
  return { counter, origin: await servers.listen(app) };
}

describe('routing', () => {
  it('does not read the Host header when the router matches any host', async () => {
    const { counter, origin } = await routed({});
    const res = await fetch(`${origin}/pets`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(counter.hostReads).toBe(0);
  });

  it('reads it when the router matches by host, and refuses another host', async () => {
    const { counter, origin } = await routed({ host: 'pets.example' });
    const res = await fetch(`${origin}/pets`);
    expect(res.status).toBe(404);
    expect(counter.hostReads).toBe(1);
  });
});
