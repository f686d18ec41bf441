import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { startApiProcess } from '../helpers/processes.js';

const KEY = 'tracing-key-0123456789';
const uri = inject('mongoUri');

describe('OpenTelemetry tracing on MongoDB', () => {
  it("puts the driver's own spans under the store call's", async () => {
    const db = `tracing_${process.pid}`;
    onTestFinished(async () => {
      const client = new MongoClient(uri);
      await client.db(db).dropDatabase();
      await client.close();
    });
    const receiver = await startOtlpReceiver();
    const api = await startApiProcess({
      API_KEYS: KEY,
      MONGODB_URI: uri,
      MONGODB_DB: db,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    const traceId = randomBytes(16).toString('hex');
    const answer = await fetch(`${api.base}/pets?limit=5`, {
      headers: {
        Authorization: `Bearer ${KEY}`,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
    });
    expect(answer.status).toBe(200);
    const ofTrace = (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
    const list = (spans: ReceivedSpan[]) => ofTrace(spans).find((s) => s.name === 'pet_store list');
    const find = (spans: ReceivedSpan[]) =>
      ofTrace(spans).find((s) => s.parentSpanId === list(spans)?.spanId);
    const spans = await receiver.until((all) => find(all) !== undefined);
    // The driver's span of the query (values replaced by "?"), named by operation and collection.
    expect(find(spans)).toMatchObject({
      name: 'find pets',
      attributes: { 'db.system.name': 'mongodb', 'db.operation.name': 'find' },
    });
  });
});
