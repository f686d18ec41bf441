import { describe, expect, it } from 'vitest';
import { auth, json, startTestApi } from './helpers/api.js';

const api = await startTestApi();

describe('a path spelled other than as the API writes it', () => {
  it.each([
    '/METRICS',
    '/Metrics',
    '/metrics/',
    '/HEALTHZ',
    '/healthz/',
    '/V1/pets',
    '/v1/PETS',
    '/v1/pets/',
    '/v1/openapi.json/',
  ])('%s is 404 not_found, like any unknown path', async (path) => {
    const res = await fetch(`${api.origin}${path}`, { headers: auth });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });

  it('as written, is served', async () => {
    const answers = await Promise.all(
      ['/metrics', '/healthz', '/v1/pets', '/v1/openapi.json'].map((path) =>
        fetch(`${api.origin}${path}`, { headers: auth }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
  });
});

describe('a pet id written another way', () => {
  it.each(['01', '%31', '0001'])('%s names the same pet, as the same number', async (id) => {
    const created = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'One', categoryId: 1 }),
    });
    const pet = (await created.json()) as { id: number };
    const raw = id.replace('1', String(pet.id));
    const res = await fetch(`${api.base}/pets/${raw}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: number }).id).toBe(pet.id);
  });
});
