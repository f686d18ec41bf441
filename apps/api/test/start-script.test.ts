import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The root README's first command ends in `pnpm start`: it builds what the API needs and runs it
// in the foreground, so Ctrl-C (SIGINT to the whole process group) or a SIGTERM to pnpm stops it.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const readJson = (path: string) =>
  JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8')) as {
    name: string;
    scripts: Record<string, string>;
    dependencies?: Record<string, string>;
  };

/** Lines pnpm, Node or the API's log write when a script does not end well. */
const FAILURE = /ELIFECYCLE|ERR_PNPM|Command failed|Error\b|"level":[56]0/;

async function startAndStop(signal: 'SIGINT' | 'SIGTERM', toGroup: boolean) {
  // pnpm on the Node running this test: `node` on a script's PATH is pnpm's shell shim for the
  // workspace's Node, which would stand between the signal and pnpm.
  const pnpm =
    process.env.npm_execpath ??
    realpathSync(execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim());
  const child = spawn(process.execPath, [pnpm, 'start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_KEYS: 'start-script-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  // Settled as output arrives: by the API's listening line, or by the end of pnpm.
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const url = /"url":"([^"]+)","msg":"listening"/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.once('close', () => reject(new Error(output)));
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  try {
    // The first start may build: a busy machine takes minutes for that (the test's timeout).
    const url = await listening;
    expect(
      (await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer start-script-key' } }))
        .status,
    ).toBe(200);
    // Ctrl-C signals the terminal's whole foreground group; a supervisor signals pnpm alone.
    process.kill(toGroup ? -(child.pid as number) : (child.pid as number), signal);
    const [code, killedBy] = await exited;
    return { code, killedBy, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-(child.pid as number), 'SIGKILL');
    }
  }
}

describe('pnpm start', () => {
  it('builds the API and the workspace packages it runs on, not its test tools', () => {
    const start = readJson('package.json').scripts.start ?? '';
    const built = [...start.matchAll(/--filter=(\S+)/g)].map((m) => m[1]).sort();
    const api = readJson('apps/api/package.json');
    const runsOn = Object.entries(api.dependencies ?? {})
      .filter(([, version]) => version.startsWith('workspace:'))
      .map(([name]) => name);
    expect(built).toEqual([api.name, ...runsOn].sort());
    expect(start).toContain('--only');
  });

  it.each<['SIGINT' | 'SIGTERM', boolean, string]>([
    ['SIGINT', true, 'Ctrl-C'],
    ['SIGTERM', false, 'SIGTERM to pnpm'],
  ])('stops on %s (%s) with status 0 and no error line', async (signal, toGroup) => {
    const { code, killedBy, output } = await startAndStop(signal, toGroup);
    expect({ code, killedBy }).toEqual({ code: 0, killedBy: null });
    expect(output).toMatch(/"msg":"stopped"/);
    // pnpm echoes the script (`> turbo run build …`) before running it.
    const failures = output.split('\n').filter((l) => !l.startsWith('>') && FAILURE.test(l));
    expect(failures).toEqual([]);
  });
});
