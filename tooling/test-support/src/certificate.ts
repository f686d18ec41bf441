import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from './process.js';

/** A key and its self-signed certificate (PEM), and the certificate's file. */
export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
  readonly certPath: string;
}

/**
 * A self-signed certificate for the IP address `ip` (P-256, valid for a day), made by openssl in
 * `dir` as `name`.key and `name`.pem. Fails, never skips, where openssl cannot be run.
 */
export async function selfSignedCertificate(
  dir: string,
  name: string,
  ip = '127.0.0.1',
): Promise<TestCertificate> {
  const keyPath = join(dir, `${name}.key`);
  const certPath = join(dir, `${name}.pem`);
  const made = await runProcess('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    '-days',
    '1',
    '-subj',
    `/CN=${ip}`,
    '-addext',
    `subjectAltName=IP:${ip}`,
  ]).catch((error: Error) => {
    throw new Error(`openssl makes the test's certificate, and it cannot run: ${error.message}`);
  });
  if (made.exitCode !== 0) throw new Error(`openssl made no certificate: ${made.stderr}`);
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
}
