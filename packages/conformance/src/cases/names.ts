// Names a server may refuse (the spec sets no limit on names, so 400 is its right) but, once it
// accepts one, must keep exactly: longer than the kit's own names, and beyond ASCII.
import { NAME_MAX } from '../fixtures.js';

/** One unusual name, and how to describe it. */
export interface NameCase {
  readonly what: string;
  readonly name: string;
}

/**
 * Lengths of the long names: one past the kit's own names, two a name field often allows, and
 * one past a column of 1,000 or 1,024 characters, which some stores cut a longer text to.
 */
export const LONG_NAME_LENGTHS = [NAME_MAX + 1, 64, 256, 1025] as const;

/**
 * Text beyond ASCII that NFC and NFKC normalisation leave as it is (its accented letters are
 * precomposed; NFD would take them apart): Latin letters with accents (2 bytes of UTF-8 each), a
 * CJK character (3 bytes) and an emoji outside the BMP (4 bytes, a surrogate pair in UTF-16).
 */
export const NON_ASCII_TEXT = 'ÑandúÉlène猫🐈';

/** `tagged` (a fresh name of the run) padded with letters to each long length. */
export function longNames(tagged: () => string): NameCase[] {
  return LONG_NAME_LENGTHS.map((length) => {
    const start = tagged();
    return {
      what: `a name of ${length} letters`,
      name: start + 'abcdefghijklmnopqrstuvwxyz'.repeat(40).slice(0, length - start.length),
    };
  });
}

/** `tagged` (a fresh name of the run) followed by non-ASCII letters. */
export function nonAsciiNames(tagged: () => string): NameCase[] {
  return [
    { what: `a name beyond ASCII (${NON_ASCII_TEXT})`, name: `${tagged()}${NON_ASCII_TEXT}` },
  ];
}

/**
 * Names that read as another type, which a reader that types strings by their look gives back as
 * another text or another type: Json.NET's JToken takes an ISO 8601 string for a date, YAML and
 * stores with numeric affinity (SQLite's) a number or a boolean. The look is the whole string, so
 * these carry no run tag.
 */
export const TYPED_LOOKING_NAMES: readonly NameCase[] = [
  { what: 'a name that reads as a date-time', name: '2024-01-02T03:04:05Z' },
  { what: 'a name that reads as a number', name: '1.50' },
  { what: 'a name that reads as a boolean', name: 'true' },
];
