/**
 * Server child for `floor`: the same small JSON answer to `GET /v1/pets/1` from bare `node:http`
 * and from Koa + @koa/router with a route table shaped like the API's, with no work of our own
 * (no key check, no store, no log), so the difference is the framework's own cost per request.
 * Not meant to be started by hand.
 */
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { main } from './lifecycle.js';
import { FLOOR_VARIANTS, type FloorVariant, type ReadyMessage } from './protocol.js';

const PET = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };

function writeJson(res: ServerResponse): void {
  const text = JSON.stringify(PET);
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** Koa + @koa/router answering `GET /v1/pets/:petId` through `ctx.body` or one `writeHead`. */
function koaListener(variant: Exclude<FloorVariant, 'node'>): RequestListener {
  const app = new Koa();
  const router = new Router();
  // The API's routes in the API's order: a request for a pet is matched against all of them.
  const elsewhere = ['/healthz', '/readyz', '/metrics', '/v1/openapi.json', '/v1/docs'];
  for (const path of [...elsewhere, '/v1/docs/app.js', '/v1/docs/app.css', '/v1/pets']) {
    router.get(path, (ctx) => {
      ctx.body = {};
    });
  }
  router.post('/v1/pets', (ctx) => {
    ctx.body = {};
  });
  router.get('/v1/pets/:petId', (ctx) => {
    if (variant === 'koa-body') {
      ctx.body = PET;
      return;
    }
    ctx.respond = false;
    writeJson(ctx.res);
  });
  app.use(router.routes()).use(router.allowedMethods());
  return app.callback();
}

main(async () => {
  const variant = process.argv[2] as FloorVariant;
  if (!FLOOR_VARIANTS.includes(variant)) throw new Error(`unknown floor variant ${variant}`);
  const server = createServer(
    variant === 'node'
      ? (req, res) => {
          if (req.method === 'GET' && req.url?.startsWith('/v1/pets/')) writeJson(res);
          else res.writeHead(404).end();
        }
      : koaListener(variant),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  const ready: ReadyMessage = {
    type: 'ready',
    port: (server.address() as AddressInfo).port,
    seedMs: 0,
  };
  process.send?.(ready);
});
