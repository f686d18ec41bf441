// What keeps the traffic judge from false alarms, on small HAR files written here: exchanges that
// are not the spec's are left alone, answers are related only under one key and only while
// nothing outside the spec may change pets, a 429 is never judged, secrets never show.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
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
  status: number;
  body?: unknown;
  /** A body that is no JSON, sent as text/plain. */
  text?: string;
  /** Leaves the answer's body out, as some recorders do. */
  noBody?: boolean;
  headers?: Record<string, string>;
}

/** A HAR file of `entries`, one after another, 5 ms each. */
function har(name: string, entries: Entry[]): string {
  const path = join(files.dir, `${name}.har`);
  const list = entries.map((e) => {
    clock += 10;
    const auth = e.auth === undefined ? KEY : e.auth;
    return {
      startedDateTime: new Date(clock).toISOString(),
      time: 5,
      request: {
        method: e.method ?? 'GET',
        url: e.url,
        headers: auth === null ? [] : [{ name: 'Authorization', value: auth }],
        ...(e.sent === undefined
          ? {}
          : { postData: { mimeType: 'application/json', text: JSON.stringify(e.sent) } }),
      },
      response: {
        status: e.status,
        headers: [
          {
            name: 'Content-Type',
            value: e.text === undefined ? 'application/json' : 'text/plain',
          },
          ...Object.entries(e.headers ?? {}).map(([name, value]) => ({ name, value })),
        ],
        content: e.noBody
          ? { size: 120, mimeType: 'application/json', text: '' }
          : { text: e.text ?? JSON.stringify(e.body) },
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

const failed = (report: JsonReport) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const created: Entry = {
  method: 'POST',
  url: `${BASE}/pets`,
  sent: { name: 'Rex', categoryId: 1, status: 'available' },
  status: 201,
  body: rex,
};

describe('judge --har leaves alone what the spec does not speak of', () => {
  it('counts other hosts, other paths and 429s, and judges none of them', async () => {
    const file = har('others', [
      { url: 'http://elsewhere.example/v1/pets', status: 500, text: 'boom' },
      { url: `${BASE}/health`, status: 503, text: 'starting' },
      { method: 'OPTIONS', url: `${BASE}/pets`, status: 204, text: '' },
      { url: `${BASE}/pets?limit=1`, status: 429, text: 'slow down' },
      { url: `${BASE}/pets?limit=1&api_key=url-key-9876543210`, status: 200, body: [rex] },
    ]);
    const { report, exitCode, stdout } = await judge(file);
    expect(failed(report)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.traffic).toMatchObject({
      exchanges: 5,
      judged: 1,
      otherHosts: 1,
      otherPaths: 2,
      rateLimited: 1,
    });
    expect(stdout).not.toContain('url-key-9876543210');
    expect(stdout).not.toContain('har-key-0123456789');
    // The Markdown report (a job summary) says what the traffic held and exercised too.
    const markdown = await runCli(['judge', '--har', file, '--reporter', 'markdown']);
    expect(markdown.stdout).toMatch(
      /\n- traffic of HAR file .*others\.har: 5 exchanges, 1 of the spec's operations judged \(left alone: 1 with other hosts, 2 of other paths or methods, 1 answered 429\)\n/,
    );
    expect(markdown.stdout).toMatch(/\n- Exercised \(\d+\): .*listPets\.at-most-limit/);
    expect(markdown.stdout).not.toContain('url-key-9876543210');
    // So do the HTML page and the JUnit file, escaped their ways.
    const html = await runCli(['judge', '--har', file, '--reporter', 'html']);
    expect(html.stdout).toMatch(
      /<li>traffic of HAR file .*others\.har: 5 exchanges, 1 of the spec&#39;s operations judged \(left alone: 1 with other hosts, 2 of other paths or methods, 1 answered 429\)<\/li>/,
    );
    expect(html.stdout).toMatch(/<li>Exercised \(\d+\): .*listPets\.at-most-limit/);
    expect(html.stdout).not.toContain('Created no pets');
    const junit = await runCli(['judge', '--har', file, '--reporter', 'junit']);
    expect(junit.stdout).toMatch(
      /TRAFFIC: traffic of HAR file .*others\.har: 5 exchanges, 1 of the spec&apos;s operations judged/,
    );
    expect(junit.stdout).toMatch(/TRAFFIC: Not exercised \(\d+\): /);
    for (const text of [html.stdout, junit.stdout]) {
      expect(text).not.toContain('url-key-9876543210');
      expect(text).not.toContain('har-key-0123456789');
    }
  });

  it('stops relating answers once the traffic holds an operation that may change pets', async () => {
    const gone: Entry = {
      url: `${BASE}/pets/1`,
      status: 404,
      body: { code: 'not_found', message: 'no', status: 404 },
    };
    const without = await judge(har('lost', [created, gone]));
    expect(failed(without.report)).toEqual(['errors.created-pets-agree']);
    const deleted = await judge(
      har('deleted', [
        created,
        { method: 'DELETE', url: `${BASE}/pets/1`, status: 204, text: '' },
        gone,
      ]),
    );
    expect(failed(deleted.report)).toEqual([]);
    expect(deleted.report.traffic.petsChangedBy).toBe('DELETE /pets/1');
  });

  it('relates answers only under one key: another key may see other pets', async () => {
    const renamed: Entry = { url: `${BASE}/pets/1`, status: 200, body: { ...rex, name: 'Max' } };
    const sameKey = await judge(har('same-key', [created, renamed]));
    expect(failed(sameKey.report)).toContain('errors.same-pet');
    const otherKey = await judge(
      har('other-key', [created, { ...renamed, auth: 'Bearer another-key-42' }]),
    );
    expect(failed(otherKey.report)).toEqual([]);
  });

  it('judges an answer recorded without its body on its status alone', async () => {
    const { report } = await judge(
      har('no-body', [{ url: `${BASE}/pets?limit=1`, auth: null, status: 200, noBody: true }]),
    );
    expect(failed(report)).toEqual(['auth.listPets.missing-header']);
    expect(report.traffic.bodiesNotRecorded).toBe(1);
    expect(report.traffic.exercised).not.toContain('listPets.at-most-limit');
  });

  it('refuses a file that is no HAR, and one with nothing of the spec, with status 2', async () => {
    const notHar = join(files.dir, 'not.har');
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
});
