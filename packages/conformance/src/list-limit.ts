import { LIMIT_MAX, LIMIT_MIN } from '@animal-store/contract';

/**
 * The limit a list query's `limit` value asks for, when it is written plainly (decimal digits
 * with no sign and no leading zero, as JSON writes an integer) and lies within 1..100; undefined
 * for any other value. The spec gives `limit` as an integer and says nothing of other spellings
 * (`05`, `+5`, `5.0`): a server may read one as its number, refuse it, or leave it unread and
 * use the default, so the kit holds no list to a limit spelled that way.
 */
export function plainLimit(value: string): number | undefined {
  if (!/^(?:0|[1-9]\d*)$/.test(value)) return undefined;
  const limit = Number(value);
  return limit >= LIMIT_MIN && limit <= LIMIT_MAX ? limit : undefined;
}
