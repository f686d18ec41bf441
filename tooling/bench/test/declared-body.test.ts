import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeclaredBody } from '../src/peers/declared-body.js';

/** A server that answers with what `readDeclaredBody` made of each request. */
const server = createServer(async (req, res) => {
  const body = await readDeclaredBody(req);
  res.end(body === undefined ? 'none' : `read ${body.toString('utf8')}`);
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Sends one request, `body` in the given chunks (chunked when there is no Content-Length). */
function send(method: string, headers: Record<string, string>, chunks: string[] = []) {
  return new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/', headers }, async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve(text);
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readDeclaredBody (how the replaying servers read bodies)', () => {
  it('reads a body of a declared length to its end', async () => {
    const body = JSON.stringify({ name: 'Rex', categoryId: 7 });
    const got = await send('POST', { 'Content-Length': String(body.length) }, [body]);
    expect(got).toBe(`read ${body}`);
  });

  it('reads a chunked body of several chunks to its end', async () => {
    const got = await send('POST', { 'Transfer-Encoding': 'chunked' }, ['{"a":', '1}']);
    expect(got).toBe('read {"a":1}');
  });

  it('leaves a request that declares no body alone', async () => {
    expect(await send('GET', {})).toBe('none');
  });
});
