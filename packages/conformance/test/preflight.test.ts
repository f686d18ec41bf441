// Misconfiguration reads as misconfiguration: a base URL where no answer is in the spec's shapes,
// or a key refused on every operation, ends the run before the checks with exit 2 and one line.
// A server that answers in the spec's shapes, however wrongly, is judged: PASS, FAIL, INCOMPLETE.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { type FakeServer, type FakeServerOptions, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';

const servers: FakeServer[] = [];
const pages: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(
    pages.splice(0).map((p) => {
      p.closeAllConnections();
      return new Promise((resolve) => p.close(resolve));
    }),
  );
});

async function server(options: FakeServerOptions = {}): Promise<FakeServer> {
  const started = await startFakeServer(options);
  servers.push(started);
  return started;
}

/** Listens with `app` on 127.0.0.1 (closed after the test); its base URL, ending in /v1. */
async function baseUrlOf(app: Server): Promise<string> {
  pages.push(app);
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}/v1`;
}

/** A web app's catch-all on 127.0.0.1: every path answers 200 with its HTML page. */
async function htmlApp(): Promise<string> {
  return baseUrlOf(
    createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><div id="app"></div></body></html>');
    }),
  );
}

/**
 * A server on 127.0.0.1 that answers `GET /v1/pets?limit=1` and `GET /v1/pets/1` as `answers`
 * says (an Error body for a 4xx, a pet for a 200), and every other request 401 with an Error.
 */
async function scripted(answers: { list: number; get: number }): Promise<string> {
  const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
  // Each read's status, and the body it has when that is 200.
  const reads = new Map<string | undefined, [number, unknown]>([
    ['/v1/pets?limit=1', [answers.list, [pet]]],
    ['/v1/pets/1', [answers.get, pet]],
  ]);
  const app = createServer((req, res) => {
    const [status, found] = reads.get(req.url) ?? [401, undefined];
    const body =
      status === 200
        ? found
        : { code: status === 401 ? 'unauthorized' : 'not_found', message: 'no', status };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return baseUrlOf(app);
}

describe('the preflight, when one answer alone suggests a wrong base URL or key', () => {
  it.each([
    [
      { list: 401, get: 404 },
      /^GET \S+\/v1\/pets answered 401 to the API key given: is it valid\?/,
    ],
    [{ list: 404, get: 200 }, /^GET \S+\/v1\/pets answered 404: is the base URL right\?/],
  ])('judges the server, and gives a hint in the report and as the run goes (%o)', async (answers, hint) => {
    const url = await scripted(answers);
    const args = ['--base-url', url, '--api-key', 'k', '--only', 'errors'];
    const json = await runCli([...args, '--reporter', 'json']);
    // Judged, not stopped: the answers are in the spec's shapes.
    expect(json.exitCode).not.toBe(2);
    const report = JSON.parse(json.stdout) as ConformanceReport;
    expect(report.hints).toHaveLength(1);
    expect(report.hints[0]).toMatch(hint);
    const pretty = await runCli(args);
    expect(pretty.stderr).toMatch(new RegExp(`\n[^\n]*${hint.source.slice(1)}`));
  });

  it('gives no hint to a server that answers both reads as the spec says', async () => {
    const fake = await server();
    const { stdout, exitCode } = await runCli([
      ...['--base-url', fake.baseUrl, '--api-key', fake.apiKey, '--only', 'errors'],
      ...['--reporter', 'json'],
    ]);
    expect(exitCode).toBe(0);
    expect((JSON.parse(stdout) as ConformanceReport).hints).toEqual([]);
  });
});

describe.each(['pretty', 'json'])('the preflight (--reporter %s)', (reporter) => {
  it('ends a run at a wrong base path with exit 2 and one line saying so', async () => {
    const fake = await server();
    const wrong = fake.baseUrl.replace(/\/v1$/, '/api/v1');
    const { stdout, stderr, exitCode } = await runCli([
      ...['--base-url', wrong, '--api-key', fake.apiKey, '--reporter', reporter],
    ]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^animal-store-conformance: no operation of the spec answers at \S+\/api\/v1 \(GET \/pets answered 404, GET \/pets\/1 answered 404\): is the base URL right\? [^\n]*\n$/,
    );
    // Nothing but the two reads of the preflight reached the server.
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v1/pets?limit=1',
      'GET /api/v1/pets/1',
    ]);
  });

  it('ends a run whose key every operation refuses with exit 2 and one line saying so', async () => {
    const fake = await server();
    const { stdout, stderr, exitCode } = await runCli([
      ...['--base-url', fake.baseUrl, '--api-key', 'not-the-key', '--reporter', reporter],
    ]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^animal-store-conformance: the server refuses the API key on every operation \(GET \/pets answered 401, GET \/pets\/1 answered 401\): is it a valid key for \S+\?\n$/,
    );
    expect(stderr).not.toContain('not-the-key');
    expect(fake.created()).toBe(0);
  });

  it('ends a run whose reads are sent on to another origin (http to https) with exit 2, naming it', async () => {
    // The other origin: the server itself, which the kit's key never reaches through fetch.
    const fake = await server();
    const front = await baseUrlOf(
      createServer((req, res) => {
        res.writeHead(301, { location: `${new URL(fake.baseUrl).origin}${req.url}` }).end();
      }),
    );
    const { stdout, stderr, exitCode } = await runCli([
      ...['--base-url', front, '--api-key', fake.apiKey, '--reporter', reporter],
    ]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `animal-store-conformance: the API key is refused on every operation (GET /pets answered 401, GET /pets/1 answered 401): the server sends the kit's reads on to another origin, where the key is not sent: is the base URL ${fake.baseUrl}?\n`,
    );
    expect(fake.created()).toBe(0);
  });

  it('judges a server whose list answers at the base URL, though a read of a pet goes elsewhere', async () => {
    // A pet's read sent on to a store of files on another origin, which serves it without a key.
    const fake = await server();
    const front = await baseUrlOf(
      createServer((req, res) => {
        if (req.url?.startsWith('/v1/pets/')) {
          res.writeHead(302, { location: `${new URL(fake.baseUrl).origin}${req.url}/` }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      }),
    );
    const { stderr, exitCode } = await runCli([
      ...[
        '--base-url',
        front,
        '--api-key',
        fake.apiKey,
        '--reporter',
        reporter,
        '--only',
        'errors',
      ],
    ]);
    expect(exitCode, stderr).not.toBe(2);
  });

  it('ends a run where every path answers an HTML page with exit 2', async () => {
    const url = await htmlApp();
    const { stdout, stderr, exitCode } = await runCli([
      ...['--base-url', url, '--api-key', 'k', '--reporter', reporter],
    ]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/no operation of the spec answers at .*GET \/pets answered 200/);
  });

  it('judges a server that wraps its empty list and its errors in objects, exit 1', async () => {
    // Spring's wrap-root-value on an empty store: no pet to read, every answer JSON of its own.
    const app = createServer((req, res) => {
      const keyed = req.headers.authorization === 'Bearer k';
      const [status, body] = !keyed
        ? [401, { Error: { code: 'unauthorized' } }]
        : req.url?.startsWith('/v1/pets?')
          ? [200, { List: [] }]
          : [404, { Error: { code: 'not_found' } }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    const url = await baseUrlOf(app);
    const { stdout, exitCode } = await runCli([
      ...[
        '--base-url',
        url,
        '--api-key',
        'k',
        '--reporter',
        reporter,
        '--only',
        'listPets.limit-1',
      ],
    ]);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/listPets\.limit-1/);
  });

  it('judges a server whose first answer is a 400 Error to limit=1, naming the check, exit 1', async () => {
    const id = 'listPets.limit-1';
    const fake = await server({ faults: ['list-400-on-limit-1'] });
    const args = ['--base-url', fake.baseUrl, '--api-key', fake.apiKey, '--reporter', reporter];
    const { stdout, stderr, exitCode } = await runCli(args);
    expect(exitCode, stderr).toBe(1);
    if (reporter === 'json') {
      const report = JSON.parse(stdout) as ConformanceReport;
      expect(report.verdict).toBe('fail');
      expect(report.results.find((r) => r.id === id)?.outcome).toBe('fail');
    } else {
      expect(stdout).toContain(`✗ ${id}`);
    }
  });
});
