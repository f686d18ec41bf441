import { readFileSync } from 'node:fs';
import { GET_PET_SUNSET_AT } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { AnimalStoreClient, AnimalStoreError, GoneError } from '../src/index.js';
import { answer, errorJson, scriptedServer } from './support/scripted-server.js';

const pet = (id: number) => ({ id, name: `P${id}`, categoryId: 1, status: 'pending' });

describe('reading answers', () => {
  it('follows Link rel="next" page by page, to its own base address', async () => {
    // The server lives under /api/v1 but writes links from /v1, as a proxy in front of it would.
    const server = await scriptedServer((_n, req, res) => {
      const after = Number(new URL(req.url, 'http://x').searchParams.get('after') ?? 0);
      const ids = [after + 1, after + 2].filter((id) => id <= 5);
      const more = ids.at(-1) !== undefined && (ids.at(-1) as number) < 5;
      answer(
        res,
        200,
        ids.map(pet),
        more ? { Link: `</v1/pets?limit=2&status=pending&after=${ids.at(-1)}>; rel="next"` } : {},
      );
    });
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/api/v1/`, apiKey: 'k' });
    const ids: number[] = [];
    for await (const p of client.pets.list({ status: 'pending', limit: 2 })) ids.push(p.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(server.received.map((r) => r.url)).toEqual([
      '/api/v1/pets?limit=2&status=pending',
      '/api/v1/pets?limit=2&status=pending&after=2',
      '/api/v1/pets?limit=2&status=pending&after=4',
    ]);
  });

  it('stops fetching when the loop stops', async () => {
    const server = await scriptedServer((_n, _req, res) =>
      answer(res, 200, [pet(1), pet(2)], { Link: '</v1/pets?limit=2&after=2>; rel="next"' }),
    );
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/v1`, apiKey: 'k' });
    for await (const p of client.pets.list({ limit: 2 })) if (p.id === 1) break;
    expect(server.received).toHaveLength(1);
  });

  it('throws an Error body as AnimalStoreError with its code, details and request id', async () => {
    const body = {
      ...errorJson(400, 'validation_failed', 'bad'),
      details: [{ path: '/name', message: 'must be a string' }],
    };
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return answer(res, 400, body, { 'X-Request-Id': 'req-1' });
      if (n === 1) return answer(res, 418, errorJson(418, 'teapot_today'));
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/v1`, apiKey: 'k' });
    const error = await client.pets.create({ name: 'R', categoryId: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(AnimalStoreError);
    expect(error).toMatchObject({
      name: 'AnimalStoreError',
      code: 'validation_failed',
      status: 400,
      message: 'bad',
      details: body.details,
      requestId: 'req-1',
    });
    await expect(client.pets.create({ name: 'R', categoryId: 1 })).rejects.toMatchObject({
      code: 'teapot_today',
      status: 418,
      details: [],
    });
    await expect(client.pets.create({ name: 'R', categoryId: 1 })).rejects.toMatchObject({
      code: 'unexpected_response',
      status: 502,
    });
  });

  it('reads getPet’s deprecation headers as dates, and a 410 as GoneError', async () => {
    const deprecation = {
      Deprecation: '@1767225600',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version"',
    };
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return answer(res, 200, pet(7), deprecation);
      answer(res, 410, errorJson(410, 'gone'), deprecation);
    });
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/v1`, apiKey: 'k' });
    const fetched = await client.pets.get(7);
    expect(fetched).toMatchObject({
      pet: pet(7),
      deprecatedAt: new Date('2026-01-01T00:00:00Z'),
      sunsetAt: new Date('2030-12-05T00:00:00Z'),
      successor: `${server.origin}/v1/pets`,
    });
    const gone = await client.pets.get(7).catch((e) => e);
    expect(gone).toBeInstanceOf(GoneError);
    expect(gone).toBeInstanceOf(AnimalStoreError);
    expect(gone).toMatchObject({ status: 410, code: 'gone', sunsetAt: fetched.sunsetAt });
  });

  it('names the contract’s sunset date in pets.get’s @deprecated tag', () => {
    const source = readFileSync(new URL('../src/client.ts', import.meta.url), 'utf8');
    const day = GET_PET_SUNSET_AT.toISOString().slice(0, 10);
    expect(source).toMatch(new RegExp(`@deprecated Removed on ${day}`));
  });
});
