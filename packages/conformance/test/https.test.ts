// The kit and its proxy over HTTPS, as implementers' staging servers often are: a server whose
// CA the kit is given through NODE_EXTRA_CA_CERTS (read by Node when it starts, hence the child
// processes) is checked in full; one whose certificate the kit cannot trust stops the run at once
// with the reason and the remedy.
import { fileURLToPath } from 'node:url';
import {
  runProcess,
  selfSignedCertificate,
  startLogged,
  type TestCertificate,
} from '@animal-store/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { type FakeServer, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';
import { scratch } from './support/traffic.js';

const bin = fileURLToPath(new URL('../bin/animal-store-conformance.js', import.meta.url));
const files = scratch();
let certificate: TestCertificate;
let server: FakeServer;

beforeAll(async () => {
  certificate = await selfSignedCertificate(files.path, 'server');
  server = await startFakeServer({ tls: certificate });
});
afterAll(async () => {
  await server?.close();
  files.remove();
});

/** The kit's CLI in a child process, trusting the CA in `caFile`. */
const kit = (caFile: string, args: readonly string[]) =>
  runProcess(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: caFile },
  });

describe('the kit against a server over HTTPS', () => {
  it('passes a correct server whose CA it is given in NODE_EXTRA_CA_CERTS', async () => {
    const sentBefore = server.requests.length;
    const run = await kit(certificate.certPath, [
      '--base-url',
      server.baseUrl,
      '--api-key',
      server.apiKey,
      '--reporter',
      'json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as ConformanceReport;
    expect(report.baseUrl).toBe(server.baseUrl);
    expect(report.verdict).toBe('pass');
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(0);
    // Every request of the run went over TLS to this server, bodies and all.
    const sent = server.requests.slice(sentBefore);
    expect(sent.filter((r) => r.method === 'POST' && r.body !== '').length).toBeGreaterThan(0);
    expect(server.created()).toBeGreaterThan(0);
  });

  it('stops with the reason and NODE_EXTRA_CA_CERTS when the certificate is not trusted', async () => {
    const { stdout, stderr, exitCode } = await runCli([
      '--base-url',
      server.baseUrl,
      '--api-key',
      server.apiKey,
    ]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      new RegExp(
        `^animal-store-conformance: cannot reach ${server.baseUrl}: self-signed certificate`,
      ),
    );
    expect(stderr).toContain('set NODE_EXTRA_CA_CERTS to the file of its certificate (PEM)');
  });

  it('names a certificate for another address without the CA remedy, which would not help', async () => {
    const other = await selfSignedCertificate(files.path, 'other', '127.0.0.2');
    const elsewhere = await startFakeServer({ tls: other });
    try {
      const run = await kit(other.certPath, [
        '--base-url',
        elsewhere.baseUrl,
        '--api-key',
        elsewhere.apiKey,
      ]);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `^animal-store-conformance: cannot reach ${elsewhere.baseUrl}: .*127\\.0\\.0\\.1`,
        ),
      );
      // The kit trusts this certificate: it is one for 127.0.0.2, not for the server's address.
      expect(run.stderr).not.toContain('NODE_EXTRA_CA_CERTS');
    } finally {
      await elsewhere.close();
    }
  });
});

describe('the proxy in front of a server over HTTPS', () => {
  it('forwards to a target whose CA it is given in NODE_EXTRA_CA_CERTS, and judges the traffic', async () => {
    const proxy = await startLogged(
      process.execPath,
      [bin, 'proxy', '--target', server.baseUrl, '--reporter', 'json'],
      {
        env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: certificate.certPath },
        ready: /point the client at (http:\/\/\S+)/,
      },
    );
    try {
      const base = proxy.match[1] as string;
      const created = server.created();
      const answer = await fetch(`${base}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 7 }),
      });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toMatchObject({ name: 'Rex', categoryId: 7 });
      expect(server.created()).toBe(created + 1);
      expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: '/pets' });
    } finally {
      await proxy.stop();
    }
    expect(proxy.exitStatus()).toBe(0);
    const report = JSON.parse(proxy.stdout()) as ConformanceReport;
    expect(report.verdict).toBe('pass');
    expect(report.traffic?.judged).toBe(1);
  });
});
