import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { startApiProcess } from '../helpers/processes.js';

const KEY = 'tracing-key-0123456789';
const uri = inject('mongoUri');

/** The API on MongoDB (a database of the test's own, dropped after it), traced to a receiver. */
async function tracedApi(db: string) {
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
  return { receiver, api };
}

const traceparent = (traceId: string, flags: string) =>
  `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}`;

describe('OpenTelemetry tracing on MongoDB', () => {
  it("puts the driver's own spans under the store call's", async () => {
    const { receiver, api } = await tracedApi(`tracing_${process.pid}`);
    const traceId = randomBytes(16).toString('hex');
    const answer = await fetch(`${api.base}/pets?limit=5`, {
      headers: {
        Authorization: `Bearer ${KEY}`,
        traceparent: traceparent(traceId, '01'),
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

  it('makes no driver span for a request the sampler leaves out', async () => {
    const { receiver, api } = await tracedApi(`tracing_unsampled_${process.pid}`);
    const [skipped, sampled] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    // The caller decided not to sample (flags 00): its store calls run under no span at all,
    // and the driver's instrumentation, which needs a parent span, makes none of its own.
    for (const [traceId, flags] of [
      [skipped, '00'],
      [sampled, '01'],
    ] as const) {
      const answer = await fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${KEY}`,
          'Content-Type': 'application/json',
          traceparent: traceparent(traceId, flags),
        },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(answer.status).toBe(201);
    }
    const server = (spans: ReceivedSpan[]) =>
      spans.find((s) => s.traceId === sampled && s.name === 'POST /v1/pets');
    const spans = await receiver.until((all) => server(all) !== undefined);
    // Spans are exported in the order they end: the unsampled request's would be there by now.
    expect(spans.filter((s) => s.traceId !== sampled)).toEqual([]);
    expect(spans.some((s) => s.attributes['db.system.name'] === 'mongodb')).toBe(true);
  });
});
