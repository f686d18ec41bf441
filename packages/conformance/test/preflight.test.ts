// Misconfiguration reads as misconfiguration: a base URL where no operation of the spec answers,
// or a key refused on every operation, ends the run before the checks with exit 2 and one line.
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeServer, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<FakeServer> {
  const started = await startFakeServer();
  servers.push(started);
  return started;
}

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
});
