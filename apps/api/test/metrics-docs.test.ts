import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerConfigInfo } from '../src/config-fingerprint.js';
import { MongoPoolMetrics } from '../src/metrics/mongo-pool-metrics.js';
import { startTestApi } from './helpers/api.js';
import { scrape } from './helpers/scrape.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** The metric names a scrape declares (`# TYPE name …`). */
const declared = (text: string) => [...text.matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]);

describe("the README's metrics table", () => {
  it('lists every metric the API serves, and only those', async () => {
    const api = await startTestApi({ rateLimit: { requests: 100, windowSeconds: 60 } });
    // The pool's metrics join the registry with MongoDB only; the configuration's fingerprint
    // in the process (main.ts), which knows the whole configuration.
    const pool = new Registry();
    new MongoPoolMetrics(pool);
    registerConfigInfo(pool, '0123456789abcdef');
    const served = [...declared(await scrape(api.origin)), ...declared(await pool.metrics())]
      // prom-client's default process metrics: one row, `process_*`, `nodejs_*`.
      .filter((name) => !/^(process|nodejs)_/.test(name as string));
    const readme = await readFile(README, 'utf8');
    const start = readme.indexOf('\n## Metrics');
    const table = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const documented = [...table.matchAll(/^\| `([a-z_]+)`/gm)].map((m) => m[1]);
    expect(served.length).toBeGreaterThan(0);
    expect([...new Set(documented)].sort()).toEqual([...new Set(served)].sort());
  });
});
