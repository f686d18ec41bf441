import { once } from 'node:events';
import { connect } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { koaServers } from './helpers/koa-servers.js';

// Koa is patched (patches/, pnpm-workspace.yaml) so that it watches a response with on-finished,
// which passes a failed socket to ctx.onerror and so to the app's 'error' event, only when
// something hears that event: an app that is not silent, or one with a listener of its own.

const servers = koaServers();
afterEach(() => servers.closeAll());

/** `error` listeners on the socket of a request to `app` (Node's own, and the watch if any). */
async function socketErrorListeners(app: Koa): Promise<number> {
  let count = -1;
  app.use((ctx) => {
    count = ctx.req.socket.listenerCount('error');
    ctx.body = 'ok';
  });
  const res = await fetch(`${await servers.listen(app)}/`);
  expect(await res.text()).toBe('ok');
  return count;
}

describe('watching a response for a failed socket', () => {
  it('is left out for a silent app whose only error listener is its own', async () => {
    const silent = new Koa();
    silent.silent = true;
    const heard = new Koa();
    heard.silent = true;
    heard.on('error', () => {});
    const loud = new Koa();
    const unwatched = await socketErrorListeners(silent);
    expect(await socketErrorListeners(heard)).toBe(unwatched + 1);
    expect(await socketErrorListeners(loud)).toBe(unwatched + 1);
  });

  it('still passes a socket reset mid-request to an app that listens', async () => {
    const app = new Koa();
    app.silent = true;
    const errors: Error[] = [];
    const heard = new Promise<void>((resolve) =>
      app.on('error', (error: Error) => {
        errors.push(error);
        resolve();
      }),
    );
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    app.use(async (ctx) => {
      entered();
      await heard;
      ctx.body = 'too late';
    });
    const { port } = new URL(await servers.listen(app));
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await inside;
    socket.resetAndDestroy();
    await heard;
    expect(errors[0]).toMatchObject({ code: 'ECONNRESET' });
  });
});
