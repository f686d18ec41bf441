// What keeps the traffic judge from false alarms, on small HAR files written here: exchanges that
// are not the spec's are left alone, answers are related only under one key and only while
// nothing outside the spec may change pets, a 429 is never judged, secrets never show.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GET_PET_DEPRECATION_HEADERS, LIMIT_DEFAULT } from '@animal-store/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import { advised, failed } from './support/run-kit.js';
import { scratch } from './support/traffic.js';

const files = scratch();
afterAll(() => files.remove());

const BASE = 'http://127.0.0.1:9/v1';
const KEY = 'Bearer har-key-0123456789';
let clock = Date.parse('2026-01-01T00:00:00Z');

interface Entry {
  method?: string;
  url: string;
  auth?: string | null;
  sent?: unknown;
  /** The request body exactly as sent (for a body that is no JSON); else `sent` as JSON. */
  sentText?: string;
  /** The request body's bytes, recorded base64-encoded (for bytes that are no UTF-8). */
  sentBytes?: Buffer;
  status: number;
  body?: unknown;
  /** A body that is no JSON, sent as text/plain. */
  text?: string;
  /** Leaves the answer's body out, as some recorders do. */
  noBody?: boolean;
  /** Records the answer's body base64-encoded, as recorders keep bytes. */
  base64?: boolean;
  /** Request headers beside Authorization. */
  requestHeaders?: Record<string, string>;
  /** The request's `bodySize`, as a recorder writes it. */
  bodySize?: number;
  /** Chrome's `_fromCache` mark: the browser answered from its cache. */
  fromCache?: string;
  /** Milliseconds after the entry before it that it was sent, beyond the usual 10. */
  after?: number;
  headers?: Record<string, string>;
}

/** An answer's `content` as recorders write it: its size in bytes, and its text. */
function contentOf(text: string, base64: boolean) {
  const bytes = Buffer.from(text);
  return base64
    ? { size: bytes.length, text: bytes.toString('base64'), encoding: 'base64' }
    : { size: bytes.length, text };
}

/** A HAR file of `entries`, one after another, 5 ms each. */
function har(name: string, entries: Entry[]): string {
  const path = join(files.path, `${name}.har`);
  const list = entries.map((e) => {
    clock += 10 + (e.after ?? 0);
    const auth = e.auth === undefined ? KEY : e.auth;
    return {
      ...(e.fromCache === undefined ? {} : { _fromCache: e.fromCache }),
      startedDateTime: new Date(clock).toISOString(),
      time: 5,
      request: {
        method: e.method ?? 'GET',
        url: e.url,
        headers: [
          ...(auth === null ? [] : [{ name: 'Authorization', value: auth }]),
          ...Object.entries(e.requestHeaders ?? {}).map(([name, value]) => ({ name, value })),
        ],
        ...(e.bodySize === undefined ? {} : { bodySize: e.bodySize }),
        ...(e.sentBytes === undefined
          ? {}
          : {
              postData: {
                mimeType: 'application/json',
                text: e.sentBytes.toString('base64'),
                encoding: 'base64',
              },
            }),
        ...(e.sent === undefined && e.sentText === undefined
          ? {}
          : {
              postData: {
                mimeType: 'application/json',
                text: e.sentText ?? JSON.stringify(e.sent),
              },
            }),
      },
      response: {
        status: e.status,
        headers: [
          // The entry's own Content-Type, when it gives one, stands alone.
          ...(Object.keys(e.headers ?? {}).some((name) => /^content-type$/i.test(name))
            ? []
            : [
                {
                  name: 'Content-Type',
                  value: e.text === undefined ? 'application/json' : 'text/plain',
                },
              ]),
          ...Object.entries(e.headers ?? {}).map(([name, value]) => ({ name, value })),
        ],
        content: e.noBody
          ? { size: 120, mimeType: 'application/json', text: '' }
          : contentOf(e.text ?? JSON.stringify(e.body), e.base64 ?? false),
      },
    };
  });
  writeFileSync(path, JSON.stringify({ log: { version: '1.2', entries: list } }));
  return path;
}

interface JsonReport {
  verdict: string;
  results: { id: string; outcome: string; message: string }[];
  traffic: Record<string, unknown> & { exercised: string[] };
}

async function judge(file: string) {
  const run = await runCli(['judge', '--har', file, '--reporter', 'json']);
  return { ...run, report: JSON.parse(run.stdout || '{}') as JsonReport };
}

/** The report's result of check `id`. */
const result = (report: JsonReport, id: string) => report.results.find((r) => r.id === id);

