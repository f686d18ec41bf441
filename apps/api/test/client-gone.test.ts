import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { digestKey, StaticApiKeys } from '../src/keys/api-key.js';
import { startTestApi, TEST_KEY } from './helpers/api.js';

/** Resolves once `done` holds; the test's timeout bounds the wait. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a client that goes away before its answer', () => {
  it('is logged at info as gone, never as a 500', async () => {
    // The key check waits at a gate: the client leaves while its request is being handled.
    const keys = new StaticApiKeys([digestKey(TEST_KEY)]);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = false;
    const api = await startTestApi({
      apiKeys: {
        verify: async (token) => {
          entered = true;
          await gate;
          return keys.verify(token);
        },
      },
    });
    const socket = connect(Number(new URL(api.origin).port), '127.0.0.1');
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"name":',
    );
    await until(() => entered);
    socket.destroy();
    await closed;
    // The server sees the close before the key check ends.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await until(() => api.logs.some((line) => line.msg === 'request'));
    const request = api.logs.find((line) => line.msg === 'request');
    expect(request).toMatchObject({ level: 30, status: 499, route: '/v1/pets' });
    expect(api.logs.filter((line) => Number(line.level) >= 40)).toEqual([]);
    expect(
      api.logs.some((line) => line.msg === 'client closed the connection before its answer'),
    ).toBe(true);
  });

  it('is logged as gone when it ends its side of the connection inside its body', async () => {
    const api = await startTestApi();
    const socket = connect(Number(new URL(api.origin).port), '127.0.0.1');
    socket.on('error', () => {});
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // The server asks for the body (100 Continue) as its reader starts: only then is it sent.
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 40\r\nExpect: 100-continue\r\n\r\n',
    );
    await until(() => answer.includes('100 Continue'));
    socket.end('{"name":');
    await closed;
    await until(() => api.logs.some((line) => line.msg === 'request'));
    // Node refuses the cut request (400); the body reader's failure is the client's leaving.
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
    const gone = api.logs.find(
      (line) => line.msg === 'client closed the connection before its answer',
    );
    expect(gone).toMatchObject({ err: 'request body could not be read completely' });
    expect(api.logs.find((line) => line.msg === 'request')).toMatchObject({ status: 499 });
    expect(api.logs.filter((line) => Number(line.level) >= 40)).toEqual([]);
  });
});
