/** In `u` mode a surrogate pair is one code point: only an unpaired half is in category Cs. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * True when `text` holds an unpaired surrogate (in JSON, a `\uD800` escape alone): it is no
 * Unicode text, so neither UTF-8 nor URL encoding can hold it, and RFC 8259 §8.2 leaves what a
 * receiver makes of it to each implementation.
 */
export function holdsUnpairedSurrogate(text: string): boolean {
  return UNPAIRED_SURROGATE.test(text);
}
