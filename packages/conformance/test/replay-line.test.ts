import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  basicCredentialsOf,
  keyAppended,
  keysOneCharacterOff,
  keysWithWildcard,
  keyTruncated,
} from '../src/cases/key-variants.js';
import { type HttpRequest, KEY_VARIABLE, sentBytes } from '../src/http/client.js';
import {
  curlLine,
  errorSummary,
  keyBetween,
  keyCredential,
  literalCredential,
  QUOTE_MAX,
  quote,
} from '../src/http/replay.js';
import { answer } from './support/answer.js';

// The replay line a report prints for a failed check is run by a person in a shell: it must
// send what the kit sent, byte for byte, and hold the key only as the variable. Each line here
// is run by bash with `curl` as a function that writes the arguments it was given.

/** A key with characters a shell would expand or split, were it not quoted right. */
const KEY = 'k$y "x\\ `1`';

/** The arguments bash hands `curl` when it runs `line`, each as bytes. */
function curlArguments(line: string, key = KEY): Buffer[] {
  const written = execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${line}`], {
    env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8', [KEY_VARIABLE]: key },
  });
  const args: Buffer[] = [];
  let start = 0;
  for (let at = written.indexOf(0); at !== -1; at = written.indexOf(0, start)) {
    args.push(written.subarray(start, at));
    start = at + 1;
  }
  return args;
}

/** The curl arguments that send `request` to `url` as the kit's client sends it, the key in. */
function expectedArguments(request: HttpRequest, url: string): (string | Uint8Array)[] {
  const args: (string | Uint8Array)[] = ['-sS', '-i'];
  if (request.method === 'HEAD') args.push('--head');
  else if (request.method !== 'GET') args.push('-X', request.method);
  args.push(url);
  if (request.authorization !== null) {
    args.push('-H', `Authorization: ${request.authorization?.value ?? `Bearer ${KEY}`}`);
  }
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    args.push('-H', `${name}: ${value}`);
  }
  for (const [name, value] of Object.entries(request.keyHeaders ?? {})) {
    args.push('-H', `${name}: ${value.value}`);
  }
  if (request.withoutAccept) args.push('-H', 'Accept:');
  if (request.chunked) args.push('-H', 'Transfer-Encoding: chunked');
  const body = sentBytes(request);
  if (body !== undefined) {
    const typed = Object.keys(request.headers ?? {}).some((n) => /^content-type$/i.test(n));
    if (request.withoutContentType) args.push('-H', 'Content-Type:');
    else if (!typed) args.push('-H', 'Content-Type: application/json');
    args.push('--data-raw', body);
  }
  return args;
}

const TARGET = 'http://127.0.0.1:8080/v1/pets';

/** Runs `request`'s replay line in bash: curl is handed what the kit sent, the key in. */
function expectReplayed(request: HttpRequest, url: string, key = KEY): void {
  const line = curlLine(request, url);
  expect(line).not.toContain(key);
  const args = curlArguments(line, key);
  const expected = expectedArguments(request, url);
  expect(args.map((arg) => [...arg])).toEqual(
    expected.map((arg) => [...(typeof arg === 'string' ? Buffer.from(arg) : arg)]),
  );
}

describe('a replay line', () => {
  it.each<[string, HttpRequest, string?]>([
    ['a GET with the valid key', { method: 'GET', path: '/pets' }],
    ['a GET without a key', { method: 'GET', path: '/pets', authorization: null }],
    ['a POST of JSON', { method: 'POST', path: '/pets', json: { name: "Rex's", categoryId: 1 } }],
    [
      'a POST of JSON with a header that is no Content-Type',
      {
        method: 'POST',
        path: '/pets',
        json: { name: 'Rex' },
        headers: { 'Cache-Control': 'no-cache' },
      },
    ],
    [
      'a body with its own Content-Type, in lower case',
      { method: 'POST', path: '/pets', rawBody: '{}', headers: { 'content-type': 'text/plain' } },
    ],
    [
      'a body without a Content-Type',
      { method: 'POST', path: '/pets', rawBody: '{"a":1}', withoutContentType: true },
    ],
    [
      'a credential with characters a shell expands',
      {
        method: 'GET',
        path: '/pets',
        authorization: literalCredential('Bearer a"b$HOME`id`\\c'),
      },
    ],
    [
      'the key under another scheme, with a suffix',
      { method: 'GET', path: '/pets', authorization: keyCredential('Basic $', KEY, '"=') },
    ],
    [
      'headers with a quote, a control character and letters beyond ASCII',
      {
        method: 'GET',
        path: '/pets',
        headers: {
          'If-None-Match': `"it's"`,
          // Each escape followed by a hex digit, and a backslash before a letter.
          'X-Note': "é\u0001a猫éc🐈a\\n'",
          'Cache-Control': 'no-cache',
        },
      },
    ],
    ['a GET with no Accept', { method: 'GET', path: '/pets', withoutAccept: true }],
    [
      'the key itself in header fields other than Authorization',
      {
        method: 'GET',
        path: '/pets',
        authorization: null,
        headers: { 'Cache-Control': 'no-cache' },
        keyHeaders: {
          'X-API-Key': keyBetween(['', ''], KEY),
          Cookie: keyBetween(['a=', '; b="', '"'], KEY),
        },
      },
    ],
    [
      'the key itself in members of a body',
      {
        method: 'POST',
        path: '/pets',
        authorization: null,
        keyBody: keyBetween(['{"name":"it\'s","token":"', '","access_token":"', '"}'], KEY),
      },
    ],
    ['a chunked body', { method: 'POST', path: '/pets', rawBody: '{"name":"a"}', chunked: true }],
    [
      'bytes that are no UTF-8, a quote and a backslash among them',
      {
        method: 'POST',
        path: '/pets',
        rawBytes: new Uint8Array([0x7b, 0xc3, 0x28, 0x27, 0x5c, 0x0a, 0x01, 0x61, 0x7d]),
      },
    ],
    [
      'a body padded with white space',
      { method: 'POST', path: '/pets', rawBody: '{"a":1,"b":"\'"}', padding: 40 },
    ],
    [
      'a body nested deep',
      { method: 'POST', path: '/pets', rawBody: '{"a":[],"b":"\'"}', nesting: 50 },
    ],
    [
      'a TARGET with a quote, a space and a letter beyond ASCII',
      { method: 'GET', path: "/pets?name=it's é" },
      "http://127.0.0.1:8080/v1/pets?name=it's é",
    ],
  ])('sends what the kit sent: %s', (_, request, url = TARGET) => {
    expectReplayed(request, url);
  });

  it.each([
    ['a key a shell would expand', KEY],
    ["a key with base64's padding", 'q83vEjRWeJCrze8SNFZ4kA=='],
  ])('sends the credentials made from %s as the kit sent them', (_, key) => {
    const credentials = [
      ...keysOneCharacterOff(key).map((bad) => bad.authorization),
      ...keysWithWildcard(key).map((bad) => bad.authorization),
      keyAppended(key),
      keyTruncated(key),
      basicCredentialsOf(key),
      basicCredentialsOf(key, ''),
      basicCredentialsOf(key, 'apikey'),
    ];
    expect(credentials).toHaveLength(9);
    for (const authorization of credentials) {
      expectReplayed({ method: 'GET', path: '/pets', authorization }, TARGET, key);
    }
  });

  it('names the key only as the variable', () => {
    const line = curlLine(
      { method: 'GET', path: '/pets', authorization: keyCredential('Bearer ', 'secret-key') },
      TARGET,
    );
    expect(line).toContain(`-H "Authorization: Bearer \${${KEY_VARIABLE}}"`);
    expect(line).not.toContain('secret-key');
    expect(curlLine({ method: 'GET', path: '/pets' }, TARGET)).toContain(
      `-H "Authorization: Bearer $${KEY_VARIABLE}"`,
    );
  });

  it('starts with curl and asks for the answer’s headers, the method only when not GET', () => {
    expect(curlLine({ method: 'GET', path: '/pets' }, TARGET)).toMatch(/^curl -sS -i 'http/);
    expect(curlLine({ method: 'POST', path: '/pets', json: {} }, TARGET)).toMatch(
      /^curl -sS -i -X POST 'http/,
    );
  });

  it('sends HEAD with --head, which reads no body, never -X HEAD, which waits for one', () => {
    const line = curlLine({ method: 'HEAD', path: '/pets' }, TARGET);
    expect(line).toMatch(/^curl -sS -i --head 'http/);
    expect(line).not.toContain('-X');
  });

  it('writes a short body as one quoted word', () => {
    expect(curlLine({ method: 'POST', path: '/pets', rawBody: '{"a":1,"b":2}' }, TARGET)).toMatch(
      / --data-raw '\{"a":1,"b":2\}'$/,
    );
  });
});

describe('a quoted server text', () => {
  it('is JSON-escaped and kept whole up to its limit', () => {
    expect(quote('a"b\n\u0007')).toBe('"a\\"b\\n\\u0007"');
    const longest = 'x'.repeat(QUOTE_MAX);
    expect(quote(longest)).toBe(JSON.stringify(longest));
  });

  it('is cut after its limit, and says so', () => {
    expect(QUOTE_MAX).toBe(200);
    expect(quote('y'.repeat(QUOTE_MAX + 1))).toBe(JSON.stringify(`${'y'.repeat(QUOTE_MAX)}…`));
  });
});

describe('an Error body’s summary', () => {
  const summary = (text: string) => errorSummary(answer({ path: '/pets', status: 400, text }));

  it('gives the code and the message that are strings, quoted', () => {
    expect(summary('{"code":"bad","message":"no \\"x\\"","status":400}')).toBe(
      'code "bad", message "no \\"x\\""',
    );
    expect(summary('{"code":"bad","message":7}')).toBe('code "bad"');
    expect(summary('{"message":"no"}')).toBe('message "no"');
  });

  it('is none for a body with neither, and for one that is no object', () => {
    expect(summary('{"code":1,"message":null}')).toBeUndefined();
    expect(summary('null')).toBeUndefined();
    expect(summary('"code"')).toBeUndefined();
    expect(summary('')).toBeUndefined();
  });
});
