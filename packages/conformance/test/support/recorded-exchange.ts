import type { RecordedExchange } from '../../src/traffic/exchange.js';

/**
 * An exchange as a recorder keeps it: a keyed GET answered 200 with an empty JSON array, sent at
 * 1 000 ms and answered 12.4 ms later, with `over` in place of any of that.
 */
export function recordedExchange(
  over: Partial<RecordedExchange> & { url: string },
): RecordedExchange {
  return {
    method: 'GET',
    requestHeaders: [['Authorization', 'Bearer key-0123456789']],
    status: 200,
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: new TextEncoder().encode('[]'),
    sentAt: 1_000,
    receivedAt: 1_012.4,
    ...over,
  };
}
