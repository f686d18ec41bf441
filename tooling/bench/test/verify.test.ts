import { describe, expect, it } from 'vitest';
import { assertSame, type Captured } from '../src/verify.js';

const answer = (headers: [string, string][], body = '{"id":1}', status = 200): Captured => ({
  status,
  headers,
  body: Buffer.from(body),
});
const api = answer([
  ['X-Request-Id', 'a1'],
  ['Content-Type', 'application/json'],
  ['Date', 'Mon, 23 Nov 2026 21:00:00 GMT'],
]);
const check = (other: Captured, expectStatus = 200) =>
  assertSame('GET /v1/pets/1', api, { name: 'baseline', answer: other }, expectStatus);

describe('assertSame', () => {
  it('accepts the same answer with its own request id and date', () => {
    const same = answer([
      ['X-Request-Id', 'b2'],
      ['Content-Type', 'application/json'],
      ['Date', 'Mon, 23 Nov 2026 21:00:01 GMT'],
    ]);
    expect(() => check(same)).not.toThrow();
  });

  it('refuses another body, another header value, another header order or another status', () => {
    const [id, type, date] = api.headers as [[string, string], [string, string], [string, string]];
    expect(() => check(answer(api.headers, '{"id":2}'))).toThrow('answer differently');
    expect(() => check(answer([id, ['Content-Type', 'text/plain'], date]))).toThrow();
    expect(() => check(answer([type, id, date]))).toThrow();
    expect(() => check(answer(api.headers, '{"id":1}', 201))).toThrow();
    expect(() => check(api, 201)).toThrow('expected status 201');
  });

  it('refuses answers without a request id or a date, even when both lack it', () => {
    const [id, type] = api.headers as [[string, string], [string, string]];
    const undated = answer([id, type]);
    expect(() =>
      assertSame('GET /v1/pets/1', undated, { name: 'baseline', answer: undated }, 200),
    ).toThrow('the API sent no date; baseline sent no date');
    expect(() => check(answer([['X-Request-Id', ''], ...api.headers.slice(1)]))).toThrow(
      'baseline sent no x-request-id',
    );
  });
});
