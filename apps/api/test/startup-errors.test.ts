import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** Starts the built service with `env`; resolves with its exit status and output once it ends. */
function start(env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [MAIN],
      { env: { PATH: process.env.PATH ?? '', PORT: '0', ...env }, timeout: 5 * 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

const SECRET = 's3cretPa55word';

// One bad value per variable of the README's Configuration table. `secret` is part of the value
// and must not appear in what the process prints.
const BAD: readonly [variable: string, value: string, says: RegExp][] = [
  ['PORT', '70000', /PORT must be an integer from 0 to 65535/],
  ['HOST', 'no such host', /failed to start: getaddrinfo ENOTFOUND no such host/],
  ['API_KEYS', `sha256:zz,${SECRET}`, /API_KEYS entry 1 is not a valid sha256/],
  ['API_KEY_CACHE_MS', '-5', /API_KEY_CACHE_MS must be an integer/],
  ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
  ['MONGODB_URI', `mysql://root:${SECRET}@db/`, /MONGODB_URI must start with mongodb:\/\//],
  [
    'MONGODB_URI',
    `mongodb://root:${SECRET}@host:99999999/x`,
    /MONGODB_URI is not a usable MongoDB connection string/,
  ],
  [
    'MONGODB_URI',
    `mongodb://root:${SECRET}@@/`,
    /MONGODB_URI is not a usable MongoDB connection string/,
  ],
  [
    'MONGODB_URI',
    `mongodb://root:${SECRET}@127.0.0.1:1/?w=1&readPreference=nearest`,
    /configuration error: MONGODB_URI asks for w=1 .* and readPreference=nearest .*MONGODB_ALLOW_WEAK_CONSISTENCY=true$/,
  ],
  ['MONGODB_URI_FILE', '/nonexistent/uri', /MONGODB_URI_FILE cannot be read: ENOENT/],
  ['MONGODB_ALLOW_WEAK_CONSISTENCY', 'yes', /MONGODB_ALLOW_WEAK_CONSISTENCY must be true or false/],
  ['API_KEYS_FILE', '/nonexistent/keys', /API_KEYS_FILE cannot be read: ENOENT/],
  ['METRICS_TOKEN_FILE', '/nonexistent/token', /METRICS_TOKEN_FILE cannot be read: ENOENT/],
  ['MONGODB_DB', 'no/slashes', /MONGODB_DB must be 1-63 letters/],
  ['OBSERVE_PROBES', 'on', /OBSERVE_PROBES must be true or false/],
  ['STORE_TIMEOUT_MS', '5s', /STORE_TIMEOUT_MS must be an integer from 100/],
  ['STORE_MAX_IN_FLIGHT', '0', /STORE_MAX_IN_FLIGHT must be an integer from 1/],
  ['BODY_LIMIT_BYTES', '0', /BODY_LIMIT_BYTES must be an integer from 1/],
  ['SHUTDOWN_TIMEOUT_MS', 'soon', /SHUTDOWN_TIMEOUT_MS must be an integer/],
  ['DRAIN_DELAY_MS', 'later', /DRAIN_DELAY_MS must be an integer/],
  ['RATE_LIMIT_REQUESTS', '1.5', /RATE_LIMIT_REQUESTS must be an integer/],
  ['RATE_LIMIT_SCOPE', 'cluster', /RATE_LIMIT_SCOPE=cluster shares the limit through MongoDB/],
  ['RATE_LIMIT_WINDOW_SECONDS', '0', /RATE_LIMIT_WINDOW_SECONDS must be an integer from 1/],
  ['MAX_URL_BYTES', '100', /MAX_URL_BYTES must be an integer from 256/],
  ['MAX_HEADER_BYTES', '10', /MAX_HEADER_BYTES must be an integer from 1024/],
  [
    'HEADERS_TIMEOUT_MS',
    '40000',
    /HEADERS_TIMEOUT_MS \(40000\) must not exceed REQUEST_TIMEOUT_MS/,
  ],
  ['REQUEST_TIMEOUT_MS', '1', /REQUEST_TIMEOUT_MS must be an integer from 1000/],
  ['BODY_TIMEOUT_MS', '1', /BODY_TIMEOUT_MS must be an integer from 100/],
  ['KEEP_ALIVE_TIMEOUT_MS', 'x', /KEEP_ALIVE_TIMEOUT_MS must be an integer/],
  ['MAX_CONNECTIONS', '0', /MAX_CONNECTIONS must be an integer from 1/],
  ['METRICS_TOKEN', `${SECRET} with spaces`, /METRICS_TOKEN must be at least 16 characters/],
  ['CORS_ORIGINS', 'https://app.example/path', /CORS_ORIGINS entries are origins/],
];

describe('a bad value in the configuration', () => {
  // Each case is its own process and shares nothing: they start side by side.
  it.concurrent.each(
    BAD,
  )('%s=%j stops the start with one line on stderr and exit 1', async (name, value, says) => {
    const { code, stderr } = await start({ [name]: value });
    // What the process printed, in every failure's message.
    expect(code, stderr).toBe(1);
    const lines = stderr.split('\n').filter((line) => line !== '');
    // A key may be generated before a late failure (HOST): the error is the last line, and one.
    const last = lines.at(-1) ?? '';
    expect(last, stderr).toMatch(/^animal-store-api: /);
    expect(last, stderr).toMatch(says);
    expect(lines.filter((line) => /animal-store-api: /.test(line))).toHaveLength(1);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain(SECRET);
  });

  it('covers every variable of the README’s Configuration table', () => {
    const start = README.indexOf('## Configuration');
    const table = README.slice(start, README.indexOf('\n## ', start));
    const documented = [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.length).toBeGreaterThan(15);
    expect([...new Set(BAD.map(([name]) => name))].sort()).toEqual([...new Set(documented)].sort());
  });
});
