/**
 * True when a message's header lines hold a `Connection` line whose options include `close`
 * (RFC 9112 §9.6): the connection ends after this message. Names in any letter case.
 */
export function saysClose(lines: readonly (readonly [string, string])[]): boolean {
  return lines.some(
    ([name, value]) =>
      name.toLowerCase() === 'connection' &&
      value.split(',').some((option) => option.trim().toLowerCase() === 'close'),
  );
}
