/** `n` and the word for that many: `1 pet`, `2 pets`, `2 advisories`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What follows the first of `n` findings when there are more: ` (and 2 more)`, else nothing. */
export function andMore(n: number): string {
  return n > 1 ? ` (and ${n - 1} more)` : '';
}

/** The tail `andMore` writes, at the end of a line. */
export const AND_MORE = / \(and \d+ more\)$/;
