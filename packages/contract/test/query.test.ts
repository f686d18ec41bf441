import { describe, expect, it } from 'vitest';
import {
  formatListPetsQuery,
  LIMIT_DEFAULT,
  parseListPetsQuery,
  parsePetId,
} from '../src/index.js';

const parse = (query: string) => parseListPetsQuery(new URLSearchParams(query));

describe('parseListPetsQuery', () => {
  it('applies the default limit', () => {
    expect(parse('')).toEqual({ ok: true, value: { limit: LIMIT_DEFAULT } });
  });

  it('parses limit, status and after', () => {
    expect(parse('limit=100&status=sold&after=42')).toEqual({
      ok: true,
      value: { limit: 100, status: 'sold', after: 42 },
    });
  });

  it('ignores unknown parameters', () => {
    expect(parse('limit=1&_=123')).toEqual({ ok: true, value: { limit: 1 } });
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=1.5',
    'limit=abc',
    'limit=',
    'limit=1&limit=2',
    'limit=%201',
  ])('rejects %s and names limit', (query) => {
    const result = parse(query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details[0]?.path).toBe('limit');
  });

  it.each([
    'status=lost',
    'status=',
    'status=SOLD',
    'status=sold&status=sold',
  ])('rejects %s and names status', (query) => {
    const result = parse(query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details[0]?.path).toBe('status');
  });

  it.each([
    'after=0',
    'after=-1',
    'after=x',
    'after=99999999999999999999',
  ])('rejects %s', (query) => {
    expect(parse(query).ok).toBe(false);
  });
});

describe('parsePetId', () => {
  it('parses a positive integer', () => {
    expect(parsePetId('17')).toEqual({ ok: true, value: 17 });
  });

  it.each(['0', '-3', '1.5', 'abc', '', '9007199254740992', '1e3'])('rejects %j', (raw) => {
    const result = parsePetId(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details[0]?.path).toBe('petId');
  });
});

describe('formatListPetsQuery', () => {
  it.each([
    ['limit=20', { limit: 20 }],
    ['limit=5&status=sold&after=42', { limit: 5, status: 'sold', after: 42 }],
    ['limit=1&after=7', { after: 7, limit: 1 }],
    ['', {}],
    ['limit=1&after=9223372036854775807', { limit: 1, after: 2n ** 63n - 1n }],
  ] as const)('writes "%s", parameters in the contract’s order', (text, query) => {
    expect(formatListPetsQuery(query)).toBe(text);
  });

  it('writes what parseListPetsQuery reads back', () => {
    const query = { limit: 3, status: 'pending', after: 9 } as const;
    expect(parse(formatListPetsQuery(query))).toEqual({ ok: true, value: query });
  });
});
