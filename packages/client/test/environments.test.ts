import { OPENAPI_SERVERS } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { AnimalStoreClient, ENVIRONMENTS } from '../src/index.js';

describe('baseUrl', () => {
  it('takes an environment’s name or an address, without a trailing slash', () => {
    expect(new AnimalStoreClient({ baseUrl: 'staging', apiKey: 'k' }).baseUrl).toBe(
      ENVIRONMENTS.staging,
    );
    expect(
      new AnimalStoreClient({ baseUrl: 'http://127.0.0.1:8080/v1/', apiKey: 'k' }).baseUrl,
    ).toBe('http://127.0.0.1:8080/v1');
    expect(() => new AnimalStoreClient({ baseUrl: 'ftp://x/v1', apiKey: 'k' })).toThrow(TypeError);
    expect(() => new AnimalStoreClient({ baseUrl: 'toString', apiKey: 'k' })).toThrow();
  });

  it('ends every environment’s address with /v1', () => {
    for (const url of Object.values(ENVIRONMENTS)) expect(url).toMatch(/^https?:\/\/[^/]+\/v1$/);
  });

  it('are the OpenAPI document’s servers, each variable at its default', () => {
    const defaults = OPENAPI_SERVERS.map((server) =>
      server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables[name]?.default ?? ''),
    );
    expect(Object.values(ENVIRONMENTS)).toEqual(defaults);
  });
});
