import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersionOf, type ServerDef, serverEntry } from './children.js';
import type { Settings } from './settings.js';

/** The servers of a run, in the order their rounds rotate, and what must stop after it. */
export interface Lineup {
  servers: ServerDef[];
  /** Stops the span sink of a traced API variant, if any. */
  close(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The repository at `ref`, built (`pnpm install`, then the bench and what it depends on) in a
 * directory of its own under the system's temporary directory, kept for the next run: the API
 * as it was at that commit, started by that commit's own bench child (`api-server.js`), which
 * speaks the same protocol. Returns the child's path and the full commit.
 */
function buildAtRef(
  ref: string,
  progress: (line: string) => void,
): { entry: string; commit: string } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(tmpdir(), `animal-store-bench-${commit.slice(0, 12)}`);
  const entry = join(dir, 'tooling/bench/dist/servers/api-server.js');
  if (existsSync(entry)) return { entry, commit };
  progress(`building the API at ${commit.slice(0, 12)} in ${dir} (a minute or two)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // `git archive` writes the files alone: no worktree is registered in the repository.
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], { cwd: REPO_ROOT });
  const run = (...args: string[]) =>
    execFileSync('pnpm', args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  run('install', '--frozen-lockfile', '--prefer-offline');
  run('--filter', '@animal-store/bench...', 'run', 'build');
  if (!existsSync(entry)) throw new Error(`--ref ${ref}: ${entry} was not built`);
  return { entry, commit };
}

/** A local OTLP receiver that reads and discards every export, for the traced API variant. */
async function spanSink(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * The servers `settings` ask for: the API, the matched baseline, the Fastify peer, the replay
 * limit, then the API variants: on another Node.js binary (`--node`), traced at a sampling ratio
 * (`--tracing`), at other commits (`--ref`, each its own server, in the order given).
 */
export async function lineup(
  settings: Settings,
  progress: (line: string) => void,
): Promise<Lineup> {
  const own = { node: process.execPath, nodeVersion: process.version };
  const servers: ServerDef[] = [
    { name: 'api', entry: serverEntry('api-server.js'), ...own, verify: 'exact' },
    { name: 'baseline', entry: serverEntry('baseline-server.js'), ...own, verify: 'exact' },
    { name: 'fastify', entry: serverEntry('fastify-server.js'), ...own, verify: 'unordered' },
    { name: 'limit', entry: serverEntry('replay-server.js'), ...own, verify: 'exact' },
  ];
  const api = servers[0] as ServerDef;
  if (settings.node) {
    const nodeVersion = nodeVersionOf(settings.node);
    servers.push({ ...api, name: `api on Node ${nodeVersion}`, node: settings.node, nodeVersion });
  }
  let sink: Server | undefined;
  if (settings.tracing !== undefined) {
    sink = await spanSink();
    const { port } = sink.address() as AddressInfo;
    servers.push({
      ...api,
      name: `api traced ${settings.tracing * 100}%`,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: String(settings.tracing),
      },
    });
  }
  const commits = new Set<string>();
  for (const ref of settings.ref) {
    const { entry, commit } = buildAtRef(ref, progress);
    if (commits.has(commit)) throw new Error(`--ref ${ref}: commit ${commit} is given twice`);
    commits.add(commit);
    servers.push({ ...api, name: `api at ${commit.slice(0, 7)}`, entry, verify: 'body' });
  }
  return {
    servers,
    close: () =>
      new Promise<void>((resolve) => {
        if (!sink) return resolve();
        sink.close(() => resolve());
        sink.closeAllConnections();
      }),
  };
}
