import { validatePetList } from '@animal-store/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth, createPet, errorBody, type PetBody, read, startTestApi } from '../helpers/api.js';

const api = await startTestApi();
const statuses = ['available', 'pending', 'sold'] as const;

beforeAll(async () => {
  for (let i = 0; i < 150; i++) {
    await createPet(api, { name: `pet-${i}`, categoryId: (i % 5) + 1, status: statuses[i % 3] });
  }
});

const list = (query = '') => fetch(`${api.base}/pets${query}`, { headers: auth });

function nextUrl(res: Response): string | undefined {
  const link = res.headers.get('link');
  const match = link && /<([^>]+)>;\s*rel="next"/.exec(link);
  return match ? `${api.origin}${match[1]}` : undefined;
}

describe('GET /v1/pets', () => {
  it('returns 20 valid pets by default, ascending by id', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const pets = await read<PetBody[]>(res);
    expect(validatePetList(pets).ok).toBe(true);
    expect(pets).toHaveLength(20);
    const ids = pets.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it.each([1, 7, 100])('honours limit=%i', async (limit) => {
    const pets = await read<PetBody[]>(list(`?limit=${limit}`));
    expect(pets).toHaveLength(limit);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['limit=5&limit=6', 'limit'],
    ['status=lost', 'status'],
    ['status=Sold', 'status'],
    ['after=-1', 'after'],
  ])('rejects %s with 400 naming %s', async (query, param) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.code).toBe('validation_failed');
    expect(body.message).toContain(param);
    expect(body.details?.[0]?.path).toBe(param);
  });

  it.each(statuses)('returns only %s pets under that filter', async (status) => {
    const pets = await read<PetBody[]>(list(`?status=${status}&limit=100`));
    expect(pets).toHaveLength(50);
    expect(pets.every((p) => p.status === status)).toBe(true);
  });

  it('pages through every pet with Link rel=next, none skipped or repeated', async () => {
    const seen: number[] = [];
    let url: string | undefined = `${api.base}/pets?limit=7`;
    let pages = 0;
    while (url) {
      const res = await fetch(url, { headers: auth });
      expect(res.status).toBe(200);
      seen.push(...(await read<PetBody[]>(res)).map((p) => p.id));
      url = nextUrl(res);
      pages++;
    }
    expect(pages).toBe(Math.ceil(150 / 7));
    expect(seen).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });

  it('keeps the status filter in the next link', async () => {
    const res = await list('?status=sold&limit=30');
    const next = nextUrl(res);
    expect(next).toContain('status=sold');
    const second = await read<PetBody[]>(fetch(next as string, { headers: auth }));
    expect(second).toHaveLength(20);
    expect(second.every((p) => p.status === 'sold')).toBe(true);
  });

  it('sends no next link on the last page', async () => {
    const res = await list('?after=140&limit=10');
    expect((await read<PetBody[]>(res)).map((p) => p.id)).toEqual([
      141, 142, 143, 144, 145, 146, 147, 148, 149, 150,
    ]);
    expect(res.headers.get('link')).toBeNull();
    expect(res.headers.get('next-after')).toBeNull();
  });

  it('sends the next page’s after in Next-After, the same as the next link’s', async () => {
    const res = await list('?status=pending&limit=4');
    const pets = await read<PetBody[]>(res);
    const after = res.headers.get('next-after');
    expect(after).toBe(String(pets.at(-1)?.id));
    expect(new URL(nextUrl(res) as string).searchParams.get('after')).toBe(after);
  });

  it('returns an empty array past the end', async () => {
    const res = await list('?after=150');
    expect(await res.json()).toEqual([]);
  });

  it('ignores unknown query parameters', async () => {
    expect((await list('?limit=2&cachebust=1')).status).toBe(200);
  });
});
