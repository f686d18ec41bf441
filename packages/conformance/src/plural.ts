/** `n` and the word for that many: `1 pet`, `2 pets`, `2 advisories`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
