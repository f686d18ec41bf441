import { describe, expect, it } from 'vitest';
import {
  linkTarget,
  parseHttpDate,
  parseLinks,
  parseRetryAfter,
  parseStructuredDate,
} from '../src/headers.js';

describe('response headers', () => {
  it('finds a Link target by relation among several entries', () => {
    const value = '</v1/pets>; rel="successor-version", </v1/pets?limit=2&after=3>; rel="next"';
    expect(linkTarget(value, 'next')).toBe('/v1/pets?limit=2&after=3');
    expect(linkTarget(value, 'successor-version')).toBe('/v1/pets');
    expect(linkTarget(value, 'prev')).toBeUndefined();
    expect(linkTarget(null, 'next')).toBeUndefined();
  });

  it('reads unquoted and space-separated relations, case-insensitively', () => {
    expect(parseLinks('<a>; rel=next, <b>; title="x"; rel="Prev Last"')).toEqual([
      { target: 'a', rels: ['next'] },
      { target: 'b', rels: ['prev', 'last'] },
    ]);
  });

  it('parses RFC 9745 structured dates and HTTP dates', () => {
    expect(parseStructuredDate('@1767225600')).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(parseStructuredDate('Thu, 01 Jan 2026 00:00:00 GMT')).toBeUndefined();
    expect(parseHttpDate('Thu, 05 Dec 2030 00:00:00 GMT')).toEqual(
      new Date('2030-12-05T00:00:00Z'),
    );
    expect(parseHttpDate('soon')).toBeUndefined();
  });

  it('turns Retry-After seconds or a date into milliseconds to wait', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Mon, 01 Jun 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 31 May 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
