// JSON.parse turns integers beyond 2^53 into the nearest double, so an int64 id such as
// 1790000000000000123 would come back as another id. This parser keeps every number literal as
// written, per object and key, so the kit can compare and reuse ids and categoryIds exactly. Most
// answers hold short integers alone, whose value gives the literal back: those take no second pass.

const literals = new WeakMap<object, Map<string, string>>();
/** Objects parsed from a text whose every number reads back as written: `String(value)` is it. */
const exact = new WeakSet<object>();
/**
 * What may start a number literal that `String(Number(literal))` does not give back: a fraction
 * or an exponent, 16 digits or more (beyond 2^53 some are no double), `-0`. Found anywhere in the
 * text, in strings too, where it only costs the literal pass.
 */
const INEXACT_NUMBER = /\d[.eE]|\d{16}|-0(?![0-9])/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;
const WORD = /true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/** Parses JSON like `JSON.parse` (and throws like it), keeping number literals for `numberText`. */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  // Only containers hold numbers worth keeping; a bare scalar needs no second pass.
  if (value === null || typeof value !== 'object') return value;
  if (INEXACT_NUMBER.test(text)) return new LiteralParser(text).document();
  markExact(value);
  return value;
}

function markExact(value: object): void {
  if (!Array.isArray(value)) exact.add(value);
  for (const member of Object.values(value)) {
    if (member !== null && typeof member === 'object') markExact(member);
  }
}

/** The number literal `object[key]` had in the JSON text, as written (e.g. `"9007199254740993"`). */
export function numberText(object: unknown, key: string): string | undefined {
  if (object === null || typeof object !== 'object') return undefined;
  if (exact.has(object)) {
    const value = Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
    return typeof value === 'number' ? String(value) : undefined;
  }
  return literals.get(object)?.get(key);
}

const CANONICAL_SAFE_INTEGER = /^(?:0|-?[1-9]\d{0,14})$/;

/**
 * The exact integer a JSON number literal denotes, in canonical decimal form (`1e3` -> `1000`),
 * or undefined when it is not an integer.
 */
export function canonicalInteger(literal: string): string | undefined {
  // The common case: an integer literal that is its canonical form already.
  if (CANONICAL_SAFE_INTEGER.test(literal)) return literal;
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = m;
  const digits = whole + fraction;
  const scale = Number(exponent) - fraction.length;
  if (Math.abs(scale) > 400) return undefined;
  let value: bigint;
  if (scale >= 0) {
    value = BigInt(digits) * 10n ** BigInt(scale);
  } else {
    if (!/^0*$/.test(digits.slice(scale))) return undefined;
    value = BigInt(digits.slice(0, scale) || '0');
  }
  return `${sign === '-' && value !== 0n ? '-' : ''}${value}`;
}

/** `object[key]` as an exact integer string, from its literal when it was parsed by `parseJson`. */
export function integerText(object: unknown, key: string): string | undefined {
  const literal = numberText(object, key);
  if (literal !== undefined) return canonicalInteger(literal);
  const value = (object as Record<string, unknown> | null)?.[key];
  return typeof value === 'number' && Number.isInteger(value)
    ? BigInt(value).toString()
    : undefined;
}

class LiteralParser {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): unknown {
    return this.value().value;
  }

  private value(): { value: unknown; literal?: string } {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return { value: this.object() };
    if (c === '[') return { value: this.array() };
    if (c === '"') return { value: JSON.parse(this.match(STRING)) as string };
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const literal = this.match(NUMBER);
      return { value: Number(literal), literal };
    }
    return { value: JSON.parse(this.match(WORD)) as unknown };
  }

  private object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const numbers = new Map<string, string>();
    literals.set(object, numbers);
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return object;
    }
    for (;;) {
      this.space();
      const key = JSON.parse(this.match(STRING)) as string;
      this.space();
      this.at++; // ':'
      const { value, literal } = this.value();
      // defineProperty, not assignment: a "__proto__" key must stay an ordinary property.
      Object.defineProperty(object, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (literal === undefined) numbers.delete(key);
      else numbers.set(key, literal);
      this.space();
      if (this.text[this.at++] === '}') return object;
    }
  }

  private array(): unknown[] {
    const array: unknown[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(this.value().value);
      this.space();
      if (this.text[this.at++] === ']') return array;
    }
  }

  private match(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    // JSON.parse accepted the text already, so every token is where the grammar puts it.
    if (!found) throw new SyntaxError(`unexpected JSON at position ${this.at}`);
    this.at += found[0].length;
    return found[0];
  }

  private space(): void {
    this.match(SPACE);
  }
}
