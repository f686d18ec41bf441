import { GET_PET_DEPRECATION_HEADERS, GET_PET_SUNSET_AT } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { auth, createPet, errorBody, startTestApi } from '../helpers/api.js';

const api = await startTestApi();
const pet = await createPet(api, { name: 'Nemo', categoryId: 9, status: 'sold' });
const get = (id: string | number, headers: Record<string, string> = auth) =>
  fetch(`${api.base}/pets/${id}`, { headers });

function expectDeprecationHeaders(res: Response) {
  expect(res.headers.get('deprecation')).toBe(GET_PET_DEPRECATION_HEADERS.Deprecation);
  expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(res.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
}

describe('GET /v1/pets/{petId}', () => {
  it('returns the pet with its deprecation headers', async () => {
    const res = await get(pet.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(pet);
    expectDeprecationHeaders(res);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const full = await get(pet.id);
    const res = await fetch(`${api.base}/pets/${pet.id}`, { method: 'HEAD', headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(full.headers.get('content-length'));
    expectDeprecationHeaders(res);
    expect(await res.text()).toBe('');
  });

  it('answers 404 for an absent id, still deprecated', async () => {
    const res = await get(999_999);
    expect(res.status).toBe(404);
    expect((await errorBody(res)).code).toBe('not_found');
    expectDeprecationHeaders(res);
  });

  it('carries the deprecation headers on a 401 too', async () => {
    const res = await get(pet.id, {});
    expect(res.status).toBe(401);
    expectDeprecationHeaders(res);
  });

  it.each([
    '0',
    '-1',
    'abc',
    '1.5',
    '9007199254740992',
    '1e3',
  ])('answers 400 for petId %j', async (id) => {
    const res = await get(id);
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.code).toBe('validation_failed');
    expect(body.details?.[0]?.path).toBe('petId');
  });

  it('sends no deprecation headers on the routes that are not deprecated', async () => {
    const res = await fetch(`${api.base}/pets`, { headers: auth });
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
  });

  it('answers 410 gone from the sunset instant on, and 200 just before', async () => {
    api.setNow(new Date(GET_PET_SUNSET_AT.getTime() - 1));
    expect((await get(pet.id)).status).toBe(200);
    api.setNow(GET_PET_SUNSET_AT);
    const res = await get(pet.id);
    expect(res.status).toBe(410);
    expect((await errorBody(res)).code).toBe('gone');
    expectDeprecationHeaders(res);
    api.setNow(new Date('2031-01-01T00:00:00Z'));
    expect((await get(pet.id)).status).toBe(410);
  });
});
