import * as zlib from 'node:zlib';
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

  it('undoes zstd where Node has it (22.15, 23.8 and later), and leaves it undecoded elsewhere', () => {
    const zstd = (zlib as { zstdCompressSync?: (text: string) => Uint8Array }).zstdCompressSync;
    const body = zstd === undefined ? gzipSync(text) : zstd(text);
    const decoded = read(withoutContentCoding(body, 'zstd'));
    expect(decoded).toBe(zstd === undefined ? undefined : text);
    // Node 24, which runs the kit's tests, has it.
    if (process.versions.node.startsWith('24.')) expect(zstd).toBeDefined();
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
