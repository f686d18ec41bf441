import { openApiDocument, openApiDocument30 } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';
import { auth, json, startTestApi } from '../helpers/api.js';

const api = await startTestApi();

describe('public endpoints', () => {
  it('serves the contract OpenAPI document without a key', async () => {
    const res = await fetch(`${api.base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  });

  it('serves the document’s OpenAPI 3.0 rendering beside it, without a key', async () => {
    const res = await fetch(`${api.base}/openapi-3.0.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const served = (await res.json()) as { openapi: string };
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument30)));
    expect(served.openapi).toBe('3.0.3');
  });

  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${api.origin}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${api.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'up' });
  });

  it('stays ready while the database is down, saying so in /readyz and the metric', async () => {
    let up = false;
    const store = Object.assign(new MemoryPetStore(), {
      ping: async () => {
        if (!up) throw new StoreUnavailableError();
      },
    });
    const down = await startTestApi({ store });
    const res = await fetch(`${down.origin}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', database: 'down' });
    expect(await (await fetch(`${down.origin}/metrics`)).text()).toMatch(
      /^animal_store_database_up 0$/m,
    );
    expect((await fetch(`${down.origin}/healthz`)).status).toBe(200);
    up = true;
    await down.running.readiness.check();
    expect(await (await fetch(`${down.origin}/readyz`)).json()).toEqual({
      status: 'ready',
      database: 'up',
    });
    expect(await (await fetch(`${down.origin}/metrics`)).text()).toMatch(
      /^animal_store_database_up 1$/m,
    );
  });

  it('answers /readyz 503 draining once draining, and still serves every request', async () => {
    const draining = await startTestApi();
    draining.running.drain();
    const res = await fetch(`${draining.origin}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'draining', database: 'up' });
    const created = await fetch(`${draining.base}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Late', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('connection')).toBe('close');
    expect((await fetch(`${draining.base}/pets`, { headers: auth })).status).toBe(200);
  });
});
