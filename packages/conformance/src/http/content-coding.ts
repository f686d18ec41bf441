// Content codings (RFC 9110 §8.4): a body as its sender wrote it, with the codings its
// Content-Encoding lists taken off, the last one applied first.
import * as zlib from 'node:zlib';

type Decoder = (bytes: Uint8Array) => Uint8Array;

/**
 * zstd (RFC 8878), which browsers, got and urllib3 ask for: Node decodes it from 22.15 and 23.8 on
 * (`zstdDecompressSync`); on an older Node its answers stay undecoded, as an unknown coding's.
 */
const zstd = (zlib as { zstdDecompressSync?: Decoder }).zstdDecompressSync;

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: zlib.gunzipSync,
  'x-gzip': zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
  ...(zstd === undefined ? {} : { zstd }),
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
