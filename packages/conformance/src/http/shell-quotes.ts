// How replay lines write text inside shell quotes, and so the forms a secret takes in them.

/** `text` as it goes between double quotes: `"`, `\`, `$` and the backquote escaped. */
export function inDoubleQuotes(text: string): string {
  return text.replace(/["\\$`]/g, '\\$&');
}

/** `text` as it goes between single quotes: each `'` written `'\''`. */
export function inSingleQuotes(text: string): string {
  return text.replaceAll("'", "'\\''");
}
