import { MongoClient } from 'mongodb';
import { Registry } from 'prom-client';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { MongoPoolMetrics } from '../../src/metrics/mongo-pool-metrics.js';
import { startApiProcess } from '../helpers/processes.js';
import { sample, scrape } from '../helpers/scrape.js';
import { openMongoTestStore } from '../helpers/store.js';

const uri = inject('mongoUri');

describe('the MongoDB driver pool metrics', () => {
  it('follow the real driver: connections open, none in use or waiting once answered', async () => {
    const registry = new Registry();
    const pool = new MongoPoolMetrics(registry);
    const store = await openMongoTestStore(uri, {
      beforeConnect: (client) => pool.observe(client),
    });
    onTestFinished(() => store.close());
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.create({ name: `pool-${i}`, categoryId: 1, status: 'available' }),
      ),
    );
    const text = await registry.metrics();
    expect(sample(text, 'mongodb_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mongodb_pool_connections_in_use')).toBe(0);
    expect(sample(text, 'mongodb_pool_checkouts_waiting')).toBe(0);
    expect(sample(text, 'mongodb_pool_checkout_duration_seconds_count')).toBeGreaterThanOrEqual(10);
  });

  it('are served by an API process started on MongoDB', async () => {
    const db = `pool_metrics_${process.pid}`;
    onTestFinished(async () => {
      const client = new MongoClient(uri);
      await client.db(db).dropDatabase();
      await client.close();
    });
    const api = await startApiProcess({ MONGODB_URI: uri, MONGODB_DB: db, API_KEYS: 'pool-key' });
    const answer = await fetch(`${api.base}/pets`, {
      headers: { Authorization: 'Bearer pool-key' },
    });
    expect(answer.status).toBe(200);
    const text = await scrape(new URL(api.base).origin);
    expect(sample(text, 'mongodb_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mongodb_pool_checkout_duration_seconds_count')).toBeGreaterThanOrEqual(1);
  });
});
