import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router, { type RouterOptions } from '@koa/router';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';

// @koa/router is patched (patches/, pnpm-workspace.yaml) so that a router without a `host`
// option never reads `ctx.host`, which Koa parses from the Host header on every read.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.close();
    server.closeAllConnections();
    await once(server, 'close');
  }
});

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
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { counter, origin };
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
