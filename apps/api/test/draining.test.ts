import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import { startTestApi, TEST_KEY } from './helpers/api.js';
import { parseResponses, type RawResponse } from './helpers/raw-http.js';

/** A keep-alive connection read as a stream of responses; records how it ended. */
class Connection {
  readonly socket: Socket;
  private data = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  error: NodeJS.ErrnoException | undefined;
  ended = false;
  readonly closed: Promise<void>;

  constructor(origin: string) {
    const { hostname, port } = new URL(origin);
    this.socket = connect(Number(port), hostname);
    this.socket.on('data', (chunk: Buffer) => {
      this.data = Buffer.concat([this.data, chunk]);
      this.wake();
    });
    this.socket.on('error', (error) => {
      this.error = error;
    });
    this.socket.on('end', () => {
      this.ended = true;
    });
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
    this.socket.on('close', () => this.wake());
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits until `count` complete responses (interim 100s aside) have arrived. */
  async responses(count: number): Promise<RawResponse[]> {
    for (;;) {
      const all = parseResponses(this.data).filter((r) => r.status !== 100);
      if (all.length >= count) return all;
      if (this.socket.destroyed) throw new Error(`connection closed after ${all.length} answers`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Waits for the interim `100 Continue`. */
  async continued(): Promise<void> {
    while (!this.data.toString('latin1').startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
      if (this.socket.destroyed) throw new Error('connection closed before 100 Continue');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

const listRequest = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`;
const CLIENTS = 8;
const body = JSON.stringify({ name: 'Drained', categoryId: 1 });
const postHead =
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`;

describe('a server that drains (SIGTERM)', () => {
  it('answers what was sent with Connection: close, closes idle connections, resets nothing', async () => {
    const api = await startTestApi();
    // Idle: answered once with keep-alive, nothing sent since.
    const idle = new Connection(api.origin);
    idle.socket.write(listRequest);
    expect((await idle.responses(1))[0]?.headers.connection).toBe('keep-alive');
    // Busy: a create whose body the server is waiting for.
    const busy = new Connection(api.origin);
    busy.socket.write(postHead);
    await busy.continued();
    // Sending: answered once with keep-alive, then a second request written as the drain starts.
    const sending = new Connection(api.origin);
    sending.socket.write(listRequest);
    await sending.responses(1);
    sending.socket.write(listRequest);

    const closing = api.close();

    const [, second] = await sending.responses(2);
    expect(second?.status).toBe(200);
    expect(second?.headers.connection).toBe('close');
    await idle.closed;
    busy.socket.write(body);
    const [created] = await busy.responses(1);
    expect(created?.status).toBe(201);
    expect(created?.headers.connection).toBe('close');
    expect(JSON.parse(created?.body ?? '')).toMatchObject({ name: 'Drained' });
    await Promise.all([busy.closed, sending.closed, closing]);
    for (const connection of [idle, busy, sending]) {
      expect(connection.error).toBeUndefined();
      expect(connection.ended).toBe(true);
    }
  });

  it('answers keep-alive clients sending through the drain, then closes each connection', async () => {
    // A store whose list waits at a gate once armed: the drain starts while the server holds a
    // request from every client, whatever the speed of the machine.
    const store = new MemoryPetStore();
    const list = store.listJson.bind(store);
    let gate: { waiting: number; open: Promise<void>; release(): void } | undefined;
    let everyoneWaiting: () => void = () => {};
    store.listJson = async (options) => {
      if (gate) {
        gate.waiting += 1;
        if (gate.waiting === CLIENTS) everyoneWaiting();
        await gate.open;
      }
      return list(options);
    };
    const api = await startTestApi({ store });
    const clients = Array.from({ length: CLIENTS }, () => new Connection(api.origin));
    const answers = clients.map(async (client) => {
      const seen: string[] = [];
      for (let sent = 1; ; sent++) {
        client.socket.write(listRequest);
        const answer = (await client.responses(sent)).at(-1);
        seen.push(`${answer?.status} ${answer?.headers.connection}`);
        if (answer?.headers.connection !== 'keep-alive') return seen;
        if (sent === 3 && client === clients[0]) {
          // Every client has had answers on its connection; the next request of each is held.
          let release = () => {};
          const open = new Promise<void>((resolve) => {
            release = resolve;
          });
          gate = { waiting: 0, open, release };
        }
      }
    });
    await new Promise<void>((resolve) => {
      everyoneWaiting = resolve;
    });
    const closing = api.close();
    gate?.release();
    const seen = await Promise.all(answers);
    await closing;
    for (const [index, client] of clients.entries()) {
      await client.closed;
      expect(client.error).toBeUndefined();
      expect(seen[index]?.at(-1)).toBe('200 close');
      expect(seen[index]?.slice(0, -1).every((line) => line === '200 keep-alive')).toBe(true);
    }
  });
});
