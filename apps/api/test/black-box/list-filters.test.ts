import { formatListPetsQuery } from '@animal-store/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth, createPet, type PetBody, read, startTestApi } from '../helpers/api.js';
import { filterMatrix, filterQueries, matches } from '../store/pet-examples.js';

// Every filter of the contract's list query, through the API: the store filters, the route
// pages, the next link keeps the query. A filter applied after the store answered shows here as
// a short or empty page that still has a next link.

const api = await startTestApi();
const pets: PetBody[] = [];

beforeAll(async () => {
  for (const draft of filterMatrix()) pets.push(await createPet(api, { ...draft }));
});

function nextUrl(res: Response): string | undefined {
  const link = res.headers.get('link');
  const match = link && /<([^>]+)>;\s*rel="next"/.exec(link);
  return match ? `${api.origin}${match[1]}` : undefined;
}

describe('GET /v1/pets with each filter of the list query', () => {
  it.each(filterQueries())('gives full pages of $name until the last', async ({ query }) => {
    const limit = 2;
    const expected = pets.filter((pet) => matches(pet, query));
    expect(expected.length).toBeGreaterThan(limit);
    const pages: PetBody[][] = [];
    let url: string | undefined = `${api.base}/pets?${formatListPetsQuery({ ...query, limit })}`;
    while (url !== undefined) {
      const res = await fetch(url, { headers: auth });
      expect(res.status).toBe(200);
      pages.push(await read<PetBody[]>(res));
      url = nextUrl(res);
      expect(pages.length).toBeLessThanOrEqual(expected.length);
    }
    const sizes = pages.map((page) => page.length);
    const full = Array.from({ length: Math.ceil(expected.length / limit) }, (_, i) =>
      Math.min(limit, expected.length - i * limit),
    );
    expect(sizes).toEqual(full);
    expect(pages.flat()).toEqual(expected);
  });
});
