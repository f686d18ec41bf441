// Content codings (RFC 9110 §8.4): a body as its sender wrote it, with the codings its
// Content-Encoding lists taken off, the last one applied first.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

const DECODERS: Readonly<Record<string, (bytes: Uint8Array) => Uint8Array>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * `body` with the codings `contentEncoding` names taken off; `body` itself when it names none
 * (or only `identity`), undefined when a coding is unknown or the bytes are not in it.
 */
export function withoutContentCoding(
  body: Uint8Array,
  contentEncoding: string | null | undefined,
): Uint8Array | undefined {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let bytes = body;
  try {
    for (const coding of codings.reverse()) {
      const decode = DECODERS[coding];
      if (decode === undefined) return undefined;
      bytes = decode(bytes);
    }
  } catch {
    return undefined;
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
