import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The root README's first command ends in `pnpm start`: it builds what the API needs and runs it
// in the foreground, so Ctrl-C (SIGINT to the whole process group) or a SIGTERM to pnpm stops it.
// Its build rewrites apps/api/dist/, so this file is the `api-start` project, which `pnpm test`
// runs after every other test (`pnpm --filter @animal-store/api test:start` alone).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const readJson = (path: string) =>
  JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8')) as {
    name: string;
    scripts: Record<string, string>;
    dependencies?: Record<string, string>;
  };

/** Lines pnpm, Node or the API's log write when a script does not end well. */
const FAILURE = /ELIFECYCLE|ERR_PNPM|Command failed|Error\b|"level":[56]0/;

/** `pnpm start` in a process group of its own, once the API has said it listens. */
async function startPnpm(env: Record<string, string> = {}) {
  // pnpm on the Node running this test: `node` on a script's PATH is pnpm's shell shim for the
  // workspace's Node, which would stand between the signal and pnpm.
  const pnpm =
    process.env.npm_execpath ??
    realpathSync(execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim());
  const child = spawn(process.execPath, [pnpm, 'start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_KEYS: 'start-script-key', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const pid = child.pid as number;
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-pid, 'SIGKILL');
  };
  /** Waits until the output matches `pattern`; fails if the process ends first. */
  const waitFor = async (pattern: RegExp) => {
    // The first start may build: a busy machine takes minutes for that.
    const deadline = Date.now() + 280_000;
    while (!pattern.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(output);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    await waitFor(/"msg":"listening"/);
  } catch (error) {
    kill();
    throw error;
  }
  const url = /"url":"([^"]+)"/.exec(output)?.[1] as string;
  return { pid, url, output: () => output, waitFor, exited, kill };
}

const auth = { headers: { Authorization: 'Bearer start-script-key' } };

async function startAndStop(signal: 'SIGINT' | 'SIGTERM', toGroup: boolean) {
  const started = await startPnpm();
  try {
    expect((await fetch(`${started.url}/pets`, auth)).status).toBe(200);
    // Ctrl-C signals the terminal's whole foreground group; a supervisor signals pnpm alone.
    process.kill(toGroup ? -started.pid : started.pid, signal);
    const [code, killedBy] = await started.exited;
    return { code, killedBy, output: started.output() };
  } finally {
    started.kill();
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

  it('drains on a SIGTERM to the whole group, which pnpm passes on as a copy, until a second Ctrl-C', async () => {
    // systemd and most supervisors signal the whole group: the API gets the SIGTERM and pnpm's
    // copy of it. The drain delay is long: only the second signal below may end the drain.
    const started = await startPnpm({ DRAIN_DELAY_MS: '600000' });
    try {
      const origin = new URL(started.url).origin;
      process.kill(-started.pid, 'SIGTERM');
      await started.waitFor(/"msg":"draining/);
      expect((await fetch(`${origin}/readyz`)).status).toBe(503);
      expect((await fetch(`${started.url}/pets`, auth)).status).toBe(200);
      expect(started.output()).not.toMatch(/"msg":"(shutting down|second signal)/);
      // A person's second Ctrl-C, to the whole group as a terminal sends it.
      process.kill(-started.pid, 'SIGINT');
      const [code, killedBy] = await started.exited;
      expect({ code, killedBy }).toEqual({ code: 0, killedBy: null });
      const messages = started
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; signal?: string })
        .filter((line) => line.signal !== undefined || line.msg === 'stopped')
        .map((line) => `${line.msg.split(':')[0]} ${line.signal ?? ''}`.trim());
      // pnpm's copy of the SIGTERM may have merged with the original on its way (the kernel
      // keeps one of a signal pending): the copy line is there at most once.
      expect(messages.filter((m) => !m.startsWith('signal again at once'))).toEqual([
        'draining SIGTERM',
        'second signal SIGINT',
        'shutting down SIGTERM',
        'stopped',
      ]);
    } finally {
      started.kill();
    }
  });
});
