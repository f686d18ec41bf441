// JSON.parse reads `1.0000000000000001` and `9007199254740991.4` as integers: the nearest double
// is one. A body's numbers are judged as written instead, so "never rounded" holds.

const NUMBER = /-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

/** True when the decimal number `whole.fraction × 10^exponent` is an integer, exactly. */
export function isIntegerLiteral(literal: string): boolean {
  NUMBER.lastIndex = 0;
  const m = NUMBER.exec(literal);
  if (!m || m[0].length !== literal.length) return false;
  const [, whole = '', fraction = '', exponent = '0'] = m;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  // Digits after the decimal point once the exponent has moved it must all be zeros.
  return /^0*$/.test(digits.slice(Math.max(0, Math.min(point, digits.length))));
}

/** A stand-in that every integer check refuses, for a literal that only rounds to an integer. */
const NOT_AN_INTEGER = '1.5';

/**
 * Parses JSON text like `JSON.parse`, except that a number whose written value is not an
 * integer but whose nearest double is one (`1.0000000000000001`) parses to `1.5`: any integer
 * check on the result then decides on the number as written. Other values are unchanged.
 */
export function parseJsonText(text: string): unknown {
  // Fast path: no digit followed by a fraction or an exponent, nothing to rewrite.
  if (!/\d[.eE]/.test(text)) return JSON.parse(text);
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string, escapes included; an unterminated one is JSON.parse's error to report.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c /* \ */) i++;
      }
      continue;
    }
    if (c !== 0x2d /* - */ && (c < 0x30 || c > 0x39)) continue;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) continue;
    const literal = m[0];
    if (
      (m[2] !== undefined || m[3] !== undefined) &&
      // A leading zero (`01.5`) is not JSON: left as written, for JSON.parse to refuse.
      !/^-?0\d/.test(literal) &&
      Number.isInteger(Number(literal)) &&
      !isIntegerLiteral(literal)
    ) {
      out += text.slice(copied, i) + NOT_AN_INTEGER;
      copied = i + literal.length;
    }
    i += literal.length - 1;
  }
  return JSON.parse(copied === 0 ? text : out + text.slice(copied));
}
