import { METHODS } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses, type RawResponse } from './helpers/raw-http.js';

// Every method Node's parser accepts, on a path the API serves and on one it does not: the README
// promises 405 with Allow on known paths, 404 elsewhere, an Error body on every error answer.

const api = await startTestApi();
const host = new URL(api.origin).host;

/** Sends one request on its own connection and returns the answer. */
async function send(method: string, target: string): Promise<RawResponse> {
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${host}`,
    `Authorization: Bearer ${TEST_KEY}`,
  ];
  const { data } = await exchange(api.origin, `${head.join('\r\n')}\r\nConnection: close\r\n\r\n`, {
    end: true,
  });
  const [answer] = parseResponses(data, { head: method === 'HEAD' });
  if (answer === undefined) throw new Error(`${method} ${target}: no answer`);
  return answer;
}

const SERVED = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);
const OTHERS = METHODS.filter((m) => !SERVED.has(m) && m !== 'CONNECT');

describe('a method the API does not serve', () => {
  it('knows at least the unusual methods that once got 501', () => {
    expect(OTHERS).toEqual(expect.arrayContaining(['TRACE', 'PROPFIND', 'COPY', 'M-SEARCH']));
  });

  it.each(OTHERS)('answers %s on /v1/pets with 405, Allow and an Error body', async (method) => {
    const res = await send(method, '/v1/pets');
    expect(res.status).toBe(405);
    expect(res.headers.allow?.split(/, */).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(parseErrorBody(res.headers['content-type'], res.body, 405).code).toBe(
      'method_not_allowed',
    );
  });

  it.each([
    ['PROPFIND', '/v1/pets', '405 Method Not Allowed'],
    ['PROPFIND', '/v1/nowhere', '404 Not Found'],
    ['DELETE', '/v1/pets', '405 Method Not Allowed'],
  ])('answers %s %s with the reason phrase of its status, %s', async (method, target, line) => {
    const request = `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
    const { data } = await exchange(api.origin, request, { end: true });
    expect(data.toString('latin1').split('\r\n')[0]).toBe(`HTTP/1.1 ${line}`);
  });

  it.each(OTHERS)('answers %s on an unknown path with 404 and an Error body', async (method) => {
    const res = await send(method, '/v1/nowhere');
    expect(res.status).toBe(404);
    expect(parseErrorBody(res.headers['content-type'], res.body, 404).code).toBe('not_found');
  });

  it('answers CONNECT, which no route can take, with 404 and an Error body', async () => {
    const res = await send('CONNECT', `${host}`);
    expect(res.status).toBe(404);
    expect(parseErrorBody(res.headers['content-type'], res.body, 404).code).toBe('not_found');
  });
});

describe('OPTIONS', () => {
  it('answers 204 with Allow on a known path', async () => {
    const res = await send('OPTIONS', '/v1/pets/1');
    expect(res.status).toBe(204);
    expect(res.headers.allow?.split(/, */).sort()).toEqual(['GET', 'HEAD']);
    expect(res.body).toBe('');
  });

  it('answers 404 with an Error body on an unknown path', async () => {
    const res = await send('OPTIONS', '/v1/nowhere');
    expect(res.status).toBe(404);
    expect(parseErrorBody(res.headers['content-type'], res.body, 404).code).toBe('not_found');
  });
});
