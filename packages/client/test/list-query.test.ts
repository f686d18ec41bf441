import { LIST_PETS_PARAMS, ListPetsQuery } from '@animal-store/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { AnimalStoreClient, type ListOptions } from '../src/index.js';
import { answer, scriptedServer } from './support/scripted-server.js';

const pet = (id: number) => ({ id, name: `P${id}`, categoryId: 3, status: 'pending' });

describe('the listing query comes from the contract', () => {
  // A parameter added to the contract's list query, here in the test, as a new version would.
  const properties = ListPetsQuery.properties as Record<string, unknown>;
  properties.categoryId = { type: 'integer', minimum: 1 };
  (LIST_PETS_PARAMS as string[]).push('categoryId');
  afterAll(() => {
    delete properties.categoryId;
    (LIST_PETS_PARAMS as string[]).pop();
  });

  it('sends a parameter the contract adds and keeps it on page 2, typed as the contract says', async () => {
    const server = await scriptedServer((_n, req, res) => {
      const query = new URL(req.url, 'http://x').searchParams;
      const after = Number(query.get('after') ?? 0);
      const next = `</v1/pets?limit=2&categoryId=${query.get('categoryId')}&after=${after + 2}>; rel="next"`;
      answer(res, 200, [pet(after + 1), pet(after + 2)], after === 0 ? { Link: next } : {});
    });
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/v1`, apiKey: 'k' });
    const query = { limit: 2, categoryId: 3 } as ListOptions;
    const first = await client.pets.listPage(query);
    expect(first.next).toEqual({ limit: 2, categoryId: 3, after: 2 });
    const ids: number[] = [];
    for await (const p of client.pets.list(query)) ids.push(p.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    const sent = server.received.map((r) => new URL(r.url, 'http://x').searchParams);
    expect(sent.map((params) => params.get('categoryId'))).toEqual(['3', '3', '3']);
    expect(sent.at(-1)?.get('after')).toBe('2');
  });

  it('types ListOptions from the contract’s ListPetsQuery', () => {
    const options: ListOptions = { limit: 5, status: 'sold', after: 9 };
    // @ts-expect-error: not a status the contract knows
    const wrong: ListOptions = { status: 'lost' };
    expect([options, wrong]).toHaveLength(2);
  });
});
