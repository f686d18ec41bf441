import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoggedProcess, onFreePort, spawnLogged, waitUntil } from '@animal-store/test-support';
import { stopAfterFile } from './file-cleanup.js';
import { exchange } from './raw-http.js';

/** A file of deploy/, as shipped. */
export const deployFile = (path: string) =>
  fileURLToPath(new URL(`../../../../deploy/${path}`, import.meta.url));

/** A balancer started from the repository's configuration in front of the API. */
export interface Balancer {
  name: 'haproxy' | 'nginx';
  /** Where clients connect, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  /** What the balancer wrote so far. */
  output(): string;
}

/**
 * Starts `command`, stopped after the file's tests (SIGTERM: nginx's master stops its workers
 * before it exits), and then its configuration folder `prefix` removed, if it has one. A missing
 * command fails (never skips) the test.
 */
function startChild(
  command: string,
  args: string[],
  { env = {}, prefix }: { env?: Record<string, string>; prefix?: string } = {},
) {
  // Debian installs haproxy and nginx in /usr/sbin, on root's PATH only.
  const child = spawnLogged(command, args, {
    env: { PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin`, ...env },
  });
  stopAfterFile(async () => {
    await child.stop();
    if (prefix !== undefined) rmSync(prefix, { recursive: true, force: true });
  });
  return child;
}

/** Waits until `origin` answers `GET /healthz` with 200 through the balancer. */
async function untilServing(origin: string, balancer: LoggedProcess, name: string) {
  await waitUntil(balancer, `${name} (Debian: apt-get install ${name})`, async () => {
    // One connection per try, closed after it: no idle connection counts against the address.
    const { data } = await exchange(
      origin,
      `GET /healthz HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nConnection: close\r\n\r\n`,
    ).catch(() => ({ data: Buffer.alloc(0) }));
    return /^HTTP\/1\.1 200 /.test(data.toString('latin1')) ? true : undefined;
  });
}

/**
 * deploy/haproxy/haproxy.cfg as shipped, its three servers `api`, `api2` and `api3`
 * (`host:port`; all `api` by default). A haproxy that exits later fails `exited`.
 */
export function startHaproxy(
  api: string,
  api2 = api,
  api3 = api,
): Promise<Balancer & { exited: Promise<void> }> {
  return onFreePort(async (port) => {
    const child = startChild('haproxy', ['-f', deployFile('haproxy/haproxy.cfg'), '-db'], {
      env: {
        HAPROXY_BIND: `127.0.0.1:${port}`,
        API_SERVER_1: api,
        API_SERVER_2: api2,
        API_SERVER_3: api3,
      },
    });
    const origin = `http://127.0.0.1:${port}`;
    await untilServing(origin, child, 'haproxy');
    return { name: 'haproxy', origin, output: child.output, exited: child.exited };
  });
}

/**
 * deploy/nginx/animal-store.conf with its addresses replaced (the file writes them in place):
 * the upstream's three servers all `api` (`host:port`), listening on a free port. Included in
 * the http block of a minimal main configuration, as its header says.
 */
export function startNginx(api: string): Promise<Balancer> {
  return onFreePort((port) => startNginxOn(port, api));
}

/** `startNginx` on `port`, which may turn out taken. */
async function startNginxOn(port: number, api: string): Promise<Balancer> {
  const shipped = readFileSync(deployFile('nginx/animal-store.conf'), 'utf8');
  let site = shipped;
  for (const [from, to] of [
    ['server 127.0.0.1:3001 ', `server ${api} `],
    ['server 127.0.0.1:3002 ', `server ${api} `],
    ['server 127.0.0.1:3003 ', `server ${api} `],
    ['listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`],
  ] as const) {
    if (!site.includes(from)) throw new Error(`deploy/nginx/animal-store.conf has no "${from}"`);
    site = site.replace(from, to);
  }
  const prefix = mkdtempSync(join(tmpdir(), 'animal-store-nginx-'));
  const main = join(prefix, 'nginx.conf');
  try {
    writeFileSync(join(prefix, 'animal-store.conf'), site);
    writeFileSync(
      main,
      `pid ${join(prefix, 'nginx.pid')};\nerror_log stderr;\ndaemon off;\nevents {}\n` +
        `http { access_log off; include ${join(prefix, 'animal-store.conf')}; }\n`,
    );
  } catch (error) {
    // No nginx started to remove it after the file's tests.
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
  const child = startChild('nginx', ['-p', prefix, '-c', main], { prefix });
  const origin = `http://127.0.0.1:${port}`;
  await untilServing(origin, child, 'nginx');
  return { name: 'nginx', origin, output: child.output };
}