/** Each failed check of a report, as `id: message`. */
const messages = (report: JsonReport) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.message}`);

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const created: Entry = {
  method: 'POST',
  url: `${BASE}/pets`,
  sent: { name: 'Rex', categoryId: 1, status: 'available' },
  status: 201,
  body: rex,
};
const JSON_BODY = { 'Content-Type': 'application/json' };
/** The id of the next pet `post` answers created: each create gives an id of its own. */
let postedId = 1000;
/** A createPet request with `text` as its application/json body, answered `status`. */
const post = (text: string, status = 201, extra: Partial<Entry> = {}): Entry => ({
  ...created,
  sent: undefined,
  sentText: text,
  requestHeaders: { ...JSON_BODY, 'Content-Length': String(Buffer.byteLength(text)) },
  status,
  body:
    status === 400
      ? { code: 'validation_failed', message: 'no', status: 400 }
      : { ...rex, id: postedId++ },
  ...extra,
});
/** The pet `created` made, asked for and not found. */
const gone: Entry = {
  url: `${BASE}/pets/1`,
  status: 404,
  body: { code: 'not_found', message: 'no', status: 404 },
};

describe('judge --har on what a shared cache may keep', () => {
  it('advises on a success to a request with Authorization marked public, and on no other', async () => {
    const shared = { 'Cache-Control': 'public, max-age=60' };
    const { report } = await judge(
      har('public-answers', [
        { url: `${BASE}/pets?limit=1`, status: 200, body: [rex], headers: shared },
        // Without a key: a public answer is the server's to give (a 401 would be the fault).
        { url: `${BASE}/pets/1`, auth: null, status: 200, body: rex, headers: shared },
        { url: `${BASE}/pets/1`, status: 200, body: rex, headers: { 'Cache-Control': 'private' } },
      ]),
    );
    expect(result(report, 'errors.keyed-answers-private')).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^GET \/pets\?limit=1 answered 200: Cache-Control "public, max-age=60" lets a shared cache give this answer to requests without the key/,
      ),
    });
    expect(result(report, 'errors.keyed-answers-private')?.message).not.toMatch(/and 1 more/);
  });
});

describe('judge --har leaves alone what the spec does not speak of', () => {
  it("leaves alone a refusal of a request head over 4 KiB, as nginx's page for a large cookie", async () => {
    const page = '<html><head><title>400 Request Header Or Cookie Too Large</title></head></html>';
    const keyless = (cookie: string): Entry => ({
      url: `${BASE}/pets?limit=1`,
      auth: null,
      requestHeaders: { Cookie: `session=${cookie}` },
      status: 400,
      text: page,
    });
    const listed: Entry = { url: `${BASE}/pets?limit=1`, status: 200, body: [rex] };
    const large = await judge(har('head-too-large', [listed, keyless('c'.repeat(9000))]));
    expect(failed(large.report)).toEqual([]);
    expect(large.report.traffic).toMatchObject({ judged: 1, headTooLarge: 1 });
    // The head as HTTP/1.1 writes it: the request line, each header line, the empty line.
    const overhead = 'GET /v1/pets?limit=1 HTTP/1.1\r\n'.length + 'Cookie: session=\r\n'.length + 2;
    const at = await judge(har('head-at-limit', [listed, keyless('c'.repeat(4096 - overhead))]));
    expect(at.report.traffic).toMatchObject({ judged: 2, headTooLarge: 0 });
    const over = await judge(har('head-over', [listed, keyless('c'.repeat(4097 - overhead))]));
    expect(over.report.traffic).toMatchObject({ judged: 1, headTooLarge: 1 });
    // A smaller head is judged: an error page is no Error (a cookie, which a server may refuse a
    // request for, leaves the 400 itself alone).
    const small = await judge(har('head-small', [listed, keyless('c'.repeat(3000))]));
    expect(failed(small.report)).toEqual(['errors.json-body']);
  });

  it('leaves alone a part of a body a Range asked for, and no body where Prefer asked for none', async () => {
    const part: Entry = {
      url: `${BASE}/pets?limit=5`,
      requestHeaders: { Range: 'bytes=0-20' },
      status: 206,
      text: '[{"id":1,"name":"Rex"',
      headers: { 'Content-Type': 'application/json', 'Content-Range': 'bytes 0-20/60' },
    };
    const outOfRange: Entry = {
      url: `${BASE}/pets/1`,
      requestHeaders: { Range: 'bytes=900-' },
      status: 416,
      text: '',
      headers: { 'Content-Range': 'bytes */60' },
    };
    const minimal: Entry = {
      method: 'POST',
      url: `${BASE}/pets`,
      sent: { name: 'Rex', categoryId: 1 },
      requestHeaders: { Prefer: 'return=minimal' },
      status: 201,
      text: '',
      headers: { Location: '/v1/pets/1', 'Preference-Applied': 'return=minimal' },
    };
    const listed: Entry = { url: `${BASE}/pets?limit=1`, status: 200, body: [rex] };
    const asked = await judge(har('asked-otherwise', [listed, part, outOfRange, minimal]));
    expect(failed(asked.report)).toEqual([]);
    expect(asked.report.traffic).toMatchObject({ judged: 1, otherPaths: 3 });
    // Without the client's asking, each is the server's own answer, judged.
    const unasked = [part, outOfRange, minimal].map(({ requestHeaders: _, ...entry }) => entry);
    const judged = await judge(har('unasked', unasked));
    expect(failed(judged.report)).toEqual(
      expect.arrayContaining(['errors.success-status', 'errors.pet-fields']),
    );
    // Asked for without a key: a success is the auth rules' to fail, whatever was asked.
    const keyless = await judge(har('asked-keyless', [listed, { ...part, auth: null }]));
    expect(failed(keyless.report)).toContain('auth.listPets.missing-header');
  });

  it("leaves alone a refusal of a request head of over 100 header fields, as haproxy's page", async () => {
    const page =
      '<html><body><h1>400 Bad request</h1>\nYour browser sent an invalid request.\n</body></html>';
    const keyless = (fields: number): Entry => ({
      url: `${BASE}/pets?limit=1`,
      auth: null,
      requestHeaders: Object.fromEntries(
        Array.from({ length: fields }, (_, i) => [`X-Trace-${i}`, 'x']),
      ),
      status: 400,
      text: page,
    });
    const listed: Entry = { url: `${BASE}/pets?limit=1`, status: 200, body: [rex] };
    const over = await judge(har('fields-over', [listed, keyless(101)]));
    expect(failed(over.report)).toEqual([]);
    expect(over.report.traffic).toMatchObject({ judged: 1, headTooLarge: 1 });
    // 100 fields are judged: the request line aside, the keyless request holds only these.
    const at = await judge(har('fields-at-limit', [listed, keyless(100)]));
    expect(at.report.traffic).toMatchObject({ judged: 2, headTooLarge: 0 });
    expect(failed(at.report)).toEqual(['errors.json-body']);
  });

  it("leaves alone the server's own routes whose paths end as the spec's do", async () => {
    // /pets and /pets/{petId} right below the base are the spec's; a route between is the server's.
    const file = har('own-routes', [
      { url: `${BASE}/pets?limit=1`, status: 200, body: [rex] },
      { url: `${BASE}/pets/1`, status: 200, body: rex },
      { url: `${BASE}/admin/pets/not-a-number`, status: 200, body: rex },
      {
        method: 'POST',
        url: `${BASE}/shops/7/pets`,
        sent: { colour: 'red' },
        status: 201,
        body: {},
      },
    ]);
    const { report, exitCode } = await judge(file);
    expect(failed(report)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.traffic).toMatchObject({ exchanges: 4, judged: 2, otherPaths: 2 });
  });

  it('counts other hosts, other paths, 429s and 503s, and judges none of them', async () => {
    const file = har('others', [
      { url: 'http://elsewhere.example/v1/pets', status: 500, text: 'boom' },
      { url: 'http://elsewhere.example/v1/pets/2', status: 503, text: 'down' },
      { url: `${BASE}/health`, status: 503, text: 'starting' },
      { method: 'OPTIONS', url: `${BASE}/pets`, status: 204, text: '' },
      { url: `${BASE}/pets?limit=1`, status: 429, text: 'slow down' },
      {
        url: `${BASE}/pets?limit=2`,
        status: 503,
        body: { code: 'service_unavailable', message: 'the database is down', status: 503 },
        headers: { 'retry-after': '1' },
      },
      { url: `${BASE}/pets?limit=1&api_key=url-key-9876543210`, status: 200, body: [rex] },
    ]);
    const { report, exitCode, stdout } = await judge(file);
    expect(failed(report)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.traffic).toMatchObject({
      exchanges: 7,
      judged: 1,
      otherHosts: 2,
      otherPaths: 2,
      rateLimited: 1,
      unavailable: 1,
    });
    expect(stdout).not.toContain('url-key-9876543210');
    expect(stdout).not.toContain('har-key-0123456789');
    // The Markdown report (a job summary) says what the traffic held and exercised too.
    const markdown = await runCli(['judge', '--har', file, '--reporter', 'markdown']);
    expect(markdown.stdout).toMatch(
      /\n- traffic of HAR file .*others\.har: 7 exchanges, 1 of the spec's operations judged \(left alone: 2 with other hosts, 2 of other paths or methods, 1 answered 429, 1 answered 503\)\n/,
    );
    expect(markdown.stdout).toMatch(/\n- Exercised \(\d+\): .*listPets\.at-most-limit/);
    expect(markdown.stdout).not.toContain('url-key-9876543210');
    // So do the HTML page and the JUnit file, escaped their ways.
    const html = await runCli(['judge', '--har', file, '--reporter', 'html']);
    expect(html.stdout).toMatch(
      /<li>traffic of HAR file .*others\.har: 7 exchanges, 1 of the spec&#39;s operations judged \(left alone: 2 with other hosts, 2 of other paths or methods, 1 answered 429, 1 answered 503\)<\/li>/,
    );
    expect(html.stdout).toMatch(/<li>Exercised \(\d+\): .*listPets\.at-most-limit/);
    expect(html.stdout).not.toContain('Created no pets');
    const junit = await runCli(['judge', '--har', file, '--reporter', 'junit']);
    expect(junit.stdout).toMatch(
      /TRAFFIC: traffic of HAR file .*others\.har: 7 exchanges, 1 of the spec&apos;s operations judged/,
    );
    expect(junit.stdout).toMatch(/TRAFFIC: Not exercised \(\d+\): /);
    for (const text of [html.stdout, junit.stdout]) {
      expect(text).not.toContain('url-key-9876543210');
      expect(text).not.toContain('har-key-0123456789');
    }
  });

  it('hides every key the requests carried, even where a failing answer echoes it', async () => {
    const secrets = [
      'har-key-0123456789',
      'proxy-token-5555',
      'url-key-9876543210',
      'access-token-4444',
      'signed-3333',
    ];
    const file = har('echo', [
      {
        url: `${BASE}/pets?limit=1&api_key=${secrets[2]}&access_token=${secrets[3]}&sig=${secrets[4]}`,
        requestHeaders: { 'Proxy-Authorization': `Basic ${secrets[1]}` },
        status: 500,
        body: { code: 'internal_error', message: `broke on ${secrets.join(' ')}`, status: 500 },
      },
    ]);
    for (const reporter of ['json', 'pretty', 'markdown', 'junit', 'html']) {
      const { stdout, exitCode } = await runCli(['judge', '--har', file, '--reporter', reporter]);
      expect(exitCode, reporter).toBe(1);
      expect(stdout, reporter).toContain('broke on [redacted key]');
      for (const secret of secrets) expect(stdout, `${reporter}: ${secret}`).not.toContain(secret);
    }
  });

  it.each([
    ['a $ in a bearer token', 'Bearer sk$live$Secret42', 'Secret42'],
    ['a $ under another scheme', 'Token pa$$w0rd-XYZ', 'w0rd'],
    [
      'quotes and a $ in auth-params',
      'Digest username="bob", response="6629fae4$9393a0539"',
      '9393a0',
    ],
    ['backticks', "ApiKey abc`def`ghi'jkl", 'def'],
    ['credentials too short to hide alone', 'Basic YWI', 'YWI'],
  ])('hides credentials with %s in replay lines, where the shell escapes them', async (_, auth, part) => {
    const failing = { code: 'internal_error', message: 'broke', status: 500 };
    const file = har(`shell-${auth.length}`, [
      { url: `${BASE}/pets`, auth, status: 500, body: failing },
    ]);
    for (const reporter of ['json', 'pretty']) {
      const { stdout } = await runCli(['judge', '--har', file, '--reporter', reporter]);
      expect(stdout, reporter).toContain('Authorization: ');
      expect(stdout, reporter).not.toContain(part);
    }
  });

  it("hides no scheme's name: replay lines after a request with Bearer alone stay runnable", async () => {
    const refusal = { code: 'unauthorized', message: 'no key', status: 401 };
    const file = har('schemes', [
      { url: `${BASE}/pets?limit=1`, auth: 'Bearer', status: 401, body: refusal },
      { url: `${BASE}/pets?limit=1`, auth: 'basic', status: 401, body: refusal },
      // A key sent with no scheme is one word too, and stays hidden.
      { url: `${BASE}/pets?limit=1`, auth: 'rawkey-0123456789', status: 401, body: refusal },
      {
        url: `${BASE}/pets?limit=1`,
        status: 500,
        body: { code: 'internal_error', message: 'broke on rawkey-0123456789', status: 500 },
      },
    ]);
    const { report } = await judge(file);
    const message = result(report, 'errors.no-server-errors')?.message;
    expect(message).toContain('-H "Authorization: Bearer $ANIMAL_STORE_API_KEY"');
    expect(message).toContain('broke on [redacted key]');
    expect(JSON.stringify(report)).not.toContain('rawkey-0123456789');
  });

  it('reports when the traffic ran, every rule as exercised or not, and its verdict', async () => {
    const over: Entry = {
      url: `${BASE}/pets?limit=1`,
      status: 200,
      body: [rex, { ...rex, id: 2 }],
    };
    const first = clock + 10;
    const { report } = await judge(har('span', [over, over]));
    const full = report as unknown as JsonReport & {
      startedAt: string;
      durationMs: number;
      ok: boolean;
      groups: string[];
      traffic: { notExercised: string[] };
    };
    // Two exchanges 10 ms apart, each answered in 5 ms.
    expect(full.startedAt).toBe(new Date(first).toISOString());
    expect(full.durationMs).toBe(15);
    expect(full).toMatchObject({ verdict: 'fail', ok: false });
    expect(result(report, 'listPets.at-most-limit')?.message).toMatch(
      /^GET \/pets\?limit=1 answered 200: 2 pets, more than limit 1 \(and 1 more\)\nreplay: curl /,
    );
    const { exercised, notExercised } = full.traffic;
    expect([...exercised, ...notExercised].sort()).toEqual(report.results.map((r) => r.id).sort());
    expect(exercised.filter((id) => notExercised.includes(id))).toEqual([]);
    expect(notExercised).toContain('errors.json-body');
    // A check's group is its id's first part.
    const groups = new Set(report.results.map((r) => r.id.split('.')[0]));
    expect([...full.groups].sort()).toEqual([...groups].sort());
    expect(result(report, 'errors.strict-json')?.message).toBe('2 exchanges judged');
    // A rule that reads keys was not exercised: the recording kept them, so nothing else is said.
    expect(result(report, 'auth.listPets.missing-header')?.message).toMatch(
      /^not exercised: the traffic holds no [a-z]/,
    );
    expect(result(report, 'errors.json-body')?.message).toBe(
      'not exercised: the traffic holds no error answer (4xx, 5xx)',
    );
    // What a run of the kit reports and traffic has none of is there, empty.
    expect(full).toMatchObject({
      readOnly: false,
      hints: [],
      inputs: { categoryIds: [], namePrefix: '', settleMs: 0 },
      created: { count: 0, namePrefix: '', ids: [] },
      requests: [over, over].map(() => ({
        method: 'GET',
        path: '/pets?limit=1',
        status: 200,
        ms: 5,
      })),
    });
    const passing = await judge(har('span-ok', [{ ...over, body: [rex] }]));
    expect(passing.report).toMatchObject({ verdict: 'pass', ok: true });
    expect(result(passing.report, 'listPets.at-most-limit')?.message).toBe('1 exchange judged');
  });

  it('counts an exchange that got no answer apart from one the browser answered itself', async () => {
    const { report } = await judge(
      har('unanswered', [
        { url: `${BASE}/pets?limit=1`, status: 200, body: [rex] },
        { url: `${BASE}/pets?limit=2`, status: 0, text: '' },
        { url: `${BASE}/pets?limit=3`, status: 200, body: [rex], fromCache: 'memory' },
      ]),
    );
    expect(report.traffic).toMatchObject({ exchanges: 3, judged: 1, notAnswered: 1, fromCache: 1 });
  });

  it('writes each report named with a file there, and exits 2 naming a file it cannot write', async () => {
    const over: Entry = {
      url: `${BASE}/pets?limit=1`,
      status: 200,
      body: [rex, { ...rex, id: 2 }],
    };
    const file = har('to-files', [over]);
    const json = join(files.path, 'report.json');
    const junit = join(files.path, 'report.xml');
    const run = await runCli(['judge', '--har', file, '--reporter', `json:${json},junit:${junit}`]);
    expect(run.exitCode).toBe(1);
    // No report names stdout: the pretty one goes there.
    expect(run.stdout).toContain('listPets.at-most-limit');
    expect(run.stdout).not.toMatch(/^\{/);
    const written = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(failed(written)).toContain('listPets.at-most-limit');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml /);
    expect(xml).toContain('listPets.at-most-limit');

    const missing = join(files.path, 'no-such-folder', 'report.json');
    const refused = await runCli(['judge', '--har', file, '--reporter', `json:${missing}`]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`cannot write the report to ${missing}: .*ENOENT`));
  });

  it('stops relating answers once the traffic holds an operation that may change pets', async () => {
    // A pet created, then not found: advised, as an operation the spec does not show, or another
    // client, may have deleted it.
    const without = await judge(har('lost', [created, gone]));
    expect(failed(without.report)).toEqual([]);
    expect(advised(without.report)).toContain('errors.same-pet');
    expect(result(without.report, 'errors.same-pet')?.message).toMatch(
      /pet 1, created by this run, is not found/,
    );
    const deleted = await judge(
      har('deleted', [
        created,
        { method: 'DELETE', url: `${BASE}/pets/1`, status: 204, text: '' },
        gone,
      ]),
    );
    expect(advised(deleted.report)).not.toContain('errors.same-pet');
    expect(deleted.report.traffic.petsChangedBy).toBe('DELETE /pets/1');
    const between = (name: string, write: Entry) => judge(har(name, [created, write, gone]));
    // Any request but a safe one to a path of the server's that is none of the spec's may change
    // pets: an update elsewhere, Petstore's form POST to /pets/{id}, a store order.
    for (const [method, url, changedBy] of [
      ['DELETE', 'http://127.0.0.1:9/v2/pets', 'DELETE /v2/pets'],
      ['POST', `${BASE}/pets/1`, 'POST /pets/1'],
      ['POST', `${BASE}/store/order`, 'POST /store/order'],
      ['PUT', `${BASE}/sessions/1`, 'PUT /sessions/1'],
    ] as const) {
      const write = await between(`write-${method}-${changedBy.replace(/\W/g, '')}`, {
        method,
        url,
        status: 200,
        body: {},
      });
      expect(advised(write.report), `${method} ${url}`).not.toContain('errors.same-pet');
      expect(write.report.traffic.petsChangedBy).toBe(changedBy);
    }
    // So may one the server never answered (it may have been carried out), but a create.
    const unanswered = await between('unanswered-delete', {
      method: 'DELETE',
      url: `${BASE}/pets/1`,
      status: 0,
      text: '',
    });
    expect(advised(unanswered.report)).not.toContain('errors.same-pet');
    expect(unanswered.report.traffic.petsChangedBy).toBe('DELETE /pets/1');
    // A safe request anywhere, a create, a create never answered or another host's change does not.
    for (const [method, url, status] of [
      ['GET', 'http://127.0.0.1:9/v2/pets', 200],
      ['OPTIONS', `${BASE}/pets/1`, 204],
      ['POST', `${BASE}/pets`, 0],
      ['DELETE', 'http://elsewhere.example/v1/pets/1', 204],
      ['DELETE', 'http://elsewhere.example/v1/pets/1', 0],
    ] as const) {
      const kept = await between(`kept-${method}-${status}-${new URL(url).host}`, {
        method,
        url,
        status,
        text: '',
      });
      expect(advised(kept.report), `${method} ${url} ${status}`).toContain('errors.same-pet');
      expect(kept.report.traffic.petsChangedBy).toBeUndefined();
    }
  });

  it('relates answers only under one key: another key may see other pets', async () => {
    const renamed: Entry = { url: `${BASE}/pets/1`, status: 200, body: { ...rex, name: 'Max' } };
    const sameKey = await judge(har('same-key', [created, renamed]));
    expect(failed(sameKey.report)).not.toContain('errors.same-pet');
    expect(advised(sameKey.report)).toContain('errors.same-pet');
    const otherKey = await judge(
      har('other-key', [created, { ...renamed, auth: 'Bearer another-key-42' }]),
    );
    expect(failed(otherKey.report)).toEqual([]);
    expect(advised(otherKey.report)).not.toContain('errors.same-pet');
  });

  it('relates no answers under a placeholder a sanitizer put for every key', async () => {
    const renamed: Entry = { url: `${BASE}/pets/1`, status: 200, body: { ...rex, name: 'Max' } };
    for (const placeholder of ['[REDACTED]', 'Bearer [REDACTED]', 'Bearer ***', '<hidden>']) {
      const hidden = await judge(
        har('placeholder', [
          { ...created, auth: placeholder },
          { ...renamed, auth: placeholder },
        ]),
      );
      expect(failed(hidden.report), placeholder).toEqual([]);
      expect(advised(hidden.report), placeholder).not.toContain('errors.same-pet');
    }
    // Credentials of every shape RFC 9110 writes are keys: their answers are related.
    for (const key of ['Bearer a.b-c_d~e+f/g==', 'Basic dXNlcjpwYXNz', 'Digest username="u"']) {
      const related = await judge(
        har('credentials', [
          { ...created, auth: key },
          { ...renamed, auth: key },
        ]),
      );
      expect(failed(related.report), key).not.toContain('errors.same-pet');
      expect(advised(related.report), key).toContain('errors.same-pet');
    }
  });

  it('holds a server to a name sent as Unicode, and not to one holding an unpaired surrogate', async () => {
    // RFC 8259 §8.2 leaves a string holding an unpaired surrogate to each implementation: one may
    // store U+FFFD in its place. A name of Unicode characters comes back exactly as sent.
    const sent = (name: string): Entry => ({
      ...created,
      sent: { name, categoryId: 1, status: 'available' },
      body: { ...rex, name: `Rex\uFFFD` },
    });
    const unpaired = await judge(har('unpaired-surrogate', [sent('Rex\uD800')]));
    expect(failed(unpaired.report)).toEqual([]);
    expect(unpaired.report.traffic.exercised).toContain('errors.created-pets-agree');
    const unicode = await judge(har('unicode-name', [sent('Rex\u00D1')]));
    expect(failed(unicode.report)).toEqual(['errors.created-pets-agree']);
    expect(result(unicode.report, 'errors.created-pets-agree')?.message).toContain(
      'the 201 body of pet 1 has name "Rex�", sent "RexÑ"',
    );
  });

  it('leaves alone what a body that repeats a member name sent: receivers differ on which wins', async () => {
    // RFC 8259 §4: many receivers keep the last of two members of one name, others the first,
    // others refuse the object. Each entry holds to the spec read either way but one.
    const repeated = (sentText: string, body: Record<string, unknown>): Entry => ({
      ...created,
      sent: undefined,
      sentText,
      requestHeaders: {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(sentText)),
      },
      body: { ...rex, ...body },
    });
    const file = har('repeated-members', [
      repeated('{"name":"Rex","name":"Max","categoryId":1,"categoryId":2}', {}),
      repeated('{"name":"Rex","name":7,"categoryId":1}', { id: 2 }),
    ]);
    const { report } = await judge(file);
    expect(failed(report)).toEqual([]);
    // Read the last way alone, each would fail.
    const single = har('single-members', [
      repeated('{"name":"Max","categoryId":2}', {}),
      repeated('{"name":7,"categoryId":1}', { id: 2 }),
    ]);
    expect(failed((await judge(single)).report)).toEqual([
      'errors.created-pets-agree',
      'createPet.invalid-name',
    ]);
  });

  it('holds no read sent within --settle-ms of a create to it, and every later one', async () => {
    const list = (after: number): Entry => ({
      url: `${BASE}/pets?limit=5`,
      status: 200,
      body: [],
      after,
    });
    const file = har('settle', [created, list(0)]);
    expect(advised((await judge(file)).report)).toEqual(['errors.same-pet']);
    const settled = await runCli([
      'judge',
      '--har',
      file,
      '--settle-ms',
      '100',
      '--reporter',
      'json',
    ]);
    expect(settled.exitCode).toBe(0);
    expect(JSON.parse(settled.stdout).inputs.settleMs).toBe(100);
    const late = har('settle-late', [created, list(100)]);
    const lateRun = await runCli([
      'judge',
      '--har',
      late,
      '--settle-ms',
      '100',
      '--reporter',
      'json',
      '--strict',
    ]);
    expect(lateRun.exitCode).toBe(1);
    const bad = await runCli(['judge', '--har', file, '--settle-ms', 'soon']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--settle-ms must be a whole number of 0 or more, not "soon"/);
  });

  it("leaves alone an answer from the browser's cache: it says nothing of the server then", async () => {
    const stale: Entry = { url: `${BASE}/pets?limit=5`, status: 200, body: [] };
    const fresh = await judge(har('no-cache', [created, stale]));
    expect(advised(fresh.report)).toEqual(['errors.same-pet']);
    const cached = await judge(har('cache', [created, { ...stale, fromCache: 'memory' }]));
    expect(advised(cached.report)).toEqual([]);
    expect(cached.report.traffic).toMatchObject({ judged: 1, fromCache: 1 });
    const pretty = await runCli(['judge', '--har', join(files.path, 'cache.har')]);
    expect(pretty.stdout).toMatch(
      /left alone: 1 answered without the server \(a cache, a service worker, a mock\)/,
    );
  });

  it('holds a list that gives limit twice to the larger of its values and the default', async () => {
    const pets = (n: number) => Array.from({ length: n }, (_, i) => ({ ...rex, id: i + 1 }));
    const twice = (query: string, n: number): Entry => ({
      url: `${BASE}/pets?${query}`,
      status: 200,
      body: pets(n),
    });
    const held = await judge(
      har('twice-held', [twice('limit=3&limit=5', LIMIT_DEFAULT), twice('limit=30&limit=2', 30)]),
    );
    expect(failed(held.report)).toEqual([]);
    expect(result(held.report, 'listPets.at-most-limit')?.message).toBe('2 exchanges judged');
    const over = await judge(har('twice-over', [twice('limit=5&limit=3', LIMIT_DEFAULT + 1)]));
    expect(failed(over.report)).toEqual(['listPets.at-most-limit']);
    expect(result(over.report, 'listPets.at-most-limit')?.message).toMatch(
      /^GET \/pets\?limit=5&limit=3 answered 200: 21 pets, more than 20, the most that limit given 2 times and the default allow\n/,
    );
  });

  it('reads an answer recorded base64-encoded as its bytes', async () => {
    const list = (limit: number, body: unknown[]): Entry => ({
      url: `${BASE}/pets?limit=${limit}`,
      status: 200,
      body,
      base64: true,
    });
    const { report } = await judge(har('base64', [list(1, [rex]), list(1, [rex, rex])]));
    expect(failed(report)).toEqual(['listPets.at-most-limit']);
    expect(result(report, 'listPets.at-most-limit')?.message).toMatch(
      /GET \/pets\?limit=1 answered 200: 2 pets, more than limit 1/,
    );
    expect(report.traffic).toMatchObject({ judged: 2, bodiesNotRecorded: 0 });
  });

  it('judges an answer recorded without its body on its status alone', async () => {
    const { report } = await judge(
      har('no-body', [
        {
          url: `${BASE}/pets?limit=2`,
          status: 401,
          body: { code: 'x', message: 'x', status: 401 },
        },
        { url: `${BASE}/pets?limit=1`, auth: null, status: 200, noBody: true },
      ]),
    );
    expect(failed(report)).toEqual(['auth.listPets.missing-header']);
    expect(report.traffic.bodiesNotRecorded).toBe(1);
    expect(report.traffic.exercised).not.toContain('listPets.at-most-limit');
  });

  it("hides the password and user name of a recorded URL's user info", async () => {
    const withUser = BASE.replace('//', '//someone:pa55-w0rd-secret@');
    const file = har('user-info', [
      { url: `${withUser}/pets?limit=2`, status: 200, body: [] },
      { url: `${withUser}/pets?limit=1`, auth: null, status: 200, body: [] },
    ]);
    // The base URL inferred from the recording, user info and all.
    const { stdout, exitCode } = await runCli(['judge', '--har', file, '--reporter', 'json']);
    expect(exitCode).toBe(1);
    expect(stdout).toContain('auth.listPets.missing-header');
    expect(stdout).not.toContain('pa55-w0rd-secret');
    expect(stdout).not.toContain('someone');
  });

  it('judges the header lines of an answer recorded without its body too', async () => {
    const headers = {
      'Content-Type': 'application/json; charset=ISO-8859-1',
      'Cache-Control': 'public, max-age=60',
    };
    const { report } = await judge(
      har('no-body-headers', [{ url: `${BASE}/pets?limit=1`, status: 200, noBody: true, headers }]),
    );
    const advised = report.results.filter((r) => r.outcome === 'advisory').map((r) => r.id);
    expect(advised.sort()).toEqual(['errors.json-charset', 'errors.keyed-answers-private']);
  });

  it('refuses a file that is no HAR, and one with nothing of the spec, with status 2', async () => {
    const notHar = join(files.path, 'not.har');
    writeFileSync(notHar, '{"entries": []}');
    const refused = await runCli(['judge', '--har', notHar]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/not\.har is not a HAR file: it has no log\.entries array/);
    const empty = await runCli([
      'judge',
      '--har',
      har('empty', [{ url: `${BASE}/docs`, status: 200, text: 'hi' }]),
    ]);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toMatch(/holds no request to \/pets/);
    expect((await runCli(['judge'])).stderr).toMatch(/judge: --har FILE is required/);
  });

  it.each([
    [['--base-url', 'pets'], 'judge: --base-url "pets" is not a URL'],
    [['--base-url', 'ftp://127.0.0.1/v1'], 'judge: --base-url must be http or https, not ftp:'],
    [['--base-url', `${BASE}?x=1`], 'judge: --base-url must not carry a query or fragment'],
    [['--base-url', `${BASE}#`], 'judge: --base-url must not carry a query or fragment'],
    [
      ['--base-url', BASE.replace('//', '//user:s3cret-pw@')],
      'judge: --base-url must not carry a user name or password',
    ],
    [['--settle-ms', '1e3'], 'judge: --settle-ms must be a whole number of 0 or more, not "1e3"'],
    [['--fast'], "judge: Unknown option '--fast'"],
    [['x'], "judge: Unexpected argument 'x'"],
  ])('exits 2 with one usage line for %j', async (args, message) => {
    const file = har('usage', [{ url: `${BASE}/pets?limit=1`, status: 200, text: '[]' }]);
    const run = await runCli(['judge', '--har', file, ...args]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^animal-store-conformance: .* \(see --help\)\n$/);
    expect(run.stderr).toContain(`animal-store-conformance: ${message}`);
  });

  it('exits 2 when every request to /pets was left alone: a PASS would say nothing', async () => {
    const file = har('left-alone', [
      { url: `${BASE}/pets?limit=1`, status: 429, text: 'slow down' },
      { url: `${BASE}/pets/1`, status: 429, text: 'slow down' },
    ]);
    const run = await runCli(['judge', '--har', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /holds no exchange of the spec's operations below .*\(2 exchanges\)/,
    );
    expect(run.stdout).toBe('');
  });
});

