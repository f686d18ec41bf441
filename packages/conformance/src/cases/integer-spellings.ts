/**
 * Spellings of a positive integer that are no integer, each of which a lenient reader takes for it:
 * `parseInt` and Ruby's `to_i` read the leading digits (`7.5`, `7abc`), JavaScript's `Number`,
 * Java's `Long.decode` (Spring's binder) and Haskell's `read` take hexadecimal (`0x7`), `Number`,
 * Ruby's `Integer` and Python's `int(text, 0)` octal and binary with a prefix (`0o7`, `0b111`),
 * Python's `int` reads digits split by an underscore (`0_7`), and Python's `int` (behind
 * Werkzeug's `\d+` int converter) and Java's `Long.parseLong` read any script's decimal digits:
 * Arabic-Indic `٧`, fullwidth `７`. An integer in the spec's JSON and OpenAPI is ASCII digits. Each
 * is URL text: white space is no digit, sent as `%20`; `;v=1` is a path segment's parameter (RFC
 * 3986 §3.3), which a servlet container drops, and in a query it is part of the value; `%FF` is a
 * byte no UTF-8 holds, which a decoder that drops what it cannot read (Bottle's of the path) leaves
 * out.
 */
export function integerSpellings(digits: string, where: SpelledIn = 'query'): string[] {
  if (!/^\d+$/.test(digits)) return [];
  return spellingsIn(where).map((spelling) => spelling.of(digits));
}

/** The spellings `integerSpellings` gives, in words, each naming the integer `n`. */
export function integerSpellingsInWords(n: string, where: SpelledIn = 'query'): string {
  return spellingsIn(where)
    .map((spelling) => spelling.inWords(n))
    .join(', ');
}

/**
 * Where a spelling goes: a query's value, or a path segment, where `;v=1` is the segment's
 * parameter, which a servlet container takes off before the app sees the path (RFC 3986 §3.3
 * leaves its meaning to the server): no spelling of the petId there.
 */
export type SpelledIn = 'query' | 'path';

/** The pet's id N with a path segment's parameter, `N;v=1`. */
export function withSegmentParameter(digits: string): string {
  return `${digits};v=1`;
}

function spellingsIn(where: SpelledIn) {
  return where === 'query' ? SPELLINGS : SPELLINGS.filter((s) => s.of !== withSegmentParameter);
}

/** Each spelling, and its words for the checks' titles and the spec matrix's inputs. */
const SPELLINGS: readonly {
  readonly of: (digits: string) => string;
  readonly inWords: (n: string) => string;
}[] = [
  { of: (digits) => `${digits}.5`, inWords: (n) => `${n}.5` },
  { of: (digits) => `${digits}abc`, inWords: (n) => `${n}abc` },
  { of: (digits) => `0x${BigInt(digits).toString(16)}`, inWords: (n) => `${n} in hexadecimal` },
  { of: (digits) => `0o${BigInt(digits).toString(8)}`, inWords: (n) => `${n} in octal (0o)` },
  { of: (digits) => `0b${BigInt(digits).toString(2)}`, inWords: (n) => `${n} in binary (0b)` },
  {
    of: (digits) => (digits.length > 1 ? `${digits[0]}_${digits.slice(1)}` : `0_${digits}`),
    inWords: (n) => `${n} split by an underscore`,
  },
  {
    of: (digits) => inDigitsFrom(digits, ARABIC_INDIC_ZERO),
    inWords: (n) => `${n} in Arabic-Indic digits`,
  },
  {
    of: (digits) => inDigitsFrom(digits, FULLWIDTH_ZERO),
    inWords: (n) => `${n} in fullwidth digits`,
  },
  { of: (digits) => `%20${digits}`, inWords: (n) => `${n} after a space (%20)` },
  { of: (digits) => `${digits}%20`, inWords: (n) => `${n} before a space (%20)` },
  { of: withSegmentParameter, inWords: (n) => `${n};v=1` },
  { of: (digits) => `${digits}%FF`, inWords: (n) => `${n} and a byte no UTF-8 holds (%FF)` },
];

/** The first code points of two runs of decimal digits beyond ASCII (Unicode category Nd). */
export const ARABIC_INDIC_ZERO = 0x0660;
export const FULLWIDTH_ZERO = 0xff10;

/** ASCII digits `digits` written in the run of digits that starts at `zero`. */
function inDigitsFrom(digits: string, zero: number): string {
  return [...digits].map((digit) => String.fromCodePoint(zero + Number(digit))).join('');
}
