// `proxy --target URL`, run in-process (`proxyCommand`, stopped by the test rather than by a
// signal): what it says when it starts, each violation printed as it passes, the report and exit
// status when stopped, and a clear usage line for every option it cannot take.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../src/run.js';
import { proxyCommand } from '../src/traffic/cli.js';
import { runCli } from './support/run-cli.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A target on 127.0.0.1 that creates whatever it is sent and lists no pets; its `/v1` URL. */
async function lenientTarget(): Promise<string> {
  let id = 0;
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      if (req.method === 'POST') {
        id += 1;
        res.writeHead(201, { 'content-type': 'application/json', location: `/v1/pets/${id}` });
        res.end(`{"id":${id},"name":"Rex","categoryId":1,"status":"available"}`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/**
 * Runs `proxy` with `args`, lets `drive` send traffic through it (given the client's base URL),
 * then stops it as Ctrl-C would; what it wrote and its exit status.
 */
async function proxyRun(args: readonly string[], drive: (clientBase: string) => Promise<void>) {
  let stdout = '';
  let stderr = '';
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let listening: (origin: string) => void = () => {};
  const origin = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const exit = proxyCommand(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stopped,
    onListening: (at) => listening(at),
  });
  await drive(`${await origin}/v1`);
  stop();
  const exitCode = await exit;
  return { exitCode, stdout, stderr };
}

/** POSTs `body` as JSON to `base`/pets. */
async function post(base: string, body: string): Promise<number> {
  const res = await fetch(`${base}/pets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k3y-of-test' },
    body,
  });
  await res.text();
  return res.status;
}

describe('proxy --target', () => {
  it('says where to point the client, prints each violation as it passes, and reports when stopped', async () => {
    const target = await lenientTarget();
    const run = await proxyRun(['--target', target, '--reporter', 'json'], async (base) => {
      expect(await post(base, '{"categoryId":1}')).toBe(201);
      expect(await post(base, '{"name":"Rex","categoryId":1,"status":null}')).toBe(201);
    });
    const lines = run.stderr.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^Judging traffic to ${target}: point the client at http://127\\.0\\.0\\.1:\\d+/v1 \\(stop with Ctrl-C for the report\\)$`,
      ),
    );
    // A must broken, then a should: each with its mark, its id and its section.
    expect(lines[1]).toMatch(
      /^ {2}✗ createPet\.missing-name \(§[^)]+\): POST \/pets answered 201: /,
    );
    expect(lines[2]).toMatch(
      /^ {2}! createPet\.status-null-rejected \(§[^)]+\): POST \/pets answered 201: /,
    );
    expect(lines.slice(3)).toEqual(['']);
    expect(run.exitCode).toBe(1);
    const report = JSON.parse(run.stdout) as { verdict: string; traffic: object };
    expect(report).toMatchObject({
      verdict: 'fail',
      traffic: { judged: 2, source: `proxy to ${target}` },
    });
  });

  it('fails a success to a request without a bearer key, in any shape: it saw the request as sent', async () => {
    // Keyless reads get 403 (Spring Security's default); an answer with any Authorization, 200.
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        const keyed = req.headers.authorization !== undefined;
        res.writeHead(keyed ? 200 : 403, { 'content-type': 'application/json' });
        res.end(keyed ? '[]' : '{"code":"forbidden","message":"no","status":403}');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const run = await proxyRun(['--target', target, '--reporter', 'json'], async (base) => {
      for (const authorization of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer']) {
        const res = await fetch(`${base}/pets?limit=5`, {
          headers: authorization === undefined ? {} : { authorization },
        });
        await res.text();
      }
      // Two lines of a bearer token: the server takes one of them (as node:http takes the
      // first), which may be a key.
      await new Promise<void>((resolve, reject) => {
        const twice = request(`${base}/pets/1`);
        twice.setHeader('authorization', ['Bearer k', 'Bearer k']);
        twice.on('response', (res) => res.resume().on('end', resolve)).on('error', reject);
        twice.end();
      });
    });
    const report = JSON.parse(run.stdout) as { results: { id: string; outcome: string }[] };
    const outcome = (id: string) => report.results.find((r) => r.id === id)?.outcome;
    // A 403 without Authorization may have a cause the traffic shows (a CORS filter's Origin).
    expect(outcome('auth.listPets.missing-header')).toBe('skip');
    expect(outcome('auth.listPets.wrong-scheme')).toBe('fail');
    expect(outcome('auth.listPets.empty-token')).toBe('fail');
    expect(outcome('auth.getPet.word-after-key')).toBe('skip');
    expect(run.stderr).toMatch(
      /auth\.listPets\.wrong-scheme .*answered 200, a success: a missing or invalid key is 401/,
    );
    expect(run.exitCode).toBe(1);
  });

  it('fails an advisory only with --strict', async () => {
    const target = await lenientTarget();
    const nullStatus = (base: string) =>
      post(base, '{"name":"Rex","categoryId":1,"status":null}').then(() => {});
    const lenient = await proxyRun(['--target', target], nullStatus);
    expect(lenient.exitCode).toBe(0);
    expect(lenient.stdout).toMatch(/^PASS/m);
    const strict = await proxyRun(['--target', target, '--strict'], nullStatus);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toMatch(/^FAIL/m);
  });

  it('exits 2 and says so when nothing of the spec passed through', async () => {
    const target = await lenientTarget();
    const run = await proxyRun(['--target', target], async () => {});
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /\nproxy: no exchange of the spec's operations passed through: nothing judged\n$/,
    );
  });

  it('names the base URL when only other paths passed through: a --target without /v1', async () => {
    const target = await lenientTarget();
    const origin = new URL(target).origin;
    const run = await proxyRun(['--target', origin], async (base) => {
      // The client's base is the proxy's /v1, as the API's is: /v1/pets is no path below the origin.
      const headers = { authorization: 'Bearer k3y-of-test' };
      await (await fetch(`${base}/pets?limit=1`, { headers })).text();
      await (await fetch(`${base}/health`)).text();
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `nothing judged (2 exchanges to other paths: the operations are /pets and /pets/{petId} right below --target ${origin}, the base URL, which ends in /v1)\n`,
    );
  });

  it('listens where --host and --port say', async () => {
    const target = await lenientTarget();
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    await expect(
      proxyCommand(['--target', target, '--host', '127.0.0.1', '--port', String(port)], {
        stdout: () => {},
        stderr: () => {},
        stopped: new Promise(() => {}),
      }),
    ).rejects.toThrow(
      new RegExp(`^proxy: cannot listen: listen EADDRINUSE.*127\\.0\\.0\\.1:${port}`),
    );
  });

  it('leaves the process with no signal listener of its own when it cannot listen', async () => {
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    // No `stopped`: the command's own Ctrl-C handling, as the CLI runs it.
    await expect(
      proxyCommand(['--target', 'http://127.0.0.1:9/v1', '--port', String(port)], {
        stdout: () => {},
        stderr: () => {},
      }),
    ).rejects.toThrow(/^proxy: cannot listen: /);
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it.each([
    ['no target', [], 'proxy: --target URL is required'],
    ['a target that is no URL', ['--target', 'pets'], 'proxy: --target "pets" is not a URL'],
    [
      'a target that is not http',
      ['--target', 'ftp://127.0.0.1/v1'],
      'proxy: --target must be http or https, not ftp:',
    ],
    [
      'a target with a query',
      ['--target', 'http://127.0.0.1/v1?x=1'],
      'proxy: --target must not carry a query or fragment',
    ],
    [
      'a target with a fragment',
      ['--target', 'http://127.0.0.1/v1#top'],
      'proxy: --target must not carry a query or fragment',
    ],
    [
      'a target with an empty query',
      ['--target', 'http://127.0.0.1/v1?'],
      'proxy: --target must not carry a query or fragment',
    ],
    [
      // The line that starts the proxy names its target: a password there would be shown.
      'a target with a user name and password',
      ['--target', 'http://user:s3cret-pw@127.0.0.1/v1'],
      'proxy: --target must not carry a user name or password',
    ],
    [
      'a port beyond 65535',
      ['--target', 'http://127.0.0.1/v1', '--port', '65536'],
      'proxy: --port must be a port number (0 to 65535), not "65536"',
    ],
    [
      'a port that is no number',
      ['--target', 'http://127.0.0.1/v1', '--port', '80a'],
      'proxy: --port must be a port number (0 to 65535), not "80a"',
    ],
    [
      'a port of six digits',
      ['--target', 'http://127.0.0.1/v1', '--port', '000080'],
      'proxy: --port must be a port number (0 to 65535), not "000080"',
    ],
    [
      'a settle time that is no whole number',
      ['--target', 'http://127.0.0.1/v1', '--settle-ms', '1.5'],
      'proxy: --settle-ms must be a whole number of 0 or more, not "1.5"',
    ],
    [
      'an unknown option',
      ['--target', 'http://127.0.0.1/v1', '--fast'],
      "proxy: Unknown option '--fast'",
    ],
    [
      'a positional argument',
      ['--target', 'http://127.0.0.1/v1', 'x'],
      "proxy: Unexpected argument 'x'",
    ],
  ])('exits 2 with one usage line for %s', async (_, args, message) => {
    const run = await runCli(['proxy', ...args]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toMatch(/^animal-store-conformance: .*\(see --help\)\n$/);
  });

  it.each([
    ['an https target', ['--target', 'https://127.0.0.1:9/v1']],
    ['port 65535', ['--target', 'http://127.0.0.1:9/v1', '--port', '65535']],
  ])('takes %s', async (_, args) => {
    // Stopped at once: nothing passes through, so it exits 2, or it could not listen; never a
    // usage error.
    const outcome = await proxyCommand(args, {
      stdout: () => {},
      stderr: () => {},
      stopped: Promise.resolve(),
    }).catch((error: unknown) => error);
    expect(outcome).not.toBeInstanceOf(UsageError);
  });

  it('points the client at the bare origin for a target without a path', async () => {
    const target = new URL(await lenientTarget()).origin;
    const run = await proxyRun(['--target', target], async () => {});
    expect(run.stderr).toMatch(
      new RegExp(
        `^Judging traffic to ${target}: point the client at http://127\\.0\\.0\\.1:\\d+ \\(stop`,
      ),
    );
  });

  it('takes a target ending in slashes', async () => {
    const target = await lenientTarget();
    const run = await proxyRun(['--target', `${target}//`], async (base) => {
      expect(base).toMatch(/\/v1$/);
      expect(await post(base, '{"name":"Rex","categoryId":1}')).toBe(201);
    });
    expect(run.stderr).toContain(`Judging traffic to ${target}: point the client at`);
    expect(run.exitCode).toBe(0);
  });
});
