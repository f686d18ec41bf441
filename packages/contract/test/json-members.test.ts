import { describe, expect, it } from 'vitest';
import { repeatedMemberName } from '../src/index.js';

const repeated = (text: string) => repeatedMemberName(text, JSON.parse(text));

describe('repeatedMemberName', () => {
  it.each([
    ['{"name":"a","categoryId":1}'],
    ['{"name":"a: b","note":"c:d:e"}'],
    ['{"a":{"b":1},"b":2}'],
    ['[{"a":1},{"a":2}]'],
    ['{"a":[{"a":1,"b":{"a":2}}]}'],
    ['"a:b"'],
    ['[1,2,3]'],
    ['{}'],
    // A colon inside a string makes the colons outnumber the member names: the text is walked.
    ['{"a":{"b":"x:y"},"b":2}'],
    ['{"a":[{"b":1}],"b":"x:y"}'],
    ['{"a":"x:y","c":"x:y"}'],
    ['{"k":["x:y","x:y"]}'],
    ['[{"a":"x:y"},{"a":"x:y"}]'],
  ])('finds no repeat in %s', (text) => {
    expect(repeated(text)).toBeUndefined();
  });

  it.each([
    ['{"name":"a","name":"b"}', '/name'],
    ['{"categoryId":"x","categoryId":1}', '/categoryId'],
    ['{ "name" : "a" ,\n "name"\t: "a" }', '/name'],
    ['{"name":"a","n\\u0061me":"b"}', '/name'],
    ['{"x":{"y":1,"y":2}}', '/x/y'],
    ['[{"a":1},{"a":1,"a":2}]', '/1/a'],
    ['{"a/b":1,"a/b":2}', '/a~1b'],
    ['{"t~":{"k":[0,{"z":1,"z":1}]}}', '/t~0/k/1/z'],
    ['{"name":"a:\\"b\\"","name":"c"}', '/name'],
    ['{"name"\r\n:"a","name"\n:"b"}', '/name'],
    ['{"k":[1],"n":"x:y","n":2}', '/n'],
  ])('names the repeat in %s: %s', (text, path) => {
    expect(repeated(text)).toBe(path);
  });

  it('walks any depth a body can hold without running out of stack', () => {
    const deep = `${'['.repeat(8000)}{"a":1,"a":2}${']'.repeat(8000)}`;
    expect(repeated(deep)).toBe(`/${Array(8000).fill('0').join('/')}/a`);
    const flat = `${'['.repeat(8000)}1${']'.repeat(8000)}`;
    expect(repeated(flat)).toBeUndefined();
  });
});
