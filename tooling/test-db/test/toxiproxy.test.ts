import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToxiproxy, type Toxiproxy } from '../src/index.js';

/** A server on 127.0.0.1 that answers each chunk with 1,000 bytes of `x`. */
const server = createServer((socket) => socket.on('data', () => socket.write('x'.repeat(1_000))));
let upstream = '';
let toxiproxy: Toxiproxy;
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  upstream = `127.0.0.1:${(server.address() as { port: number }).port}`;
  toxiproxy = await startToxiproxy({ log: () => {} });
});
afterAll(async () => {
  await toxiproxy?.stop();
  server.close();
});

/** Connects to `port`, sends one byte, and collects what comes back until the connection ends. */
function exchange(port: number): Promise<{ bytes: number; error?: string }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write('?'));
    let bytes = 0;
    socket.on('data', (chunk) => {
      bytes += chunk.length;
      if (bytes >= 1_000) socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ bytes, error: error.code }));
    socket.on('close', () => resolve({ bytes }));
  });
}

describe('startToxiproxy (Toxiproxy built with Go, driven over its HTTP API)', () => {
  it('binds its API to 127.0.0.1 only', () => {
    expect(new URL(toxiproxy.api).hostname).toBe('127.0.0.1');
  });

  it('relays a link, cuts replies with limit_data, and refuses while disabled', async () => {
    const link = await toxiproxy.link('helper-test', upstream);
    expect(await exchange(link.port)).toEqual({ bytes: 1_000 });

    await link.addToxic({
      name: 'cut',
      type: 'limit_data',
      stream: 'downstream',
      attributes: { bytes: 100 },
    });
    expect((await exchange(link.port)).bytes).toBe(100);
    await link.removeToxic('cut');
    expect(await exchange(link.port)).toEqual({ bytes: 1_000 });

    await link.setEnabled(false);
    expect(await exchange(link.port)).toEqual({ bytes: 0, error: 'ECONNREFUSED' });
    await link.setEnabled(true);
    expect(await exchange(link.port)).toEqual({ bytes: 1_000 });
  });
});
