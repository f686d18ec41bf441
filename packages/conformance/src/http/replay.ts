import {
  type Credential,
  type HttpRequest,
  type HttpResponse,
  KEY_VARIABLE,
  nestedAt,
  paddedAt,
  sentText,
} from './client.js';
import { absoluteTarget } from './request-target.js';
import { inDoubleQuotes, inSingleQuotes } from './shell-quotes.js';

/** Longest piece of a server's text a report quotes. */
export const QUOTE_MAX = 200;

/** Text as a shell word in single quotes, or `$'…'` with escapes when it holds control characters. */
function shellWord(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `'${inSingleQuotes(text)}'`;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === "'" || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code <= 0x7e) out += char;
    // In $'…', `\xHH` is one byte and `\uHHHH` the character's UTF-8, which is what the kit sent.
    else if (code <= 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `$'${out}'`;
}

/** A credential whose value holds no key: the shell form is the value, escaped for "…". */
export function literalCredential(value: string): Credential {
  return { value, shell: inDoubleQuotes(value) };
}

/** The valid key under another prefix, e.g. `Basic <key>`. */
export function keyCredential(prefix: string, key: string, suffix = ''): Credential {
  return keyBetween([prefix, suffix], key);
}

/** Texts with the valid key between each two, e.g. `a=<key>; b=<key>` of `['a=', '; b=', '']`. */
export function keyBetween(parts: readonly string[], key: string): Credential {
  return {
    value: parts.join(key),
    shell: parts.map((part) => literalCredential(part).shell).join(`\${${KEY_VARIABLE}}`),
  };
}

/** Bytes as one shell word: printable ASCII as it is, every other byte as `\xHH` in $'…'. */
function bytesWord(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (char === "'" || char === '\\') out += `\\${char}`;
    else if (byte >= 0x20 && byte <= 0x7e) out += char;
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `$'${out}'`;
}

/** `text` with `padding` spaces after its first `,`, as printf writes it: the line stays short. */
function paddedWord(text: string, padding: number): string {
  const [head, tail] = paddedAt(text);
  return `"$(printf '%s%*s%s' ${shellWord(head)} ${padding} '' ${shellWord(tail)})"`;
}

/** `text` with its first `[]` nested `depth` deep, as printf and tr write it: the line stays short. */
function nestedWord(text: string, depth: number): string {
  const [head, tail] = nestedAt(text);
  const run = (bracket: string) => `$(printf '%*s' ${depth}|tr ' ' '${bracket}')`;
  return `${shellWord(head)}"${run('[')}${run(']')}"${shellWord(tail)}`;
}

/**
 * A request the kit sent to `url`, as one curl command line. The key appears only as
 * `$ANIMAL_STORE_API_KEY`: a report may be pasted anywhere.
 */
export function curlLine(request: HttpRequest, url: string): string {
  const parts = ['curl -sS -i'];
  // curl -X HEAD would wait for a body that never comes: --head sends HEAD and reads none.
  if (request.method === 'HEAD') parts.push('--head');
  else if (request.method !== 'GET') parts.push(`-X ${request.method}`);
  parts.push(shellWord(url));
  if (request.absoluteForm)
    parts.push(`--request-target ${shellWord(absoluteTarget(new URL(url)))}`);
  const authorization =
    request.authorization === undefined ? `Bearer $${KEY_VARIABLE}` : request.authorization?.shell;
  if (authorization !== undefined) parts.push(`-H "Authorization: ${authorization}"`);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    parts.push(`-H ${shellWord(`${name}: ${value}`)}`);
  }
  for (const [name, value] of Object.entries(request.keyHeaders ?? {})) {
    parts.push(`-H "${name}: ${value.shell}"`);
  }
  // The report's redaction hides the value: a replay of it needs the server's cookie again.
  for (const [name, value] of Object.entries(request.secretHeaders ?? {})) {
    parts.push(`-H ${shellWord(`${name}: ${value}`)}`);
  }
  // `Accept:` with no value stops curl from sending its own `*/*`.
  if (request.withoutAccept) parts.push("-H 'Accept:'");
  if (request.chunked) parts.push("-H 'Transfer-Encoding: chunked'");
  const text = sentText(request);
  const body =
    request.rawBytes !== undefined
      ? bytesWord(request.rawBytes)
      : request.keyBody !== undefined
        ? `"${request.keyBody.shell}"`
        : text === undefined
          ? undefined
          : request.nesting !== undefined
            ? nestedWord(text, request.nesting)
            : request.padding === undefined
              ? shellWord(text)
              : paddedWord(text, request.padding);
  if (body !== undefined) {
    const named = Object.keys(request.headers ?? {}).some(
      (n) => n.toLowerCase() === 'content-type',
    );
    // `Content-Type:` with no value stops curl from naming the body a form.
    if (request.withoutContentType) parts.push("-H 'Content-Type:'");
    else if (!named) parts.push("-H 'Content-Type: application/json'");
    parts.push(`--data-raw ${body}`);
  }
  return parts.join(' ');
}

/** A server's text quoted for a report: JSON-escaped (no control character survives), cut short. */
export function quote(text: string): string {
  const cut = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
  return JSON.stringify(cut);
}

/** `code "…", message "…"` of an Error body, or undefined when the body is none. */
export function errorSummary(res: HttpResponse): string | undefined {
  const body = res.body as { code?: unknown; message?: unknown } | undefined;
  if (body === null || typeof body !== 'object') return undefined;
  const parts: string[] = [];
  if (typeof body.code === 'string') parts.push(`code ${quote(body.code)}`);
  if (typeof body.message === 'string') parts.push(`message ${quote(body.message)}`);
  return parts.length === 0 ? undefined : parts.join(', ');
}
