// A body cut into pieces, as a client that streams it or a slow network delivers it: where its
// bytes break carries no meaning in HTTP (RFC 9112 §6, §7.1), so a server reads the same content
// whatever the pieces. Cut inside its characters, it shows a server that decodes each piece as
// text on its own (`body += chunk` in Node), or that reads only the bytes of the first.

/** Each byte of `body` on its own: the chunks of a body sent one byte a chunk. */
export function bytePieces(body: Uint8Array): Uint8Array[] {
  return Array.from(body, (_, at) => body.subarray(at, at + 1));
}

/**
 * `body` cut before each continuation byte of its UTF-8 (`10xxxxxx`), so that every character
 * beyond ASCII ends one piece and begins the next; an ASCII body in halves.
 */
export function piecesInsideCharacters(body: Uint8Array): Uint8Array[] {
  const cuts: number[] = [];
  for (let at = 1; at < body.length; at += 1) {
    if (((body[at] as number) & 0xc0) === 0x80) cuts.push(at);
  }
  if (cuts.length === 0 && body.length > 1) cuts.push(Math.floor(body.length / 2));
  return [0, ...cuts].map((from, i) => body.subarray(from, cuts[i] ?? body.length));
}
