import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

/** The secrets' folder, removed after the file's tests. */
const secrets = new TemporaryFolder('animal-store-secret-');
afterAll(() => secrets.remove());

/** A file holding `content`, as a mounted secret would be. */
function secretFile(content: string): string {
  const path = join(mkdtempSync(join(secrets.path, 'secret-')), 'value');
  writeFileSync(path, content);
  return path;
}

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
    [{ MAX_HEADER_BYTES: '512' }, /MAX_HEADER_BYTES must be an integer from 1024/],
    [{ MAX_URL_BYTES: '16384' }, /MAX_URL_BYTES \(16384\) must be less than MAX_HEADER_BYTES/],
    [{ HEADERS_TIMEOUT_MS: '10s' }, /HEADERS_TIMEOUT_MS must be an integer/],
    [
      { HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '30000' },
      /HEADERS_TIMEOUT_MS \(60000\) must not exceed REQUEST_TIMEOUT_MS \(30000\)/,
    ],
    [{ REQUEST_TIMEOUT_MS: '0' }, /REQUEST_TIMEOUT_MS must be an integer from 1000/],
    [{ BODY_TIMEOUT_MS: '-1' }, /BODY_TIMEOUT_MS/],
    [{ KEEP_ALIVE_TIMEOUT_MS: '0' }, /KEEP_ALIVE_TIMEOUT_MS/],
    [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS must be an integer from 1/],
    [{ RATE_LIMIT_REQUESTS: '-5' }, /RATE_LIMIT_REQUESTS must be an integer from 0/],
    [{ RATE_LIMIT_REQUESTS: '1.5' }, /RATE_LIMIT_REQUESTS must be an integer/],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, /RATE_LIMIT_WINDOW_SECONDS must be an integer from 1/],
    [{ STORE_TIMEOUT_MS: '50' }, /STORE_TIMEOUT_MS must be an integer from 100/],
    [{ STORE_MAX_IN_FLIGHT: '0' }, /STORE_MAX_IN_FLIGHT must be an integer from 1/],
  ])('rejects %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('bounds store calls to 5 s and 256 waiting at once unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ storeTimeoutMs: 5_000, storeMaxInFlight: 256 });
    expect(loadConfig({ STORE_TIMEOUT_MS: '1500', STORE_MAX_IN_FLIGHT: '32' })).toMatchObject({
      storeTimeoutMs: 1_500,
      storeMaxInFlight: 32,
    });
  });

  it('caches API key lookups 5 s unless API_KEY_CACHE_MS says otherwise', () => {
    expect(loadConfig({}).apiKeyCacheMs).toBe(5_000);
    expect(loadConfig({ API_KEY_CACHE_MS: '0' }).apiKeyCacheMs).toBe(0);
  });

  it('limits each key to 6000 requests a minute by default', () => {
    expect(loadConfig({}).rateLimit).toEqual({ requests: 6000, windowSeconds: 60 });
  });

  it('reads the rate limit, and RATE_LIMIT_REQUESTS=0 turns it off', () => {
    expect(
      loadConfig({ RATE_LIMIT_REQUESTS: '100', RATE_LIMIT_WINDOW_SECONDS: '10' }).rateLimit,
    ).toEqual({ requests: 100, windowSeconds: 10 });
    expect(loadConfig({ RATE_LIMIT_REQUESTS: '0' }).rateLimit).toBeUndefined();
  });

  it('defaults every protocol limit', () => {
    expect(loadConfig({})).toMatchObject({
      maxUrlBytes: 8192,
      bodyTimeoutMs: 10_000,
      serverLimits: {
        maxHeaderBytes: 16_384,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 1024,
      },
    });
  });

  it('reads every protocol limit from the environment', () => {
    const config = loadConfig({
      MAX_URL_BYTES: '4096',
      BODY_TIMEOUT_MS: '2000',
      MAX_HEADER_BYTES: '32768',
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
      MAX_CONNECTIONS: '10000',
    });
    expect(config).toMatchObject({
      maxUrlBytes: 4096,
      bodyTimeoutMs: 2000,
      serverLimits: {
        maxHeaderBytes: 32_768,
        headersTimeoutMs: 5000,
        requestTimeoutMs: 20_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 10_000,
      },
    });
  });

  it('leaves /metrics open by default and reads METRICS_TOKEN', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token' }).metricsToken).toBe(
      'a-long-enough-token',
    );
  });

  it.each([
    'short',
    'has spaces in it, a lot',
    'ünïcödé-ünïcödé-ünïcödé',
  ])('refuses the METRICS_TOKEN %j without echoing it', (token) => {
    expect(() => loadConfig({ METRICS_TOKEN: token })).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/^METRICS_TOKEN must be at least 16 characters/),
      }),
    );
    expect(() => loadConfig({ METRICS_TOKEN: token })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(token) }),
    );
  });

  it('never echoes a MONGODB_URI, which may hold a password', () => {
    expect(() => loadConfig({ MONGODB_URI: 'postgres://user:hunter2@host' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('reads API_KEYS, MONGODB_URI and METRICS_TOKEN from the files their _FILE variables name', () => {
    const config = loadConfig({
      API_KEYS_FILE: secretFile('key-from-a-file\n'),
      MONGODB_URI_FILE: secretFile('mongodb://u:p@db/?replicaSet=rs0\n'),
      METRICS_TOKEN_FILE: secretFile('a-long-enough-token'),
    });
    expect(config.apiKeys).toBe('key-from-a-file');
    expect(config.mongodbUri).toBe('mongodb://u:p@db/?replicaSet=rs0');
    expect(config.metricsToken).toBe('a-long-enough-token');
  });

  it('refuses a variable set both directly and through its file, and a file it cannot read', () => {
    expect(() =>
      loadConfig({ API_KEYS: 'k', API_KEYS_FILE: secretFile('hunter2-secret') }),
    ).toThrow(/^set API_KEYS or API_KEYS_FILE, not both$/);
    expect(() => loadConfig({ METRICS_TOKEN_FILE: '/nonexistent/token' })).toThrow(
      /^METRICS_TOKEN_FILE cannot be read: ENOENT/,
    );
    // What a file holds is checked like the variable, and never echoed.
    expect(() => loadConfig({ MONGODB_URI_FILE: secretFile('mysql://root:hunter2@db') })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('drains for DRAIN_DELAY_MS, none by default', () => {
    expect(loadConfig({}).drainDelayMs).toBe(0);
    expect(loadConfig({ DRAIN_DELAY_MS: '5000' }).drainDelayMs).toBe(5000);
  });

  it('refuses a weakened MongoDB unless MONGODB_ALLOW_WEAK_CONSISTENCY=true', () => {
    expect(loadConfig({}).mongodbAllowWeakConsistency).toBe(false);
    expect(loadConfig({ MONGODB_ALLOW_WEAK_CONSISTENCY: 'true' }).mongodbAllowWeakConsistency).toBe(
      true,
    );
    expect(() => loadConfig({ MONGODB_ALLOW_WEAK_CONSISTENCY: 'yes' })).toThrow(
      /^MONGODB_ALLOW_WEAK_CONSISTENCY must be true or false/,
    );
  });
});
