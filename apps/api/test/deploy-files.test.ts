import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const deploy = (path: string) => fileURLToPath(new URL(`../../../deploy/${path}`, import.meta.url));

/** Runs `command`; a missing command fails (never skips) the test. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; output: string }>((resolve, reject) => {
    execFile(
      command,
      args,
      { env: { PATH: `${process.env.PATH}:/usr/sbin:/sbin`, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
          reject(new Error(`${command} is not installed (Debian: apt-get install ${command})`));
          return;
        }
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ code: typeof code === 'number' ? code : 0, output: stdout + stderr });
      },
    );
  });
}

describe('the deployment files', () => {
  it('deploy/haproxy/haproxy.cfg is a valid haproxy configuration', async () => {
    const { code, output } = await run('haproxy', ['-c', '-f', deploy('haproxy/haproxy.cfg')], {
      HAPROXY_BIND: '127.0.0.1:8080',
      API_SERVER_1: '127.0.0.1:3001',
      API_SERVER_2: '127.0.0.1:3002',
      API_SERVER_3: '127.0.0.1:3003',
    });
    expect(output).toContain('Configuration file is valid');
    expect(code).toBe(0);
  });

  it('deploy/nginx/animal-store.conf is a valid nginx configuration', async () => {
    const prefix = mkdtempSync(join(tmpdir(), 'animal-store-nginx-'));
    const main = join(prefix, 'nginx.conf');
    writeFileSync(
      main,
      `pid ${join(prefix, 'nginx.pid')};\nerror_log stderr;\nevents {}\n` +
        `http { access_log off; include ${deploy('nginx/animal-store.conf')}; }\n`,
    );
    const { code, output } = await run('nginx', ['-t', '-p', prefix, '-c', main]);
    expect(output).toContain('test is successful');
    expect(code).toBe(0);
  });
});
