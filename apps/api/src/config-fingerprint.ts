import { createHash } from 'node:crypto';
import { Gauge, type Registry } from 'prom-client';
import type { Config } from './config.js';
import { parseApiKeys } from './keys/api-key.js';

// OpenTelemetry variables that may hold a credential (an exporter's headers, TLS keys): only
// whether they are set counts.
const SECRET_OTEL = /HEADERS|KEY|CERTIFICATE/;

/**
 * A short hash of the settings a process runs with, so that processes meant to be alike show
 * when they are not (`animal_store_config_info`, the `listening` log line). It covers every
 * setting of `Config` and the `OTEL_*` variables. No secret goes in as it is: API keys as the
 * SHA-256 digests the process compares with (a different key file changes the fingerprint),
 * `MONGODB_URI` without its user and password, `METRICS_TOKEN` and credential-bearing
 * `OTEL_*` variables only as set or not.
 */
export function configFingerprint(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  const { apiKeys, mongodbUri, metricsToken, ...settings } = config;
  const otel = Object.keys(env)
    .filter((name) => name.startsWith('OTEL_'))
    .sort()
    .map((name) => [name, SECRET_OTEL.test(name) ? 'set' : env[name]]);
  const effective = {
    ...settings,
    apiKeys: parseApiKeys(apiKeys).sort(),
    mongodbUri: mongodbUri?.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1'),
    metricsToken: metricsToken !== undefined,
    otel,
  };
  return createHash('sha256').update(canonicalJson(effective)).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted, so the same settings always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The gauge `animal_store_config_info` (always 1), labelled with the configuration's fingerprint. */
export function registerConfigInfo(registry: Registry, fingerprint: string): void {
  new Gauge({
    name: 'animal_store_config_info',
    help: 'The fingerprint of the settings this process runs with (always 1): processes meant to be alike show the same',
    labelNames: ['fingerprint'],
    registers: [registry],
  }).set({ fingerprint }, 1);
}
