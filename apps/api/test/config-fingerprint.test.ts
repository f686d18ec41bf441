import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { configFingerprint } from '../src/config-fingerprint.js';
import { digestKey } from '../src/keys/api-key.js';
import { GENEROUS_STORE_TIMEOUT, startApiProcess } from './helpers/processes.js';
import { sample } from './helpers/scrape.js';

const KEY = 'fingerprint-key-0123456789';
const PASSWORD = 'pa55w0rd-of-the-db';
const TOKEN = 'metrics-token-0123456789';
const base = {
  API_KEYS: KEY,
  MONGODB_URI: `mongodb://api:${PASSWORD}@db1,db2/?replicaSet=rs0`,
  METRICS_TOKEN: TOKEN,
  OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer otel-secret',
};
const fingerprint = (env: NodeJS.ProcessEnv) => configFingerprint(loadConfig(env), env);

describe('the configuration fingerprint', () => {
  it('is the same for the same settings, whichever way they are written', () => {
    expect(fingerprint(base)).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint({ ...base })).toBe(fingerprint(base));
    // The same key, given as its digest, and the keys in another order.
    expect(fingerprint({ ...base, API_KEYS: `sha256:${digestKey(KEY)}` })).toBe(fingerprint(base));
    expect(fingerprint({ ...base, API_KEYS: `other-key-0123456789,${KEY}` })).toBe(
      fingerprint({ ...base, API_KEYS: `${KEY},other-key-0123456789` }),
    );
  });

  it('differs when a setting, a key or the database differs', () => {
    const reference = fingerprint(base);
    for (const changed of [
      { API_KEYS: 'a-wrong-key-file-0123456789' },
      { RATE_LIMIT_REQUESTS: '100' },
      { STORE_TIMEOUT_MS: '2000' },
      { MONGODB_URI: `mongodb://api:${PASSWORD}@db3/?replicaSet=rs0` },
      { METRICS_TOKEN: undefined },
      { OTEL_TRACES_SAMPLER: 'always_off' },
    ]) {
      expect(fingerprint({ ...base, ...changed }), JSON.stringify(changed)).not.toBe(reference);
    }
  });

  it('holds no secret: a password, token or exporter header changes nothing', () => {
    const reference = fingerprint(base);
    expect(fingerprint({ ...base, MONGODB_URI: base.MONGODB_URI.replace(PASSWORD, 'x') })).toBe(
      reference,
    );
    expect(fingerprint({ ...base, METRICS_TOKEN: 'another-token-0123456789' })).toBe(reference);
    expect(fingerprint({ ...base, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=x' })).toBe(reference);
  });

  it('is served as animal_store_config_info and logged when the process listens', async () => {
    const env = { API_KEYS: KEY, RATE_LIMIT_REQUESTS: '123' };
    const api = await startApiProcess(env);
    const metrics = await (await fetch(`${new URL(api.base).origin}/metrics`)).text();
    // What the process sees (startApiProcess adds these).
    const seen = { PORT: '0', HOST: '127.0.0.1', ...GENEROUS_STORE_TIMEOUT, ...env };
    const expected = configFingerprint(loadConfig(seen), seen);
    expect(sample(metrics, 'animal_store_config_info', { fingerprint: expected })).toBe(1);
    const listening = api
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"msg":"listening"'))
      .map((line) => JSON.parse(line) as { config?: string });
    expect(listening).toEqual([expect.objectContaining({ config: expected })]);
  });
});
