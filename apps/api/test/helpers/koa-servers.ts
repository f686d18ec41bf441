import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/** Bare Koa apps listening on 127.0.0.1, for tests of Koa's own behaviour; `closeAll` after each. */
export function koaServers() {
  const servers: Server[] = [];
  return {
    /** Listens on a free port and gives back the app's origin. */
    async listen(app: Koa): Promise<string> {
      const server = app.listen(0, '127.0.0.1');
      servers.push(server);
      await once(server, 'listening');
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async closeAll(): Promise<void> {
      for (const server of servers.splice(0)) {
        server.close();
        server.closeAllConnections();
        await once(server, 'close');
      }
    },
  };
}
