import { EventEmitter } from 'node:events';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MongoPoolMetrics, type PoolEvents } from '../src/metrics/mongo-pool-metrics.js';
import { sample } from './helpers/scrape.js';

describe('MongoPoolMetrics', () => {
  it('keeps the pool gauges and checkout waits from the driver CMAP events', async () => {
    const registry = new Registry();
    const driver = new EventEmitter();
    new MongoPoolMetrics(registry).observe(driver as unknown as PoolEvents);
    for (let i = 0; i < 3; i++) driver.emit('connectionCreated', {});
    driver.emit('connectionClosed', {});
    for (let i = 0; i < 4; i++) driver.emit('connectionCheckOutStarted', {});
    driver.emit('connectionCheckedOut', { durationMS: 0.2 });
    driver.emit('connectionCheckedOut', { durationMS: 700 });
    driver.emit('connectionCheckOutFailed', { reason: 'timeout', durationMS: 1000 });
    driver.emit('connectionCheckedIn', {});
    driver.emit('connectionPoolCleared', {});
    const text = await registry.metrics();
    expect(sample(text, 'mongodb_pool_connections')).toBe(2);
    expect(sample(text, 'mongodb_pool_connections_in_use')).toBe(1);
    expect(sample(text, 'mongodb_pool_checkouts_waiting')).toBe(1);
    expect(sample(text, 'mongodb_pool_checkout_duration_seconds_count')).toBe(3);
    expect(sample(text, 'mongodb_pool_checkout_duration_seconds_bucket', { le: '0.5' })).toBe(1);
    expect(sample(text, 'mongodb_pool_checkout_failures_total', { reason: 'timeout' })).toBe(1);
    expect(
      sample(text, 'mongodb_pool_checkout_failures_total', { reason: 'connectionError' }),
    ).toBe(0);
    expect(sample(text, 'mongodb_pool_cleared_total')).toBe(1);
  });
});
