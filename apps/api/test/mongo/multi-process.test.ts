import { uniqueDbName } from '@animal-store/test-db';
import { describe, expect, inject, it } from 'vitest';
import { listAllPets, type PetBody, read } from '../helpers/api.js';
import { startApiProcess } from '../helpers/processes.js';

const KEY = 'multi-process-key';

describe('two API processes on one database', () => {
  it('take hundreds of concurrent creates: ids unique, every pet listed, nothing lost', async () => {
    const env = {
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB: uniqueDbName(),
      LOG_LEVEL: 'info',
      API_KEYS: KEY,
    };
    const apis = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    const bases = apis.map((api) => api.base);
    const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const created = await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        const res = await fetch(`${bases[i % 2]}/pets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `mp-${i}`, categoryId: i + 1 }),
        });
        const errors = () =>
          apis
            .map((api) => api.output())
            .join('')
            .split('\n')
            .filter((l) => l.includes('"level":50'));
        expect(res.status, `${await res.clone().text()} ${errors().join('\n')}`).toBe(201);
        return read(res);
      }),
    );
    expect(new Set(created.map((p) => p.id)).size).toBe(400);

    // Read back through the other process than the one that created each pet.
    const listed = await listAllPets(bases[1] as string, headers);
    const byId = (a: PetBody, b: PetBody) => a.id - b.id;
    expect(listed.sort(byId)).toEqual([...created].sort(byId));
  });
});
