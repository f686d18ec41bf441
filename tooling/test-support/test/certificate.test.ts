import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate, TemporaryFolder } from '../src/index.js';

const temp = new TemporaryFolder('test-support-certificate-');
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  temp.remove();
});

/** An HTTPS server on 127.0.0.1 with `key` and `cert`; its port. */
async function serving(tls: { key: string; cert: string }): Promise<number> {
  const server = createServer(tls, (_req, res) => res.end('ok'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** How a TLS handshake with 127.0.0.1:`port` trusting only `ca` ends: `ok`, or the error's code. */
function handshake(port: number, ca: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca }, () => {
      socket.end();
      resolve('ok');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('selfSignedCertificate', () => {
  it('makes a key and a certificate for 127.0.0.1 that a client trusting it accepts', async () => {
    const made = await selfSignedCertificate(temp.path, 'local');
    expect(made.cert).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(made.key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(made.certPath, 'utf8')).toBe(made.cert);
    expect(await handshake(await serving(made), made.cert)).toBe('ok');
  });

  it('makes one for the address given, which 127.0.0.1 does not match', async () => {
    const made = await selfSignedCertificate(temp.path, 'other', '127.0.0.2');
    expect(await handshake(await serving(made), made.cert)).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('is not trusted by a client that was not given it', async () => {
    const made = await selfSignedCertificate(temp.path, 'untrusted');
    const other = await selfSignedCertificate(temp.path, 'unrelated');
    expect(await handshake(await serving(made), other.cert)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});
