import { openApiDocument } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';
import { errorBody, startTestApi } from '../helpers/api.js';

const api = await startTestApi();

describe('public endpoints', () => {
  it('serves the contract OpenAPI document without a key', async () => {
    const res = await fetch(`${api.base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  });

  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${api.origin}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${api.origin}/readyz`)).status).toBe(200);
  });

  it('fails /readyz with 503 while the store is down, /healthz stays up', async () => {
    const store = Object.assign(new MemoryPetStore(), {
      ping: async () => {
        throw new StoreUnavailableError();
      },
    });
    const down = await startTestApi({ store });
    const res = await fetch(`${down.origin}/readyz`);
    expect(res.status).toBe(503);
    expect((await errorBody(res)).code).toBe('service_unavailable');
    expect((await fetch(`${down.origin}/healthz`)).status).toBe(200);
  });
});
