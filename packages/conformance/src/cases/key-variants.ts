// Credentials made from the valid key that are not it, each with its shell form for replay lines
// (the key only as $ANIMAL_STORE_API_KEY). None is the key in a spelling a server may take for
// it: the other letter case (which the spec leaves open, `auth.*.key-case-changed`), or base64
// that decodes to the same bytes. A change, a cut or an addition goes before the key's trailing
// `=`, base64's padding, which decoders such as Node's and Ruby's read past.
import type { Credential } from '../http/client.js';
import { KEY_VARIABLE } from '../http/client.js';
import { literalCredential } from '../http/replay.js';

/** Base64's alphabet, in the order of the 6 bits each character stands for. */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The key as the shell writes it. */
const KEY = `"$${KEY_VARIABLE}"`;

/**
 * Another character for `c`: `0` for one that stands for less than 32 in base64 (`A`-`Z`, `a`-`f`)
 * or is in no alphabet of it, `A` for the others (`-` and `_` read as base64url's 62 and 63). The
 * top bit of the 6 it stands for changes, which every decoder reads, a hex digit changes its
 * value, a letter never becomes itself in the other case, and a report that shows the character
 * tells one bit of the key's, no more.
 */
function otherCharacter(c: string): string {
  const index = c === '-' ? 62 : c === '_' ? 63 : BASE64.indexOf(c);
  return index >= 32 ? 'A' : '0';
}

/** `key` without its trailing `=`, and those (none when the key is nothing else). */
function splitPadding(key: string): { core: string; padding: string } {
  const core = key.replace(/=+$/, '');
  return core === '' ? { core: key, padding: '' } : { core, padding: key.slice(core.length) };
}

/**
 * `Bearer` and the key with its core's last character replaced by `by` (nothing: cut), its
 * padding kept; the shell form cuts with `%?` when there is no padding, with sed when there is.
 */
function lastReplaced(key: string, by: string): Credential {
  const { core, padding } = splitPadding(key);
  const by_ = literalCredential(by).shell;
  return {
    value: `Bearer ${core.slice(0, -1)}${by}${padding}`,
    shell:
      padding === ''
        ? `Bearer \${${KEY_VARIABLE}%?}${by_}`
        : `Bearer $(printf %s ${KEY} | sed 's/.\\(=*\\)$/${by_}\\1/')`,
  };
}

/** The valid key with one character added at the end of its core. */
export function keyAppended(key: string): Credential {
  const { core, padding } = splitPadding(key);
  return {
    value: `Bearer ${core}x${padding}`,
    shell:
      padding === ''
        ? `Bearer \${${KEY_VARIABLE}}x`
        : `Bearer $(printf %s ${KEY} | sed 's/=*$/x&/')`,
  };
}

/** The valid key less the last character of its core. */
export function keyTruncated(key: string): Credential {
  return lastReplaced(key, '');
}

/**
 * The valid key with its first, then its last character changed (`otherCharacter`), the length
 * kept: a comparison that skips an end of the key (a loop one short) takes it.
 */
export function keysOneCharacterOff(
  key: string,
): { readonly how: string; readonly authorization: Credential }[] {
  const { core } = splitPadding(key);
  const last = {
    how: 'with the valid key, its last character changed',
    authorization: lastReplaced(key, otherCharacter(core.slice(-1))),
  };
  if (key.length < 2) return [last];
  const first = otherCharacter(key.slice(0, 1));
  return [
    {
      how: 'with the valid key, its first character changed',
      authorization: {
        value: `Bearer ${first}${key.slice(1)}`,
        shell: `Bearer ${literalCredential(first).shell}\${${KEY_VARIABLE}#?}`,
      },
    },
    last,
  ];
}

/**
 * The valid key with its last character replaced by each wildcard of SQL's `LIKE` (`_` any one
 * character, `%` any characters) it does not end with: a key looked up with `LIKE` takes either.
 */
export function keysWithWildcard(
  key: string,
): { readonly how: string; readonly authorization: Credential }[] {
  const { core } = splitPadding(key);
  return ['_', '%']
    .filter((wildcard) => wildcard !== core.slice(-1))
    .map((wildcard) => ({
      how: `with the valid key, its last character replaced by "${wildcard}"`,
      authorization: lastReplaced(key, wildcard),
    }));
}

/** Keys that are patterns matching any key: `%` (SQL's `LIKE`), `*` (a glob), `.*` (a regex). */
export const PATTERN_KEYS = ['%', '*', '.*'] as const;

/**
 * Basic credentials of the valid key: as the user name with no password (Stripe's way), or as the
 * password after `user` (a user name of letters; empty or `apikey`, as IBM Cloud's and Twilio's
 * APIs take a key).
 */
export function basicCredentialsOf(key: string, user?: string): Credential {
  const pair = user === undefined ? `${key}:` : `${user}:${key}`;
  const printed = user === undefined ? `'%s:' ${KEY}` : `'${user}:%s' ${KEY}`;
  return {
    value: `Basic ${Buffer.from(pair).toString('base64')}`,
    shell: `Basic $(printf ${printed} | base64 | tr -d '\\n')`,
  };
}
