import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('defaults to 127.0.0.1:3000 and the in-memory store', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      mongodbUri: undefined,
      logLevel: 'info',
    });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer from 0 to 65535/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ MONGODB_URI: 'http://x' }, /MONGODB_URI must start with mongodb/],
    [{ MONGODB_DB: 'a b' }, /MONGODB_DB must be/],
    [{ BODY_LIMIT_BYTES: '0' }, /BODY_LIMIT_BYTES/],
    [{ API_KEY_CACHE_MS: '-1' }, /API_KEY_CACHE_MS must be an integer from 0 to 600000/],
  ])('rejects %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('caches API key lookups 5 s unless API_KEY_CACHE_MS says otherwise', () => {
    expect(loadConfig({}).apiKeyCacheMs).toBe(5_000);
    expect(loadConfig({ API_KEY_CACHE_MS: '0' }).apiKeyCacheMs).toBe(0);
  });

  it('never echoes a MONGODB_URI, which may hold a password', () => {
    expect(() => loadConfig({ MONGODB_URI: 'postgres://user:hunter2@host' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
