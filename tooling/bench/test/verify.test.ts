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
  assertSame('GET /v1/pets/1', api, { name: 'fastify', answer: other }, expectStatus);

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
      assertSame('GET /v1/pets/1', undated, { name: 'fastify', answer: undated }, 200),
    ).toThrow('the API sent no date; fastify sent no date');
    expect(() => check(answer([['X-Request-Id', ''], ...api.headers.slice(1)]))).toThrow(
      'fastify sent no x-request-id',
    );
  });
});

describe('assertSame with another framework', () => {
  const shuffled = answer([
    ['content-type', 'application/json'],
    ['x-request-id', 'b2'],
    ['date', 'Mon, 23 Nov 2026 21:00:01 GMT'],
  ]);
  const compare = (other: Captured, match: 'unordered') =>
    assertSame('GET /v1/pets/1', api, { name: 'fastify', answer: other }, 200, match);

  it('takes the same headers in another order and case, but not another value or body', () => {
    expect(() => compare(shuffled, 'unordered')).not.toThrow();
    expect(() => check(shuffled)).toThrow('answer differently');
    const [type, id, date] = shuffled.headers as [[string, string], ...[string, string][]];
    expect(() =>
      compare(
        answer([['content-type', 'text/plain'], id, date] as [string, string][]),
        'unordered',
      ),
    ).toThrow();
    expect(() => compare(answer(shuffled.headers, '{"id":2}'), 'unordered')).toThrow();
    expect(type[0]).toBe('content-type');
  });
});
