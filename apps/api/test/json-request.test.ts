import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors.js';
import { readJsonBody } from '../src/http/json-body.js';

/** A Koa app alone that answers what `readJsonBody` made of the request. */
let server: Server;
let origin: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx) => {
    try {
      const body = await readJsonBody(ctx, 64);
      ctx.body = { value: body.value, bytes: body.bytes.length };
    } catch (error) {
      ctx.status = error instanceof HttpError ? error.status : 500;
      ctx.body = { message: (error as Error).message };
    }
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = async (body: string | undefined, headers: Record<string, string> = {}) => {
  const response = await fetch(origin, { method: 'POST', body, headers });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

describe('readJsonBody (the JSON body reader)', () => {
  it('parses a JSON body and keeps its bytes', async () => {
    const text = '{"name":"Rex","categoryId":7}';
    const got = await post(text, { 'Content-Type': 'application/json; charset=UTF-8' });
    expect(got).toEqual({
      status: 200,
      json: { value: { name: 'Rex', categoryId: 7 }, bytes: text.length },
    });
  });

  it('takes application/json in any case, with white space and parameters of its own', async () => {
    const got = await post('[1]', { 'Content-Type': 'Application/JSON ; foo=bar' });
    expect(got).toMatchObject({ status: 200, json: { value: [1] } });
  });

  it('refuses a body that is not application/json, or not UTF-8, with 415', async () => {
    const plain = await post('{}', { 'Content-Type': 'text/plain' });
    expect(plain).toMatchObject({ status: 415 });
    expect(plain.json.message).toContain('text/plain');
    const latin = await post('{}', { 'Content-Type': 'application/json; charset=latin1' });
    expect(latin).toMatchObject({
      status: 415,
      json: { message: expect.stringContaining('latin1') },
    });
  });

  it('answers 400 to a request without a body, to bytes that are not JSON and to bytes that are not UTF-8', async () => {
    expect(await post(undefined)).toMatchObject({
      status: 400,
      json: { message: 'request body is required' },
    });
    const json = { 'Content-Type': 'application/json' };
    expect((await post('{"a":', json)).status).toBe(400);
    const response = await fetch(origin, {
      method: 'POST',
      body: new Uint8Array([0x22, 0xff, 0x22]),
      headers: json,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'request body is not valid UTF-8' });
  });

  it('answers 413 to a body beyond the limit, and 415 to a compressed one', async () => {
    const json = { 'Content-Type': 'application/json' };
    expect((await post(JSON.stringify('x'.repeat(100)), json)).status).toBe(413);
    expect((await post('{}', { ...json, 'Content-Encoding': 'gzip' })).status).toBe(415);
  });

  it('takes a body marked Content-Encoding identity, in any case', async () => {
    const got = await post('{"a":1}', {
      'Content-Type': 'application/json',
      'Content-Encoding': 'Identity',
    });
    expect(got).toEqual({ status: 200, json: { value: { a: 1 }, bytes: 7 } });
  });

  it('reads a Charset parameter in any case, and refuses a list of media types', async () => {
    const upper = await post('{}', { 'Content-Type': 'application/json; Charset=Latin1' });
    expect(upper).toMatchObject({
      status: 415,
      json: { message: expect.stringContaining('Latin1') },
    });
    const list = await post('{}', { 'Content-Type': 'application/json, text/plain' });
    expect(list).toEqual({
      status: 415,
      json: { message: 'request body must be application/json, not application/json, text/plain' },
    });
  });
});