describe('judge --har holds each answer to the others and to its request', () => {
  const pet = (id: number, status = 'available', categoryId = 1) => ({
    id,
    name: `Pet${id}`,
    categoryId,
    status,
  });
  /** Pet 8 shown without a status, which the spec leaves optional. */
  const { status: _, ...bare } = pet(8);
  const list = (query: string, body: unknown[], extra: Partial<Entry> = {}): Entry => ({
    url: `${BASE}/pets${query}`,
    status: 200,
    body,
    ...extra,
  });
  const message = (report: JsonReport, id: string) =>
    report.results.find((r) => r.id === id && r.outcome !== 'pass')?.message;

  it('advises on a pet shown again with another categoryId or status, and names both answers', async () => {
    const category = await judge(
      har('category', [list('?limit=5', [pet(7)]), list('?limit=6', [pet(7, 'available', 2)])]),
    );
    expect(failed(category.report)).toEqual([]);
    expect(advised(category.report)).toEqual(['errors.same-pet']);
    expect(message(category.report, 'errors.same-pet')).toMatch(
      /GET \/pets\?limit=6 answered 200: pet 7 has categoryId 2, but GET \/pets\?limit=5 showed 1/,
    );
    const status = await judge(
      har('status', [
        list('?limit=5', [pet(8)]),
        list('?limit=6', [pet(8)]),
        list('?limit=7', [pet(8, 'sold')]),
      ]),
    );
    expect(failed(status.report)).toEqual([]);
    expect(advised(status.report)).toEqual(['errors.same-pet']);
    expect(message(status.report, 'errors.same-pet')).toMatch(
      /pet 8 has status "sold", but GET \/pets\?limit=5 showed "available" \(no operation the spec shows changes a status/,
    );
    const same = await judge(har('same', [list('?limit=5', [pet(9)]), list('', [pet(9)])]));
    expect(failed(same.report)).toEqual([]);
    expect(advised(same.report)).toEqual([]);
    expect(same.report.traffic.exercised).toContain('errors.same-pet');
  });

  it('learns a status a pet was first shown without, and takes one left out for no change', async () => {
    const { report } = await judge(
      har('status-learned', [
        list('?limit=5', [bare]),
        list('?limit=6', [pet(8, 'sold')]),
        list('?limit=7', [bare]),
        list('?limit=8', [pet(8, 'sold')]),
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(advised(report)).toEqual([]);
    const changed = await judge(
      har('status-changed', [
        list('?limit=5', [bare]),
        list('?limit=6', [pet(8, 'sold')]),
        list('?limit=7', [bare]),
        list('?limit=8', [pet(8)]),
      ]),
    );
    expect(failed(changed.report)).toEqual([]);
    expect(advised(changed.report)).toEqual(['errors.same-pet']);
    expect(message(changed.report, 'errors.same-pet')).toMatch(
      /GET \/pets\?limit=8 answered 200: pet 8 has status "available", but GET \/pets\?limit=6 showed "sold"/,
    );
  });

  it('holds no pets and no limit in a list answered other than 200, nor in other answers', async () => {
    const max = { ...pet(7), name: 'Max' };
    const many = [max, ...Array.from({ length: 21 }, (_, i) => pet(i + 10))];
    const { report } = await judge(
      har('not-a-list', [
        list('?limit=5', [pet(7)]),
        list('?limit=2', many, { status: 400 }),
        list('?limit=2', many, { status: 203 }),
        { ...list('?limit=3', []), body: max },
        { ...created, status: 409, body: many },
        { url: `${BASE}/pets/7`, status: 201, body: max },
        { url: `${BASE}/pets/7`, status: 200, body: many },
      ]),
    );
    expect(failed(report)).not.toContain('errors.same-pet');
    expect(advised(report)).not.toContain('errors.same-pet');
    expect(failed(report)).not.toContain('listPets.at-most-limit');
    expect(report.traffic.exercised).not.toContain('errors.same-pet');
  });

  it('relates only answers that show pets: a 2xx create, a 200 getPet, the items of a 200 list', async () => {
    const max = { ...pet(7), name: 'Max' };
    const notShown = await judge(
      har('not-shown', [
        list('?limit=5', [pet(7)]),
        { ...created, status: 409, body: max },
        {
          url: `${BASE}/pets/7`,
          status: 404,
          body: max,
          headers: { ...GET_PET_DEPRECATION_HEADERS },
        },
        list('?limit=6', [{ id: 7, name: 'Max' }]),
      ]),
    );
    expect(failed(notShown.report)).not.toContain('errors.same-pet');
    expect(advised(notShown.report)).not.toContain('errors.same-pet');
    for (const status of [200, 299]) {
      const shown = await judge(
        har(`shown-${status}`, [list('?limit=5', [pet(7)]), { ...created, status, body: max }]),
      );
      expect(message(shown.report, 'errors.same-pet')).toMatch(
        /pet 7 has name "Max", but GET \/pets\?limit=5 showed "Pet7"/,
      );
    }
    const changedFirst = await judge(
      har('changed-first', [
        list('?limit=5', [pet(7)]),
        { method: 'PUT', url: `${BASE}/pets/7`, status: 200, body: max },
        list('?limit=6', [max]),
      ]),
    );
    expect(failed(changedFirst.report)).not.toContain('errors.same-pet');
    expect(advised(changedFirst.report)).not.toContain('errors.same-pet');
  });

  it('fails a list longer than its limit, the default limit included, and nothing at the limit', async () => {
    const pets = (n: number) => Array.from({ length: n }, (_, i) => pet(i + 1));
    const over = await judge(har('over', [list('?limit=2', pets(3))]));
    expect(failed(over.report)).toEqual(['listPets.at-most-limit']);
    expect(message(over.report, 'listPets.at-most-limit')).toMatch(/3 pets, more than limit 2/);
    const overDefault = await judge(har('over-default', [list('', pets(21))]));
    expect(message(overDefault.report, 'listPets.at-most-limit')).toMatch(
      /21 pets, more than the default limit 20/,
    );
    for (const [limit, n] of [
      [10, 11],
      [100, 101],
    ] as const) {
      const { report } = await judge(har(`over-${limit}`, [list(`?limit=${limit}`, pets(n))]));
      expect(message(report, 'listPets.at-most-limit')?.split('\n')[0]).toBe(
        `GET /pets?limit=${limit} answered 200: ${n} pets, more than limit ${limit}`,
      );
    }
    const at = await judge(
      har('at', [list('?limit=2', pets(2)), list('', pets(20)), list('?limit=100', pets(100))]),
    );
    expect(failed(at.report)).toEqual([]);
    expect(at.report.traffic.exercised).toContain('listPets.at-most-limit');
  });

  it('holds no list without limit to the default when it names a parameter of its own, as a page size', async () => {
    // The spec leaves other paging controls open (§4): pageSize=30 may be one.
    const pets = (n: number) => Array.from({ length: n }, (_, i) => pet(i + 1));
    const own = await judge(
      har('own-paging', [
        list('?pageSize=30', pets(30)),
        list('?status=available&per_page=25', pets(25)),
      ]),
    );
    expect(failed(own.report)).toEqual([]);
    expect(own.report.traffic.exercised).not.toContain('listPets.at-most-limit');
    // A limit given still bounds the list, and so does the default with status alone.
    const bounded = await judge(
      har('own-paging-limited', [
        list('?limit=10&pageSize=30', pets(30)),
        list('?status=available', pets(21)),
      ]),
    );
    expect(failed(bounded.report)).toEqual(['listPets.at-most-limit']);
    expect(message(bounded.report, 'listPets.at-most-limit')).toMatch(
      /30 pets, more than limit 10/,
    );
    const statusAlone = await judge(har('status-alone', [list('?status=available', pets(21))]));
    expect(message(statusAlone.report, 'listPets.at-most-limit')).toMatch(
      /21 pets, more than the default limit 20/,
    );
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=1&limit=0'],
    ['limit=1x'],
    ['limit=0001'],
    ['limit=01'],
    ['limit=+1'],
    ['limit=1.0'],
    ['limit=1&limit=01'],
  ])('holds no list to a limit the spec does not allow or write (%s)', async (query) => {
    const { report } = await judge(har('bad-limit', [list(`?${query}`, [pet(1), pet(2)])]));
    expect(failed(report)).not.toContain('listPets.at-most-limit');
    expect(report.traffic.exercised).not.toContain('listPets.at-most-limit');
  });

  it('reads a query recorded percent-encoded as the query it encodes', async () => {
    const pets = (n: number) => Array.from({ length: n }, (_, i) => pet(i + 1));
    const value = await judge(har('encoded-value', [list('?limit=%31%30', pets(11))]));
    expect(message(value.report, 'listPets.at-most-limit')?.split('\n')[0]).toBe(
      'GET /pets?limit=%31%30 answered 200: 11 pets, more than limit 10',
    );
    const name = await judge(har('encoded-name', [list('?%6C%69%6D%69%74=2', pets(3))]));
    expect(message(name.report, 'listPets.at-most-limit')).toMatch(/3 pets, more than limit 2/);
    const status = await judge(
      har('encoded-status', [list('?status=%73%6f%6c%64', [pet(30, 'sold'), pet(40)])]),
    );
    expect(failed(status.report)).toEqual(['listPets.status-filter.sold']);
    const right = await judge(
      har('encoded-right', [
        list('?limit=%31%30', pets(10)),
        list('?status=%73%6f%6c%64', [pet(30, 'sold')]),
      ]),
    );
    expect(failed(right.report)).toEqual([]);
  });

  it('fails a filtered list that shows a pet of another status, and no other list', async () => {
    const wrong = await judge(har('filter', [list('?status=sold', [pet(3, 'sold'), pet(4)])]));
    expect(failed(wrong.report)).toEqual(['listPets.status-filter.sold']);
    expect(message(wrong.report, 'listPets.status-filter.sold')).toMatch(
      /it lists pet 4 with status "available"/,
    );
    const right = await judge(
      har('filter-ok', [
        list('?status=pending', [pet(5, 'pending')]),
        list('?status=sold&status=pending', [pet(6, 'sold'), pet(7, 'pending')]),
        list('?status=sold', [], { status: 200 }),
      ]),
    );
    expect(failed(right.report)).toEqual([]);
    expect(right.report.traffic.exercised).toEqual(
      expect.arrayContaining(['listPets.status-filter.pending', 'listPets.status-filter.sold']),
    );
    expect(right.report.traffic.exercised).not.toContain('listPets.status-filter.available');
  });

  it('holds a filtered list to no status its entries leave out, nor entries that are no pet', async () => {
    const { report } = await judge(har('filter-bare', [list('?status=sold', [bare, null, 3])]));
    expect(result(report, 'listPets.status-filter.sold')?.outcome).toBe('pass');
    expect(failed(report)).toEqual(['errors.pet-fields']);
  });

  it('fails a success to a request without Authorization on each operation, and no 401', async () => {
    const refusal = { code: 'unauthorized', message: 'no key', status: 401 };
    const answered = await judge(
      har('no-key', [
        list('?limit=2', [pet(11)]),
        { ...created, auth: null, body: pet(11) },
        list('?limit=1', [pet(11)], { auth: null }),
      ]),
    );
    expect(failed(answered.report)).toEqual(
      expect.arrayContaining(['auth.createPet.missing-header', 'auth.listPets.missing-header']),
    );
    expect(message(answered.report, 'auth.createPet.missing-header')).toMatch(
      /a request without Authorization answered 201, a success: a missing or invalid key is 401/,
    );
    const refused = await judge(
      har('no-key-401', [
        list('?limit=2', [pet(11)]),
        { ...created, auth: null, status: 401, body: refusal },
        { url: `${BASE}/pets?limit=1`, auth: null, status: 401, body: refusal },
      ]),
    );
    expect(failed(refused.report)).toEqual([]);
    expect(refused.report.traffic.exercised).toEqual(
      expect.arrayContaining(['auth.createPet.missing-header', 'auth.listPets.missing-header']),
    );
  });
});

describe("judge --har holds createPet's request bodies to NewPet", () => {
  const REFUSED: readonly (readonly [body: string, check: string, why: string])[] = [
    ['{"name":"Rex","categoryId":1', 'malformed-json', 'the body is not JSON \\(.+\\)'],
    // Its first bracketed value is no JSON either.
    ['{"name":"Rex",}}', 'malformed-json', 'the body is not JSON \\(.+\\)'],
    [
      '{"name":"Rex","categoryId":1}\n{"name":"Max","categoryId":2}',
      'trailing-content',
      'the body holds one JSON value, then "\\\\n.+"…',
    ],
    [
      '{"name":"R}e\\"x","categoryId":1}}',
      'trailing-content',
      'the body holds one JSON value, then "\\}"',
    ],
    [
      '[{"name":"Rex","categoryId":1},[]]]',
      'body-not-object',
      "the body is an array, in the first of the body's JSON values",
    ],
    // A reader that stops after the first value reads no name; one that keeps the last, no
    // categoryId.
    [
      '{"categoryId":1}\n{"name":"Rex"}',
      'missing-name',
      "the body has no name, in the first of the body's JSON values",
    ],
    // The last value is a NewPet: a reader may keep it, as RFC 8259 §9 lets it.
    [
      '{"categoryId":1}\n{"name":"Rex","categoryId":1}',
      'trailing-content',
      'the body holds one JSON value, then "\\\\n.+"…',
    ],
    ['', 'empty-body', 'the body is empty'],
    [' \t\r\n', 'blank-body', 'the body is white space alone'],
    ['[{"name":"Rex","categoryId":1}]', 'body-not-object', 'the body is an array'],
    ['null', 'body-not-object', 'the body is null'],
    ['"Rex"', 'body-not-object', 'the body is a string'],
    ['{"categoryId":1}', 'missing-name', 'the body has no name'],
    ['{"Name":"Rex","categoryId":1}', 'missing-name-other-case', 'the body has Name but no name'],
    [
      '{"name":"Rex","CategoryId":1}',
      'missing-category-id-other-case',
      'the body has CategoryId but no categoryId',
    ],
    [
      '{"name":"Rex","category_id":1}',
      'missing-category-id-snake-case',
      'the body has category_id but no categoryId',
    ],
    ['{"name":7,"categoryId":1}', 'invalid-name', 'name is a number, not a string'],
    ['{"name":{},"categoryId":1}', 'invalid-name', 'name is an object, not a string'],
    [
      '{"name":"Rex","categoryId":"1"}',
      'invalid-category-id',
      'categoryId is a string, not an integer',
    ],
    ['{"name":"Rex","categoryId":1.5}', 'invalid-category-id', 'categoryId 1.5 is not an integer'],
    // Named as sent: a double would read 18446744073709552000 for 2^64.
    ['{"name":"Rex","categoryId":1e19}', 'invalid-category-id', 'categoryId 1e19 is outside int64'],
    [
      '{"name":"Rex","categoryId":18446744073709551616}',
      'invalid-category-id',
      'categoryId 18446744073709551616 is outside int64',
    ],
    [
      '{"name":"Rex","categoryId":1.50}',
      'invalid-category-id',
      'categoryId 1.50 is not an integer',
    ],
    [
      '{"name":"Rex","categoryId":1,"status":"Sold"}',
      'invalid-status',
      'status "Sold" is not one of available, pending, sold',
    ],
  ];
  it.each(
    REFUSED,
  )('fails a success to %s on createPet.%s (a should advises)', async (body, check, why) => {
    for (const answer of [post(body, 201), post(body, 200)]) {
      const { report } = await judge(har('bad-body', [answer]));
      const judged = result(report, `createPet.${check}`);
      // More after one JSON value is a form RFC 8259 §9 lets a parser take: advised on.
      expect(judged?.outcome).toBe(check === 'trailing-content' ? 'advisory' : 'fail');
      expect(judged?.message).toMatch(
        new RegExp(
          `^POST /pets answered ${answer.status}: ${why}: createPet refuses such a body with 400, never with a success\\n`,
        ),
      );
    }
  });

  it('advises on a success to a NewPet in JSON5, an extension RFC 8259 §9 lets a parser take', async () => {
    const bodies = [
      '{/* a comment */"name":"Rex","categoryId":1}',
      '{"name":"Rex","categoryId":1} // a comment after the value',
      '{"name":"Rex","categoryId":1,}',
      "{'name':'Rex','categoryId':1}",
      '{name:"Rex",categoryId:1}',
    ];
    const { report } = await judge(
      har(
        'json5',
        bodies.map((body) => post(body, 201)),
      ),
    );
    expect(messages(report)).toEqual([]);
    const advice = report.results.find((r) => r.id === 'createPet.json-extensions-rejected');
    expect(advice).toMatchObject({ outcome: 'advisory' });
    expect(advice?.message).toMatch(
      /^POST \/pets answered 201: the body is no JSON text but JSON5 \(.+\): createPet refuses such a body with 400, never with a success \(and 4 more\)\n/,
    );
  });

  it('fails a success to a JSON5 body for what any reader of it finds wrong', async () => {
    const { report } = await judge(
      har('json5-wrong', [
        post("'Rex'", 201),
        post("{name:'Rex',}", 201),
        post('{name:"Rex",categoryId:NaN}', 201),
        post('{name:"Rex",categoryId:0x10,categoryId:"Max"}', 201),
      ]),
    );
    expect(messages(report).sort()).toEqual([
      expect.stringMatching(
        /^createPet\.body-not-object: POST \/pets answered 201: the body is a string: /,
      ),
      expect.stringMatching(
        /^createPet\.invalid-category-id: .*: categoryId NaN is not an integer: /,
      ),
      expect.stringMatching(/^createPet\.missing-category-id: .*: the body has no categoryId: /),
    ]);
    // A member written twice has no one reading: only the advisory speaks of it.
    const advice = report.results.find((r) => r.id === 'createPet.json-extensions-rejected');
    expect(advice).toMatchObject({ outcome: 'advisory' });
    expect(advice?.message).not.toMatch(/\(and \d+ more\)/);
  });

  it('names a body whose required member came in the query string instead as the kit does', async () => {
    const inQuery = (query: string, text: string, status: number) =>
      post(text, status, { url: `${BASE}/pets${query}` });
    const { report } = await judge(
      har('member-in-query', [
        inQuery('?name=Rex', '{"categoryId":1}', 201),
        inQuery('?categoryId=1', '{"name":"Rex"}', 400),
        inQuery('?nom=Rex', '{"categoryId":1}', 201),
      ]),
    );
    expect(messages(report).sort()).toEqual([
      expect.stringMatching(
        /^createPet\.missing-name-in-query: POST \/pets\?name=Rex answered 201: the body has no name, given in the query string instead: /,
      ),
      expect.stringMatching(
        /^createPet\.missing-name: POST \/pets\?nom=Rex answered 201: the body has no name: /,
      ),
    ]);
    expect(report.traffic.exercised).toContain('createPet.missing-category-id-in-query');
  });

  it('fails a 422 to a body that is no JSON object, unless it carries an Idempotency-Key', async () => {
    const unprocessable = { body: { code: 'unprocessable', message: 'no', status: 422 } };
    const key = {
      requestHeaders: { ...JSON_BODY, 'Idempotency-Key': 'k1', 'Content-Length': '4' },
    };
    const { report } = await judge(
      har('unprocessable', [
        post('{"name":"Rex","categoryId":1', 422, unprocessable),
        post('{"name":"Rex","categoryId":1} {}', 422, unprocessable),
        post('null', 422, unprocessable),
        post('', 422, unprocessable),
        post('\n', 422, unprocessable),
      ]),
    );
    expect(result(report, 'createPet.trailing-content')?.outcome).toBe('advisory');
    expect(messages(report).sort()).toEqual(
      ['blank-body', 'body-not-object', 'empty-body', 'malformed-json'].map((check) =>
        expect.stringMatching(
          new RegExp(
            `^createPet\\.${check}: .*: createPet refuses such a body with 400, not 422\\n`,
          ),
        ),
      ),
    );
    // Each names what the server said and the request that replays it.
    for (const message of messages(report)) {
      expect(message).toMatch(/\nserver said: code "unprocessable", message "no"\nreplay: curl /);
    }
    const keyed = await judge(
      har('unprocessable-key', [post('[{}]', 422, { ...unprocessable, ...key })]),
    );
    expect(messages(keyed.report)).toEqual([]);
  });

  it('judges a body sent as application/json with parameters, and advises on status: null', async () => {
    const { report } = await judge(
      har('more-bodies', [
        post('{"categoryId":1}', 201, {
          requestHeaders: {
            'Content-Type': 'Application/JSON ; charset=utf-8',
            'Content-Length': '16',
          },
        }),
        post('{"name":"Rex","categoryId":1,"status":null}'),
      ]),
    );
    expect(messages(report)).toContainEqual(expect.stringMatching(/^createPet\.missing-name: /));
    // status: null is the reference's rule, not the spec's: a should, an advisory.
    const nullStatus = result(report, 'createPet.status-null-rejected');
    expect(nullStatus?.outcome).toBe('advisory');
    expect(nullStatus?.message).toMatch(/status is null: createPet refuses such a body with 400/);
    // --strict holds traffic to the should checks too, as it holds a run.
    const strict = await runCli([
      'judge',
      '--har',
      join(files.path, 'more-bodies.har'),
      '--strict',
      '--reporter',
      'json',
    ]);
    const strictReport = JSON.parse(strict.stdout) as JsonReport;
    expect(result(strictReport, 'createPet.status-null-rejected')?.outcome).toBe('fail');
    expect(strict.exitCode).toBe(1);
  });

  it('leaves alone a NewPet every JSON stack reads as one, and bodies it cannot judge', async () => {
    const plainText = { 'Content-Type': 'text/plain', 'Content-Length': '16' };
    const { report } = await judge(
      har('fair-bodies', [
        post('{"name":"Rex","categoryId":1.0}'),
        post('{"name":"Rex","categoryId":9223372036854775807}', 201, {
          body: { ...rex, id: 2, categoryId: 2 ** 63 },
        }),
        post('{"name":"Rex","categoryId":-9223372036854775808,"status":"sold"}', 201, {
          body: { ...rex, id: 3, categoryId: -(2 ** 63), status: 'sold' },
        }),
        post(' {"name":"Rex","categoryId":1,"tags":[]}\n'),
        // Another media type, or a body the recorder cut short, says nothing of the spec's body.
        post('{"categoryId":1}', 201, { requestHeaders: plainText }),
        post('{"name":"Rex","categ', 201, {
          requestHeaders: { ...JSON_BODY, 'Content-Length': '31' },
        }),
        // A sanitizer's placeholder for the body, without the length that would tell.
        post('[REDACTED]', 201, { requestHeaders: JSON_BODY }),
        // An empty text without Content-Length: 0, as a recorder that kept no body writes it,
        // even where it says the body had no bytes.
        post('', 201, { requestHeaders: JSON_BODY }),
        post('', 201, { requestHeaders: JSON_BODY, bodySize: 0 }),
        post('', 201, { requestHeaders: { ...JSON_BODY, 'Content-Length': '25' } }),
        // Refused for a cause of its own (no valid key, a 4xx of the server's): not the body's.
        post('{"categoryId":1}', 401, {
          body: { code: 'unauthorized', message: 'no', status: 401 },
        }),
        post('{"categoryId":1}', 422, {
          body: { code: 'unknown_category', message: 'no', status: 422 },
        }),
        // A body on a read is no NewPet of createPet's.
        post('{"categoryId":1}', 200, { method: 'GET', url: `${BASE}/pets?limit=1`, body: [rex] }),
      ]),
    );
    expect(messages(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'advisory')).toEqual([]);
    expect(report.traffic.exercised).not.toContain('createPet.missing-name');
    expect(report.traffic.exercised).not.toContain('createPet.empty-body');
  });

  it('judges a body sent chunked where the recorder vouches for it with bodySize', async () => {
    const chunked = { ...JSON_BODY, 'Transfer-Encoding': 'chunked' };
    const body = '{"categoryId":1,"note":"é"}';
    const bytes = Buffer.byteLength(body);
    const sentChunked = (bodySize?: number, text = body) =>
      post(text, 201, { requestHeaders: chunked, ...(bodySize === undefined ? {} : { bodySize }) });
    const { report } = await judge(har('chunked-whole', [sentChunked(bytes)]));
    expect(messages(report)).toContainEqual(expect.stringMatching(/^createPet\.missing-name: /));
    const { report: unjudged } = await judge(
      har('chunked-unknown', [
        // No size, an unknown one (-1), the size in characters, a placeholder in the body's place.
        sentChunked(),
        sentChunked(-1),
        sentChunked(body.length),
        sentChunked(bytes, '[REDACTED]'),
      ]),
    );
    expect(messages(unjudged)).toEqual([]);
  });

  it('leaves alone a body that is no UTF-8, or holds U+FFFD a recorder may have put for such bytes', async () => {
    // A lone surrogate encoded (ED A0 80): Python's json.loads reads it, and the 201 shows it.
    const surrogate = Buffer.concat([
      Buffer.from('{"name":"Rex'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('","categoryId":1}'),
    ]);
    const shown = { id: 7, name: 'Rex\ud800', categoryId: 1 };
    const { report } = await judge(
      har('not-utf8', [
        { ...created, sent: undefined, sentBytes: surrogate, status: 201, body: shown },
        { url: `${BASE}/pets/7`, status: 200, body: shown, headers: GET_PET_DEPRECATION_HEADERS },
        post('{"categoryId":1,"nick":"\uFFFD"}'),
      ]),
    );
    expect(messages(report)).toEqual([]);
  });

  it('counts a 400 to such a body as the check exercised and holding', async () => {
    const { report } = await judge(
      har('refused-bodies', [
        post('{"categoryId":1}', 400),
        post('{"Name":"Rex","categoryId":1}', 400),
        post('', 400),
      ]),
    );
    expect(messages(report)).toEqual([]);
    expect(report.traffic.exercised).toEqual(
      expect.arrayContaining([
        'createPet.missing-name',
        'createPet.missing-name-other-case',
        'createPet.empty-body',
      ]),
    );
  });
});

describe('judge --har holds createPet to every spelling of application/json', () => {
  const refused = (contentType: string, more: Record<string, string> = {}): Entry => ({
    ...created,
    requestHeaders: { 'Content-Type': contentType, ...more },
    status: 415,
    body: { code: 'unsupported_media_type', message: 'no', status: 415 },
  });
  const outcome = (report: JsonReport) => result(report, 'createPet.media-type-spellings');

  it.each([
    'application/json',
    'application/json ; charset="utf-8"',
    'Application/JSON;charset=UTF-8',
    'application/json;',
  ])('fails a 415 to Content-Type: %s', async (contentType) => {
    const { report } = await judge(har('refused-json', [refused(contentType)]));
    expect(outcome(report)?.outcome).toBe('fail');
    expect(outcome(report)?.message).toMatch(
      `POST /pets answered 415: Content-Type: ${contentType} is application/json, yet it answered 415`,
    );
  });

  it('judges a createPet sent as application/json only on a 415 or a success', async () => {
    const answered = (status: number) => ({ ...refused('application/json'), status });
    const { report: refusedOnly } = await judge(har('json-400', [answered(400)]));
    expect(refusedOnly.traffic.exercised).not.toContain('createPet.media-type-spellings');
    const list = { ...refused('application/json'), method: 'GET', url: `${BASE}/pets` };
    const { report: listed } = await judge(har('json-list-415', [list]));
    expect(outcome(listed)?.outcome).not.toBe('fail');
    const { report: created } = await judge(har('json-200', [{ ...answered(200), body: rex }]));
    expect(created.traffic.exercised).toContain('createPet.media-type-spellings');
  });

  it('leaves alone a 415 to another type, another charset or a coding, and holds on a success', async () => {
    const { report } = await judge(
      har('other-types', [
        refused('text/plain'),
        refused('application/json; charset=iso-8859-1'),
        refused('application/json; charset = utf-8'),
        refused('application/json; version=2'),
        refused('application/json', { 'Content-Encoding': 'gzip' }),
        { ...created, requestHeaders: { 'Content-Type': 'APPLICATION/JSON ; charset=utf-8' } },
      ]),
    );
    expect(outcome(report)?.outcome).toBe('pass');
    expect(report.traffic.exercised).toContain('createPet.media-type-spellings');
  });
});

describe('judge --har on a recording that kept no key (a sanitized HAR)', () => {
  it('judges no request as sent without a key, and says why', async () => {
    const sanitized = await judge(
      har('sanitized', [
        { ...created, auth: null, requestHeaders: { Accept: 'application/json' } },
        { url: `${BASE}/pets?limit=1`, auth: null, status: 200, body: [rex] },
      ]),
    );
    expect(failed(sanitized.report)).toEqual([]);
    expect(sanitized.report.traffic.keysRecorded).toBe(false);
    const skipped = result(sanitized.report, 'auth.listPets.missing-header');
    expect(skipped?.outcome).toBe('skip');
    expect(skipped?.message).toMatch(/no Authorization header at all, as a sanitized HAR/);
    // Other rules judge it as ever: the pets still agree.
    expect(sanitized.report.traffic.exercised).toContain('errors.created-pets-agree');
    const pretty = await runCli(['judge', '--har', join(files.path, 'sanitized.har')]);
    expect(pretty.stdout).toMatch(
      /no request carries Authorization \(a sanitized HAR takes it out\)/,
    );
  });

  it('judges requests without a key once one request of the recording carries one', async () => {
    const { report } = await judge(
      har('one-key', [
        { url: `${BASE}/pets?limit=2`, status: 200, body: [rex] },
        { url: `${BASE}/pets?limit=1`, auth: null, status: 200, body: [rex] },
      ]),
    );
    expect(report.traffic.keysRecorded).toBe(true);
    expect(failed(report)).toEqual(['auth.listPets.missing-header']);
  });
});

describe('judge --har holds reads that carry no bearer key to 401', () => {
  const refusal = (status: number) => ({ code: 'refused', message: 'no', status });
  const read = (path: string, auth: string | null, status: number, extra: Partial<Entry> = {}) => ({
    url: `${BASE}${path}`,
    auth,
    status,
    body: refusal(status),
    ...(path.startsWith('/pets/') ? { headers: { ...GET_PET_DEPRECATION_HEADERS } } : {}),
    ...extra,
  });
  const SHAPES = [
    ['missing-header', null],
    ['empty-header', ''],
    ['empty-token', 'Bearer'],
    ['wrong-scheme', 'Basic aGFyLWtleQ=='],
    ['scheme-prefixed', 'XBearer har-key-0123456789'],
    ['word-after-key', 'bearer har-key-0123456789 x'],
  ] as const;
  const READS = [
    ['listPets', '/pets?limit=5&status=sold'],
    ['listPets', '/pets?status=pending&limit=100'],
    ['listPets', '/pets?limit=1'],
    ['listPets', '/pets'],
    ['getPet', '/pets/12'],
    ['getPet', '/pets/9223372036854775807'],
  ] as const;

  it.each(
    SHAPES,
  )('fails a 400 to a sound read with %s, and lets a 401 stand', async (shape, auth) => {
    for (const [op, path] of READS) {
      const bodiless = { requestHeaders: { 'Content-Length': '0' } };
      const empty = await judge(
        har(`keyless-${shape}-0`, [created, read(path, auth, 400, bodiless)]),
      );
      expect(failed(empty.report)).toEqual([`auth.${op}.${shape}`]);
      const refused = await judge(har(`keyless-${shape}`, [created, read(path, auth, 400)]));
      expect(failed(refused.report)).toEqual([`auth.${op}.${shape}`]);
      // The replay sends the request's own Authorization (none, or its scheme as recorded),
      // never the valid key in its place.
      const replay = /^replay: (.*)$/m.exec(
        result(refused.report, `auth.${op}.${shape}`)?.message ?? '',
      )?.[1];
      expect(replay).toBeDefined();
      expect(replay).not.toContain('ANIMAL_STORE_API_KEY');
      // A registered scheme shows; a value under another (XBearer) is hidden whole.
      if (auth === null) expect(replay).not.toContain('Authorization');
      else if (shape === 'scheme-prefixed')
        expect(replay).toContain('-H "Authorization: [redacted');
      else expect(replay).toContain(`-H "Authorization: ${auth.split(' ')[0]}`);
      expect(replay).not.toContain('har-key-0123456789');
      const host = { requestHeaders: { Host: '[::1]:3000' } };
      const hosted = await judge(
        har(`keyless-${shape}-host`, [created, read(path, auth, 400, host)]),
      );
      expect(failed(hosted.report)).toEqual([`auth.${op}.${shape}`]);
      // What a browser and the proxies on its way add changes nothing a server refuses.
      const browser = {
        requestHeaders: {
          'User-Agent': 'Mozilla/5.0',
          'Accept-Language': 'en-GB,en;q=0.9',
          'Accept-Encoding': 'gzip, br',
          'Sec-Fetch-Mode': 'cors',
          'Sec-Ch-Ua-Platform': '"Linux"',
          Origin: 'http://127.0.0.1:3000',
          Referer: 'http://127.0.0.1:3000/',
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
          'X-Forwarded-For': '10.0.0.1',
        },
      };
      const browsed = await judge(
        har(`keyless-${shape}-browser`, [created, read(path, auth, 400, browser)]),
      );
      expect(failed(browsed.report)).toEqual([`auth.${op}.${shape}`]);
      expect(result(refused.report, `auth.${op}.${shape}`)?.message).toMatch(
        /answered 400, with nothing else wrong in it: a missing or invalid key is 401/,
      );
      const right = await judge(har(`keyless-${shape}-401`, [created, read(path, auth, 401)]));
      expect(failed(right.report)).toEqual([]);
      expect(right.report.traffic.exercised).toContain(`auth.${op}.${shape}`);
    }
  });

  it('leaves alone a 400 to a read something else may be wrong with, and to a createPet', async () => {
    const { report } = await judge(
      har('keyless-other-faults', [
        created,
        read('/pets?limit=0', null, 400),
        read('/pets?limit=101', 'Bearer', 400),
        read('/pets?limit=05', 'Bearer', 400),
        read('/pets?limit=5e1', 'Bearer', 400),
        read('/pets?limit=1.0', 'Bearer', 400),
        read('/pets?limit=1&limit=2', 'Basic aGFyLWtleQ==', 400),
        read('/pets?status=lost', '', 400),
        read('/pets?limit=1&page=2', 'XBearer k', 400),
        read('/pets?limit=1&', 'XBearer k', 400),
        read('/pets?limit=5=6', 'XBearer k', 400),
        read('/pets/0x1', 'Bearer a b', 400),
        read('/pets/007', 'Bearer a b', 400),
        read('/pets/9223372036854775808', 'Bearer a b', 400),
        read('/pets/12?x=1', 'Bearer a b', 400),
        read('/pets/12', null, 400, { requestHeaders: { 'Content-Length': '2' } }),
        read('/pets/12', null, 400, { requestHeaders: { 'Transfer-Encoding': 'chunked' } }),
        read('/pets/12', null, 400, { sentText: '{}' }),
        // Connexion reads a Content-Type without content, and refuses multipart without boundary.
        read('/pets?limit=1', null, 400, {
          requestHeaders: { 'Content-Type': 'multipart/form-data' },
        }),
        // RFC 9112 §3.2: two Host lines, or one that names no host, are a 400 whatever the key.
        read('/pets/12', null, 400, { requestHeaders: { Host: 'a.example', host: 'b.example' } }),
        read('/pets?limit=1', null, 400, { requestHeaders: { Host: 'a example' } }),
        read('/pets?limit=2', 'Bearer', 400, { requestHeaders: { Host: 'a.example:80x' } }),
        // Two Authorization lines make no one value (RFC 9110 §5.3): read as "Bearer k, Bearer k".
        read('/pets?limit=3', 'Bearer k', 400, { requestHeaders: { authorization: 'Bearer k' } }),
        read('/pets/12a', null, 400),
        read('/pets?limit=1', null, 403),
        // Header fields a server may refuse a request for, as the run lets it: a session it no
        // longer holds, a key where it reads none, a charset it cannot meet, a method override.
        ...(
          [
            { Cookie: 'sid=expired' },
            { 'X-API-Key': 'look-alike' },
            { 'Accept-Charset': 'utf-16, utf-8;q=0.5' },
            { 'X-HTTP-Method-Override': 'PUT' },
            { Expect: 'something' },
            { Range: 'bytes=0-1' },
          ] as Record<string, string>[]
        ).map((requestHeaders) => read('/pets?limit=1', null, 400, { requestHeaders })),
        { ...created, auth: 'Basic aGFyLWtleQ==', status: 400, body: refusal(400) },
        {
          ...created,
          sent: undefined,
          auth: 'Basic aGFyLWtleQ==',
          status: 400,
          body: refusal(400),
        },
      ]),
    );
    expect(failed(report)).toEqual([]);
  });

  it('leaves alone a bearer token alone, and a success to what a sanitizer may have written', async () => {
    const { report } = await judge(
      har('keyless-placeholders', [
        created,
        read('/pets?limit=1', 'Bearer  two-spaces-before-it', 400),
        read('/pets?limit=1', '[REDACTED]', 200, { body: [rex] }),
        read('/pets/1', 'Bearer <redacted token>', 200, { body: rex }),
        read('/pets/1', '', 200, { body: rex }),
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(report.traffic.exercised).not.toEqual(
      expect.arrayContaining(['auth.listPets.wrong-scheme']),
    );
  });
});

describe('judge --har holds sound reads with a bearer token to what the spec answers', () => {
  const refusal = (status: number) => ({ code: 'refused', message: 'no', status });
  const read = (path: string, status: number, auth = 'Bearer unknown-key') => ({
    url: `${BASE}${path}`,
    auth,
    status,
    body: refusal(status),
    ...(path.startsWith('/pets/') ? { headers: { ...GET_PET_DEPRECATION_HEADERS } } : {}),
  });

  it.each([
    ['listPets', '/pets?limit=100', 400],
    ['listPets', '/pets?status=pending', 400],
    ['listPets', '/pets?limit=1', 405],
    ['getPet', '/pets/12', 410],
    ['getPet', '/pets/12', 422],
    ['getPet', '/pets/12', 400],
    ['getPet', '/pets/9007199254740991', 400],
  ] as const)('fails %s at %s answered %i', async (op, path, status) => {
    const { report } = await judge(har(`sound-${op}-${status}`, [read(path, status)]));
    const id = op === 'listPets' ? 'listPets.returns-pet-array' : 'getPet.returns-pet';
    expect(failed(report)).toEqual([id]);
    expect(result(report, id)?.message).toMatch(
      new RegExp(
        `a ${op} request with a bearer token, and nothing else wrong in it, answered ${status}`,
      ),
    );
  });

  it('lets a 410 to getPet stand from the sunset on, when the spec removes it', async () => {
    const at = (date: string, status: number) => ({
      startedDateTime: date,
      time: 5,
      request: {
        method: 'GET',
        url: `${BASE}/pets/12`,
        headers: [{ name: 'Authorization', value: KEY }],
      },
      response: {
        status,
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        content: contentOf(JSON.stringify(refusal(status)), false),
      },
    });
    const path = join(files.path, 'sunset.har');
    const entries = [at('2030-12-04T23:59:59Z', 410), at('2030-12-05T00:00:00Z', 410)];
    writeFileSync(path, JSON.stringify({ log: { version: '1.2', entries } }));
    const { report } = await judge(path);
    expect(result(report, 'getPet.returns-pet')?.message).toMatch(
      /^GET \/pets\/12 answered 410: .*\(§4, §5\)$/m,
    );
    expect(result(report, 'getPet.returns-pet')?.message).not.toMatch(/and 1 more/);
  });

  it("lets a 401, a 403 or 404 (a key's scope) and what else the request may have caused stand", async () => {
    const { report } = await judge(
      har('sound-reads-right', [
        read('/pets?limit=1', 401),
        read('/pets?limit=1', 403),
        read('/pets?limit=1', 404),
        read('/pets/12', 404),
        read('/pets/9007199254740992', 400),
        // A petId percent-encoded is a spelling a server may refuse, whatever it decodes to.
        read('/pets/%31', 400),
        read('/pets?limit=101', 400),
        read('/pets/12?x=1', 400),
        read('/pets?limit=1', 400, 'Bearer  two-spaces'),
        read('/pets?limit=1', 400, 'Bearer a,b'),
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(report.traffic.exercised).toEqual(
      expect.arrayContaining(['listPets.returns-pet-array', 'getPet.returns-pet']),
    );
  });
});

describe('judge --har holds a create to POST being an operation of /pets', () => {
  const refusal = { code: 'method_not_allowed', message: 'no', status: 405 };
  const refusedPost = (rest: Partial<Entry>): Entry => ({
    method: 'POST',
    url: `${BASE}/pets`,
    status: 405,
    body: refusal,
    ...rest,
  });

  it.each([
    ['a NewPet with the key', refusedPost({ sent: { name: 'Rex', categoryId: 1 } })],
    ['a NewPet without a key', refusedPost({ auth: null, sent: { name: 'Rex', categoryId: 1 } })],
    ['no body', refusedPost({})],
  ] as const)('fails a 405 to %s', async (_what, entry) => {
    const { report } = await judge(har('create-405', [entry]));
    expect(failed(report)).toEqual(['createPet.created']);
    expect(result(report, 'createPet.created')?.message).toMatch(
      /a createPet request answered 405: POST is an operation of \/pets \(§4\.2\)/,
    );
  });

  const redirected = (status: number, location?: string): Entry => ({
    method: 'POST',
    url: `${BASE}/pets`,
    sent: { name: 'Rex', categoryId: 1 },
    status,
    text: '',
    headers: location === undefined ? {} : { Location: location },
  });

  it.each([
    [303, '/v1/pets/7', '/v1/pets/7'],
    [302, 'http://127.0.0.1:9/v1/PETS?page=2', '/v1/PETS?page=2'],
    [301, '/v1/pets/', '/v1/pets/'],
  ] as const)('fails a %i to a create that sends the client to %s on the same origin', async (status, location, shown) => {
    const { report } = await judge(har(`create-${status}`, [redirected(status, location)]));
    expect(failed(report)).toEqual(['createPet.created']);
    expect(result(report, 'createPet.created')?.message).toContain(
      `a createPet request answered ${status}, a redirect a client follows with a GET of ${shown}: createPet answers 201 with the created Pet, 400 or 401 (§4.2, §5)`,
    );
  });

  it('leaves alone a redirect to another origin or path, one that keeps the method, one that names no place, and a repeat of an Idempotency-Key', async () => {
    const { report } = await judge(
      har('create-redirects-left', [
        redirected(301, 'https://127.0.0.1:9/v1/pets'),
        redirected(302, 'http://127.0.0.1:10/v1/pets'),
        redirected(307, '/v1/pets/'),
        redirected(308, '/v1/pets/'),
        redirected(303),
        redirected(303, 'http://['),
        // A front's page elsewhere on the origin, and a repeat of an Idempotency-Key, which
        // RFC 9110 §9.3.3 lets a server answer with 303 to the pet it made.
        redirected(302, '/login?next=%2Fv1%2Fpets'),
        redirected(303, '/v1/petshop'),
        { ...redirected(303, '/v1/pets/7'), requestHeaders: { 'Idempotency-Key': 'k-1' } },
        created,
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(result(report, 'createPet.created')?.outcome).toBe('pass');
  });

  it('leaves alone a 405 to a POST that asks for another method, and holds a 201', async () => {
    const { report } = await judge(
      har('create-405-override', [
        refusedPost({ requestHeaders: { 'X-HTTP-Method-Override': 'DELETE' } }),
        refusedPost({ requestHeaders: { 'X-HTTP-Method': 'PUT' } }),
        refusedPost({ requestHeaders: { 'X-Method-Override': 'PATCH' } }),
        refusedPost({ url: `${BASE}/pets?_method=DELETE` }),
        refusedPost({ sentText: '{"_method" : "DELETE", "name": "Rex", "categoryId": 1}' }),
        refusedPost({
          sentText: '_method=DELETE',
          requestHeaders: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
        created,
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(result(report, 'createPet.created')?.outcome).toBe('pass');
  });
});

describe('judge --har holds getPet to the petId it was asked for', () => {
  const get = (petId: string, status: number, body: unknown): Entry => ({
    url: `${BASE}/pets/${petId}`,
    status,
    body,
    headers: { ...GET_PET_DEPRECATION_HEADERS },
  });
  const notFound = { code: 'not_found', message: 'no', status: 404 };
  const refused = { code: 'unauthorized', message: 'no', status: 401 };

  it('fails a success to a petId that is no integer, and a 200 with another pet to one written otherwise', async () => {
    for (const [petId, body, why] of [
      ['0x1', rex, /petId "0x1" is no integer, and it answered 200, a success/],
      ['1.5', rex, /petId "1.5" is no integer/],
      ['007', { ...rex, id: 8 }, /it answered 200 with pet 8, not pet 7/],
      ['0', rex, /it answered 200 with pet 1, not pet 0/],
      ['2.0', rex, /it answered 200 with pet 1, not pet 2/],
      ['+2', rex, /it answered 200 with pet 1, not pet 2/],
      ['2.json', rex, /it answered 200 with pet 1, not pet 2/],
      ['1.xml', rex, /petId "1.xml" is no integer/],
      ['1e1', rex, /it answered 200 with pet 1, not pet 10/],
      // Percent-encoding that decodes to no text: the petId as sent.
      ['%zz', rex, /petId "%zz" is no integer/],
    ] as const) {
      const { report } = await judge(har('odd-id', [get(petId, 200, body)]));
      expect(failed(report)).toContain('getPet.path-boundaries');
      expect(result(report, 'getPet.path-boundaries')?.message).toMatch(why);
    }
  });

  it.each([
    ['a 404', get('7abc', 404, notFound)],
    ['a 400', get('1.5', 400, { ...notFound, code: 'bad_id', status: 400 })],
    ['a 404 to malformed percent-encoding', get('%E0%zz', 404, notFound)],
    ['that very pet', get('007', 200, { ...rex, id: 7 })],
    ['that very pet to an id a float writes', get('1.0', 200, rex)],
    ['that very pet to an id with a plus', get('+1', 200, rex)],
    ['that very pet to an id with a format suffix', get('1.json', 200, rex)],
  ])('lets %s stand, as a judgment', async (_, entry) => {
    const { report } = await judge(har('fair-id', [entry]));
    expect(failed(report)).toEqual([]);
    expect(report.traffic.exercised).toContain('getPet.path-boundaries');
  });

  it("leaves alone a word for a petId: an operation of the server's own, as /pets/findByStatus", async () => {
    const own = [
      'count',
      '_count',
      '$count',
      '@count',
      '~mine',
      'top10',
      'count.json',
      'export.csv',
    ];
    const { report } = await judge(
      har('own-operations', [
        { url: `${BASE}/pets/findByStatus?status=sold`, status: 200, body: [{ ...rex, id: 'x' }] },
        ...own.map((word) => ({ url: `${BASE}/pets/${word}`, status: 200, body: { count: 3 } })),
        { url: `${BASE}/pets/by-status`, status: 201, body: 'ok', auth: null },
        { url: `${BASE}/pets?limit=5`, status: 200, body: [rex] },
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(report.traffic).toMatchObject({
      exchanges: own.length + 3,
      judged: 1,
      otherPaths: own.length + 2,
    });
    // A petId that begins as a number's spelling is the spec's getPet's, whatever follows.
    for (const id of ['7abc', '1.5', '-1', '0x1', '$%7Bid%7D', '_']) {
      const judged = await judge(har(`odd-id-${id.charCodeAt(0)}`, [get(id, 200, rex)]));
      expect(failed(judged.report), id).toContain('getPet.path-boundaries');
    }
  });

  it("leaves alone other answers, a 200 recorded without its body, plain ids and a segment's parameter", async () => {
    const { report } = await judge(
      har('unjudged-ids', [
        get('1', 200, rex),
        get('123', 200, { ...rex, id: 123 }),
        get('0x1', 401, refused),
        { ...get('007', 200, undefined), noBody: true },
        // A segment's parameter is the server's to read (RFC 3986 §3.3), as a servlet's is.
        get('7;v=1', 200, { ...rex, id: 7 }),
      ]),
    );
    expect(failed(report)).toEqual([]);
    expect(report.traffic.exercised).not.toContain('getPet.path-boundaries');
  });
});

describe('judge --har on Errors that say nothing', () => {
  it('advises on an Error of an operation whose code or message is empty', async () => {
    const { report } = await judge(
      har('blank-errors', [
        {
          url: `${BASE}/pets/5`,
          status: 404,
          body: { code: 'not_found', message: '', status: 404 },
        },
      ]),
    );
    expect(failed(report)).toEqual([]);
    const empty = result(report, 'errors.error-not-empty');
    expect(empty?.outcome).toBe('advisory');
    expect(empty?.message).toMatch(/GET \/pets\/5 answered 404: the Error's message is empty/);
  });
});

describe('judge --har names as exercised the checks whose answers the traffic holds', () => {
  /** The checks whose scope the cases below tell apart. */
  const SCOPED = [
    'errors.strict-json',
    'errors.pet-fields',
    'errors.json-body',
    'errors.error-schema',
    'errors.status-matches',
    'errors.error-not-empty',
    'errors.success-status',
    'errors.no-server-errors',
    'listPets.at-most-limit',
    'getPet.deprecation-headers',
    'getPet.sunset-date',
    'getPet.deprecation-only-on-get-pet',
    // Across answers: a pet first seen is compared with nothing yet.
    'errors.same-pet',
    'errors.created-pets-agree',
  ];
  const notFound = { code: 'not_found', message: 'no pet 5', status: 404 };
  /** What every error answer with an Error body exercises. */
  const ERROR_ANSWER_CHECKS = [
    'errors.strict-json',
    'errors.json-body',
    'errors.error-schema',
    'errors.status-matches',
    'errors.error-not-empty',
    'errors.no-server-errors',
  ];
  it.each<[string, Entry, string[]]>([
    [
      'a 201 to createPet',
      created,
      [
        'errors.strict-json',
        'errors.pet-fields',
        'errors.success-status',
        'errors.no-server-errors',
        'getPet.deprecation-only-on-get-pet',
        // Its body is held to the body it was created from.
        'errors.created-pets-agree',
      ],
    ],
    [
      'a 200 list',
      { url: `${BASE}/pets?limit=5`, status: 200, body: [rex] },
      [
        'errors.strict-json',
        'errors.pet-fields',
        'errors.success-status',
        'errors.no-server-errors',
        'listPets.at-most-limit',
        'getPet.deprecation-only-on-get-pet',
      ],
    ],
    [
      'a 404 to getPet with an Error body',
      {
        url: `${BASE}/pets/5`,
        status: 404,
        body: notFound,
        headers: { ...GET_PET_DEPRECATION_HEADERS },
      },
      // Its headers' values are judged; their presence only on a pet found, as in the run.
      [...ERROR_ANSWER_CHECKS, 'getPet.sunset-date'],
    ],
    [
      'a 200 to getPet',
      {
        url: `${BASE}/pets/1`,
        status: 200,
        body: rex,
        headers: { ...GET_PET_DEPRECATION_HEADERS },
      },
      [
        'errors.strict-json',
        'errors.pet-fields',
        'errors.success-status',
        'errors.no-server-errors',
        'getPet.deprecation-headers',
        'getPet.sunset-date',
      ],
    ],
    [
      'a 400 to getPet with an Error body',
      {
        url: `${BASE}/pets/1x`,
        status: 400,
        body: { ...notFound, code: 'validation_failed', status: 400 },
      },
      [...ERROR_ANSWER_CHECKS],
    ],
    [
      "a router's 404 to a petId that is no int64",
      {
        url: `${BASE}/pets/9;v=1`,
        status: 404,
        body: notFound,
        headers: { ...GET_PET_DEPRECATION_HEADERS },
      },
      [...ERROR_ANSWER_CHECKS],
    ],
    [
      'a 404 to getPet of petId -1, an int64',
      {
        url: `${BASE}/pets/-1`,
        status: 404,
        body: notFound,
        headers: { ...GET_PET_DEPRECATION_HEADERS },
      },
      [...ERROR_ANSWER_CHECKS, 'getPet.sunset-date'],
    ],
    [
      'a 404 to getPet of petId 2^63, beyond int64',
      {
        url: `${BASE}/pets/9223372036854775808`,
        status: 404,
        body: notFound,
        headers: { ...GET_PET_DEPRECATION_HEADERS },
      },
      [...ERROR_ANSWER_CHECKS],
    ],
    [
      'a 400 to listPets in text/plain',
      { url: `${BASE}/pets?limit=0`, status: 400, text: 'bad limit' },
      ['errors.json-body', 'errors.no-server-errors', 'getPet.deprecation-only-on-get-pet'],
    ],
  ])('%s', async (_, entry, exercised) => {
    const { report } = await judge(har('scope', [entry]));
    expect(report.traffic.exercised.filter((id) => SCOPED.includes(id)).sort()).toEqual(
      [...exercised].sort(),
    );
  });

  it('names a pet shown again as exercising the checks across answers, and only then', async () => {
    const listed = { url: `${BASE}/pets?limit=5`, status: 200, body: [rex] };
    const across = ['errors.created-pets-agree', 'errors.same-pet'];
    const once = await judge(har('seen-once', [listed, { ...listed, body: [] }]));
    expect(once.report.traffic.exercised.filter((id) => across.includes(id))).toEqual([]);
    const again = await judge(har('seen-again', [created, listed]));
    expect(again.report.traffic.exercised.filter((id) => across.includes(id))).toEqual(across);
    expect(failed(again.report)).toEqual([]);
  });
});

describe('judge --har takes any 2xx for a success, 299 as much as 200', () => {
  const success = { ...created, status: 299 };

  it.each([
    [
      'a pet it created, shown otherwise than sent',
      [{ ...success, body: { ...rex, name: 'Max' } }],
      'errors.created-pets-agree',
    ],
    [
      'a createPet without Authorization',
      [created, { ...success, auth: null }],
      'auth.createPet.missing-header',
    ],
    ['a createPet body without a name', [post('{"categoryId":1}', 299)], 'createPet.missing-name'],
    [
      'a createPet whose pet has no name',
      [{ ...success, body: { id: 1, categoryId: 1 } }],
      'errors.pet-fields',
    ],
    [
      'a getPet of petId 7abc',
      [{ url: `${BASE}/pets/7abc`, status: 299, body: rex }],
      'getPet.path-boundaries',
    ],
  ] as const)('fails %s answered 299', async (_, entries, check) => {
    const { report } = await judge(har('success-299', [...entries]));
    expect(failed(report)).toContain(check);
  });

  it('holds a createPet sent as application/json answered 299, failing only its status', async () => {
    const { report } = await judge(har('json-299', [post('{"name":"Rex","categoryId":1}', 299)]));
    expect(report.traffic.exercised).toContain('createPet.media-type-spellings');
    expect(result(report, 'createPet.media-type-spellings')?.outcome).toBe('pass');
    expect(failed(report)).toEqual(['errors.success-status']);
  });
});

describe('judge --har replay lines', () => {
  it('repeat the headers an answer may turn on, and no other', async () => {
    const overridden: Entry = {
      ...created,
      requestHeaders: {
        'Content-Type': 'Application/JSON',
        'X-HTTP-Method-Override': 'GET',
        Cookie: 'session=cookie-secret-4711',
      },
      status: 200,
      body: [rex],
    };
    const untyped: Entry = { ...created, requestHeaders: {}, status: 500, text: 'boom' };
    const { report } = await judge(har('replayed-headers', [overridden, untyped]));
    const fields = result(report, 'errors.pet-fields')?.message ?? '';
    expect(fields).toMatch(
      /\nreplay: curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:9\/v1\/pets' -H "Authorization: Bearer \$ANIMAL_STORE_API_KEY" -H 'Content-Type: Application\/JSON' -H 'X-HTTP-Method-Override: GET' --data-raw /,
    );
    expect(JSON.stringify(report)).not.toContain('cookie-secret-4711');
    // A body sent without Content-Type is replayed without one, not as application/json.
    expect(result(report, 'errors.no-server-errors')?.message).toMatch(
      / -H 'Content-Type:' --data-raw /,
    );
  });
});

describe('judge --har holds every create to an id of its own', () => {
  const twin = { name: 'Twin', categoryId: 9, status: 'available' };
  const createdAs = (body: object, requestHeaders: Record<string, string> = {}): Entry => ({
    ...created,
    sent: twin,
    requestHeaders,
    body: { ...twin, ...body },
  });

  it('fails two creates answered with one id, with the same key and nothing between', async () => {
    const { report } = await judge(
      har('one-id-twice', [createdAs({ id: 1 }), createdAs({ id: 1, name: 'Twin' })]),
    );
    expect(messages(report)).toContainEqual(
      expect.stringMatching(
        /^createPet\.distinct-ids: .*id 1 was assigned to two created pets: the create answered 201 .* gave it too/,
      ),
    );
  });

  it('fails one id for two creates answered 200, or under two Idempotency-Keys', async () => {
    for (const [name, entries] of [
      ['answered-200', [createdAs({ id: 5 }), { ...createdAs({ id: 5 }), status: 200 }]],
      [
        'two-idempotency-keys',
        [
          createdAs({ id: 5 }, { 'Idempotency-Key': 'k-1' }),
          createdAs({ id: 5 }, { 'Idempotency-Key': 'k-2' }),
        ],
      ],
      [
        'one-idempotency-key',
        [createdAs({ id: 5 }, { 'Idempotency-Key': 'k-1' }), createdAs({ id: 5 })],
      ],
    ] as const) {
      const { report } = await judge(har(name, [...entries]));
      expect(failed(report), name).toContain('createPet.distinct-ids');
    }
  });

  it('fails one Idempotency-Key answered with one id and two pets, and holds its replay', async () => {
    const key = { 'Idempotency-Key': '0' };
    for (const [name, second, why] of [
      ['other-name', { name: 'Bob' }, 'name "Bob" after "Twin"'],
      ['other-category', { categoryId: 10 }, 'categoryId 10 after 9'],
      ['other-status', { status: 'sold' }, 'status "sold" after "available"'],
    ] as const) {
      const { report } = await judge(
        har(`one-key-two-pets-${name}`, [
          createdAs({ id: 1 }, key),
          createdAs({ id: 1, ...second }, key),
        ]),
      );
      expect(messages(report), name).toContainEqual(
        expect.stringContaining(
          `gave it too under the same Idempotency-Key, showing another pet (${why})`,
        ),
      );
    }
    // A replay may show the pet as the store keeps it: its status, which the first answer left
    // out, and its name normalised (NFC of a name sent decomposed).
    const { status: _, ...statusless } = twin;
    const decomposed = 'Zoe\u0301';
    const sentDecomposed = { sent: { ...twin, name: decomposed } };
    for (const [name, first, second] of [
      ['same', {}, createdAs({ id: 1, categoryId: 9.0 }, key)],
      ['status-shown', { body: { ...statusless, id: 1 } }, createdAs({ id: 1 }, key)],
      ['status-left-out', {}, { ...createdAs({ id: 1 }, key), body: { ...statusless, id: 1 } }],
      [
        'name-normalised',
        { ...sentDecomposed, body: { ...twin, name: decomposed, id: 1 } },
        { ...createdAs({ id: 1, name: decomposed.normalize('NFC') }, key), ...sentDecomposed },
      ],
    ] as const) {
      const replayed = await judge(
        har(`one-key-replayed-${name}`, [{ ...createdAs({ id: 1 }, key), ...first }, second]),
      );
      expect(messages(replayed.report), name).toEqual([]);
    }
  });

  it('judges no create without an id, and none alone', async () => {
    const noId = { ...createdAs({}), body: twin };
    const { report } = await judge(har('no-ids', [noId, noId]));
    expect(failed(report)).not.toContain('createPet.distinct-ids');
    const alone = await judge(har('one-create', [createdAs({ id: 1 })]));
    expect(alone.report.traffic.exercised).not.toContain('createPet.distinct-ids');
  });

  it('passes distinct ids, a repeat of one Idempotency-Key, other keys and a delete between', async () => {
    const idempotent = { 'Idempotency-Key': 'k-1' };
    const { report } = await judge(
      har('distinct-ids', [
        createdAs({ id: 1 }),
        createdAs({ id: 2 }),
        createdAs({ id: 3 }, idempotent),
        createdAs({ id: 3 }, idempotent),
        // Another key may see a store of its own.
        { ...createdAs({ id: 1 }), auth: 'Bearer other-key' },
      ]),
    );
    expect(messages(report)).toEqual([]);
    expect(report.traffic.exercised).toContain('createPet.distinct-ids');
    const freed = await judge(
      har('id-freed', [
        createdAs({ id: 1 }),
        { method: 'DELETE', url: `${BASE}/pets/1`, status: 204, text: '' },
        createdAs({ id: 1 }),
      ]),
    );
    expect(messages(freed.report)).toEqual([]);
  });

  it('fails a create of nothing, sent with no media type, answered 201', async () => {
    const nothing = post('', 201, { requestHeaders: { 'Content-Length': '0' } });
    const { report } = await judge(har('post-of-nothing', [nothing]));
    expect(messages(report)).toContainEqual(
      expect.stringMatching(/^createPet\.empty-body: .*the body is empty/),
    );
    // Refused as no JSON (415) or as a bad request (400): both hold.
    const refused = await judge(
      har('nothing-refused', [
        { ...nothing, status: 415, body: { code: 'unsupported', message: 'no', status: 415 } },
        post('', 400, { requestHeaders: { 'Content-Length': '0' } }),
      ]),
    );
    expect(messages(refused.report)).toEqual([]);
  });
});
