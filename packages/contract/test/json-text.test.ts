import { describe, expect, it } from 'vitest';
import { isIntegerLiteral, parseJsonText } from '../src/index.js';

describe('isIntegerLiteral', () => {
  it.each([
    ['1', true],
    ['-7', true],
    ['1.0', true],
    ['1.000', true],
    ['1e3', true],
    ['1.5e1', true],
    ['150e-2', false],
    ['100e-2', true],
    ['1.5', false],
    ['1.0000000000000001', false],
    ['9007199254740991.4', false],
    ['0.0', true],
    ['-0.1', false],
  ])('reads %s as an integer: %s', (literal, integer) => {
    expect(isIntegerLiteral(literal)).toBe(integer);
  });
});

describe('parseJsonText', () => {
  it('parses like JSON.parse where every number is what a double says', () => {
    const text = '{"a":1,"b":[2.5,1e3,-4],"c":"x1.0000000000000001","d":1.0}';
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it('turns a number that only rounds to an integer into a non-integer', () => {
    const parsed = parseJsonText(
      '{"name":"Rex","categoryId":1.0000000000000001,"other":9007199254740991.4}',
    ) as Record<string, unknown>;
    expect(Number.isInteger(parsed.categoryId)).toBe(false);
    expect(Number.isInteger(parsed.other)).toBe(false);
    expect(parsed.name).toBe('Rex');
  });

  it('leaves strings alone, escaped quotes included', () => {
    const text = '{"name":"a\\"1.0000000000000001","n":2}';
    expect(parseJsonText(text)).toEqual({ name: 'a"1.0000000000000001', n: 2 });
  });

  it('throws on malformed JSON as JSON.parse does', () => {
    expect(() => parseJsonText('{"a":1.0000000000000001')).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a":')).toThrow(SyntaxError);
  });

  it.each([
    '{"categoryId":01.0000000000000001}',
    '{"categoryId":-01.0000000000000001}',
    '[00.0000000000000001e1]',
  ])('throws on a number with a leading zero, which is not JSON: %s', (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parseJsonText(text)).toThrow(SyntaxError);
  });
});
