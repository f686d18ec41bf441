import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import { startTestApi, TEST_KEY } from './helpers/api.js';

describe('closing the server', () => {
  it('resolves only once the last request has ended, even after its socket was cut', async () => {
    const store = new MemoryPetStore();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let ended = false;
    const getJson = store.getJson.bind(store);
    store.getJson = async (id) => {
      entered();
      await gate;
      ended = true;
      return getJson(id);
    };
    const api = await startTestApi({ store });
    const socket = connect(Number(new URL(api.origin).port), '127.0.0.1');
    socket.on('error', () => {});
    const socketClosed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(`GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`);
    await inside;

    let closed = false;
    // A deadline far shorter than the request: its socket is cut while its handler still runs.
    const closing = api.running.close(50).then(() => {
      closed = true;
    });
    await socketClosed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(ended).toBe(true);
  });
});
