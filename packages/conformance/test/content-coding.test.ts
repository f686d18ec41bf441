import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { withoutContentCoding } from '../src/http/content-coding.js';

const text = '[{"id":1,"name":"Rex","categoryId":7}]';
const bytes = new TextEncoder().encode(text);
const read = (body: Uint8Array | undefined) =>
  body === undefined ? undefined : new TextDecoder().decode(body);

describe('a body with its Content-Encoding taken off', () => {
  it('is the body itself without a coding, or with identity alone', () => {
    for (const header of [undefined, null, '', 'identity', ' Identity ']) {
      expect(read(withoutContentCoding(bytes, header)), String(header)).toBe(text);
    }
  });

  it('undoes gzip, x-gzip, deflate and br, in any letter case', () => {
    expect(read(withoutContentCoding(gzipSync(text), 'gzip'))).toBe(text);
    expect(read(withoutContentCoding(gzipSync(text), 'X-GZIP'))).toBe(text);
    expect(read(withoutContentCoding(deflateSync(text), 'deflate'))).toBe(text);
    expect(read(withoutContentCoding(brotliCompressSync(text), 'br'))).toBe(text);
  });

  it('undoes codings applied one after another, the last one first', () => {
    const twice = brotliCompressSync(gzipSync(text));
    expect(read(withoutContentCoding(twice, 'gzip, br'))).toBe(text);
    expect(read(withoutContentCoding(twice, 'gzip,identity, br'))).toBe(text);
    expect(withoutContentCoding(twice, 'br, gzip')).toBeUndefined();
  });

  it('is undefined for a coding it does not know, or bytes that are not in the coding named', () => {
    expect(withoutContentCoding(gzipSync(text), 'compress')).toBeUndefined();
    expect(withoutContentCoding(bytes, 'gzip')).toBeUndefined();
    expect(withoutContentCoding(gzipSync(text), 'gzip, zstd')).toBeUndefined();
  });
});
