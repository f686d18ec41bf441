import { LIMIT_MAX, LIMIT_MIN } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { plainLimit } from '../src/list-limit.js';

describe('a limit as a list query writes it', () => {
  it('is read when written plainly within 1..100', () => {
    expect(plainLimit(String(LIMIT_MIN))).toBe(LIMIT_MIN);
    expect(plainLimit('20')).toBe(20);
    expect(plainLimit('99')).toBe(99);
    expect(plainLimit(String(LIMIT_MAX))).toBe(LIMIT_MAX);
  });

  it.each([
    '0',
    '101',
    '999',
    '1000',
    '1'.repeat(400),
    '-1',
    '01',
    '001',
    '0100',
    '+5',
    '5.0',
    '5e0',
    ' 5',
    '5 ',
    '0x5',
    '',
  ])('is not read when it is %j: out of range, or a spelling the spec does not give', (value) => {
    expect(plainLimit(value)).toBeUndefined();
  });
});
