import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CheckError, checkChangesets } from '../src/check-changesets.js';
import { changesetText, tempDir, writeFile } from './support/temp.js';

const CLI = fileURLToPath(new URL('../dist/check-changesets-cli.js', import.meta.url));

const IDENTITY = [
  '-c',
  'user.name=Test',
  '-c',
  'user.email=test@example.com',
  '-c',
  'commit.gpgsign=false',
];

const manifest = (name: string, version: string, extra: object = {}) =>
  `${JSON.stringify({ name, version, ...extra }, null, 2)}\n`;

/** A repository shaped like ours: two public packages, a private app, on branch `main`. */
function tempRepo() {
  const root = tempDir('check-changesets');
  const write = (file: string, text = `// ${file}\n`) => writeFile(root, file, text);
  const commit = (message: string) => {
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', [...IDENTITY, 'commit', '-qm', message], { cwd: root });
  };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  write('pnpm-workspace.yaml', "packages:\n  - 'apps/*'\n  - packages/*\n");
  write('.changeset/config.json', '{ "baseBranch": "main" }\n');
  write('.changeset/README.md', '# Changesets\n');
  write('packages/contract/package.json', manifest('@animal-store/contract', '0.1.0'));
  write('packages/contract/src/index.ts');
  write('packages/conformance/package.json', manifest('@animal-store/conformance', '0.1.0'));
  write('packages/conformance/src/index.ts');
  write('apps/api/package.json', manifest('@animal-store/api', '0.1.0', { private: true }));
  write('apps/api/src/main.ts');
  commit('initial');
  execFileSync('git', ['checkout', '-q', '-b', 'feature'], { cwd: root });
  const check = (env: Record<string, string> = {}) => checkChangesets({ cwd: root, env });
  return { root, write, commit, check };
}

type Repo = ReturnType<typeof tempRepo>;

describe('the changeset check', () => {
  it.each<[string, (repo: Repo) => void, string]>([
    [
      'a change to a private package',
      ({ write, commit }) => {
        write('apps/api/src/main.ts', '// changed\n');
        commit('api');
      },
      'no public package changed',
    ],
    [
      'only tests, README, CHANGELOG and the surface report of a public package',
      ({ write, commit }) => {
        write('packages/contract/test/a.test.ts');
        write('packages/contract/src/a.test.ts');
        write('packages/contract/README.md', '# contract\n');
        write('packages/contract/CHANGELOG.md', '# contract\n');
        write('packages/contract/api-report.json', '{}\n');
        commit('docs');
      },
      'no public package changed',
    ],
    [
      'a committed changeset naming the package',
      ({ write, commit }) => {
        write('packages/contract/src/index.ts', '// changed\n');
        write('.changeset/brave-lions.md', changesetText({ '@animal-store/contract': 'minor' }));
        commit('contract');
      },
      '@animal-store/contract: 1 file changed; named by .changeset/brave-lions.md',
    ],
    [
      'a changeset not yet committed, and a source change not yet staged',
      ({ write }) => {
        write('packages/contract/src/index.ts', '// changed\n');
        write('.changeset/brave-lions.md', changesetText({ '@animal-store/contract': 'patch' }));
      },
      'named by .changeset/brave-lions.md',
    ],
    [
      'a changeset that names the package with `none`',
      ({ write }) => {
        write('packages/contract/src/index.ts', '// changed\n');
        write('.changeset/quiet.md', changesetText({ '@animal-store/contract': 'none' }));
      },
      'named by .changeset/quiet.md',
    ],
    [
      'an empty changeset (pnpm changeset --empty)',
      ({ write, commit }) => {
        write('packages/contract/src/index.ts', '// a comment\n');
        write('.changeset/empty-one.md', '---\n---\n');
        commit('comment');
      },
      'no release needed, says the empty .changeset/empty-one.md',
    ],
    [
      'an empty changeset not yet committed, with the change it speaks for',
      ({ write }) => {
        write('packages/contract/src/index.ts', '// a comment\n');
        write('.changeset/empty-one.md', '---\n---\n');
      },
      'no release needed, says the empty .changeset/empty-one.md',
    ],
    [
      'a version bump that consumes the changesets (the version PR)',
      ({ write, commit, root }) => {
        execFileSync('git', ['checkout', '-q', 'main'], { cwd: root });
        write('packages/contract/src/index.ts', '// changed\n');
        write('.changeset/brave-lions.md', changesetText({ '@animal-store/contract': 'minor' }));
        commit('contract');
        execFileSync('git', ['checkout', '-q', '-B', 'feature'], { cwd: root });
        rmSync(join(root, '.changeset/brave-lions.md'));
        write('packages/contract/package.json', manifest('@animal-store/contract', '0.2.0'));
        write('packages/contract/CHANGELOG.md', '# @animal-store/contract\n\n## 0.2.0\n');
        commit('Version Packages');
      },
      '@animal-store/contract: 1 file changed; a release (version 0.1.0 -> 0.2.0)',
    ],
  ])('passes on %s', (_, change, line) => {
    const repo = tempRepo();
    change(repo);
    const outcome = repo.check();
    expect(outcome.lines.join('\n')).toContain(line);
    expect(outcome.ok).toBe(true);
  });

  it.each<[string, (repo: Repo) => void, string]>([
    [
      'a source change with no changeset',
      ({ write, commit }) => {
        write('packages/contract/src/index.ts', '// changed\n');
        commit('contract');
      },
      '@animal-store/contract: 1 file changed (packages/contract/src/index.ts) but no changeset',
    ],
    [
      'a changeset that names another package',
      ({ write, commit }) => {
        write('packages/contract/src/index.ts', '// changed\n');
        write('packages/conformance/src/index.ts', '// changed\n');
        write('.changeset/kit.md', changesetText({ '@animal-store/conformance': 'patch' }));
        commit('both');
      },
      '@animal-store/contract: 1 file changed (packages/contract/src/index.ts) but no changeset',
    ],
    [
      'a changeset that was already there at the base',
      ({ write, commit, root }) => {
        execFileSync('git', ['checkout', '-q', 'main'], { cwd: root });
        write('.changeset/old.md', changesetText({ '@animal-store/contract': 'patch' }));
        commit('old changeset');
        execFileSync('git', ['checkout', '-q', '-B', 'feature'], { cwd: root });
        write('packages/contract/src/index.ts', '// changed\n');
        commit('contract');
      },
      'but no changeset added since names it',
    ],
    [
      'an empty changeset committed with another change (a tooling one)',
      ({ write, commit }) => {
        write('apps/api/src/main.ts', '// changed\n');
        write('.changeset/empty-one.md', '---\n---\n');
        commit('api');
        write('packages/contract/src/index.ts', '// changed\n');
        commit('contract');
      },
      '@animal-store/contract: 1 file changed (packages/contract/src/index.ts) but no changeset',
    ],
    [
      'an empty changeset committed before a change not yet committed',
      ({ write, commit }) => {
        write('apps/api/src/main.ts', '// changed\n');
        write('.changeset/empty-one.md', '---\n---\n');
        commit('api');
        write('packages/contract/src/index.ts', '// changed\n');
      },
      '@animal-store/contract: 1 file changed (packages/contract/src/index.ts) but no changeset',
    ],
    [
      'a change to package.json alone (a new dependency)',
      ({ write }) => {
        write(
          'packages/conformance/package.json',
          manifest('@animal-store/conformance', '0.1.0', { dependencies: { x: '^1.0.0' } }),
        );
      },
      '@animal-store/conformance: 1 file changed (packages/conformance/package.json)',
    ],
  ])('fails on %s', (_, change, line) => {
    const repo = tempRepo();
    change(repo);
    const outcome = repo.check();
    expect(outcome.ok).toBe(false);
    expect(outcome.lines.join('\n')).toContain(line);
    expect(outcome.lines.at(-1)).toContain('pnpm changeset --empty');
  });

  it('lists at most five files of a package', () => {
    const { write, check } = tempRepo();
    for (const n of [1, 2, 3, 4, 5, 6, 7]) write(`packages/contract/src/f${n}.ts`);
    expect(check().lines.join('\n')).toContain('packages/contract/src/f5.ts, and 2 more)');
  });

  it('is skipped with SKIP_CHANGESET_CHECK=1', () => {
    const { write, check } = tempRepo();
    write('packages/contract/src/index.ts', '// changed\n');
    expect(check({ SKIP_CHANGESET_CHECK: '1' })).toEqual({
      ok: true,
      lines: ['SKIP_CHANGESET_CHECK=1: not checking for changesets'],
    });
  });

  it('compares with origin/main rather than a stale local main', () => {
    const { root, write, commit, check } = tempRepo();
    write('packages/contract/src/index.ts', '// changed\n');
    write('.changeset/brave-lions.md', changesetText({ '@animal-store/contract': 'minor' }));
    commit('merged upstream');
    // origin/main has the change already; the local main has not been pulled.
    execFileSync('git', ['update-ref', 'refs/remotes/origin/main', 'HEAD'], { cwd: root });
    write('packages/conformance/src/index.ts', '// changed\n');
    const outcome = check();
    expect(outcome.lines[0]).toMatch(/^comparing with origin\/main \(merge base [0-9a-f]{12}\)$/);
    expect(outcome.lines.some((l) => l.startsWith('@animal-store/contract'))).toBe(false);
    expect(outcome.lines.join('\n')).toContain('@animal-store/conformance: 1 file changed (');
  });

  it('compares with CHANGESET_BASE when it is set', () => {
    const { root, write, commit, check } = tempRepo();
    write('packages/contract/src/index.ts', '// changed\n');
    commit('contract');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
    write('packages/conformance/src/index.ts', '// changed\n');
    const outcome = check({ CHANGESET_BASE: head.trim() });
    expect(outcome.lines[0]).toContain(`comparing with CHANGESET_BASE=${head.trim()}`);
    expect(outcome.lines.join('\n')).not.toContain('@animal-store/contract');
    expect(outcome.ok).toBe(false);
  });

  it('refuses a CHANGESET_BASE that is no commit', () => {
    const { check } = tempRepo();
    expect(() => check({ CHANGESET_BASE: 'no-such-branch' })).toThrow(
      new CheckError('CHANGESET_BASE=no-such-branch is not a commit of this repository'),
    );
  });

  it('passes, saying why, when there is no base branch to compare with', () => {
    const { root, write, check } = tempRepo();
    execFileSync('git', ['branch', '-q', '-D', 'main'], { cwd: root });
    write('packages/contract/src/index.ts', '// changed\n');
    expect(check()).toEqual({
      ok: true,
      lines: [
        'not checking for changesets: neither origin/main nor main exists in this clone ' +
          '(a single-branch clone?); set CHANGESET_BASE=<ref> to compare with another ref',
      ],
    });
  });

  it('names a malformed changeset', () => {
    const { write, check } = tempRepo();
    write('.changeset/broken.md', "---\n'@animal-store/contract': huge\n---\n");
    expect(() => check()).toThrow(/^\.changeset\/broken\.md: could not parse changeset/);
  });
});

describe('the animal-store-check-changesets command', () => {
  const run = (cwd: string, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, CHANGESET_BASE: '', SKIP_CHANGESET_CHECK: '', ...env },
    });

  it('exits 1 with the finding and the fix on stderr', () => {
    const { root, write } = tempRepo();
    write('packages/contract/src/index.ts', '// changed\n');
    const { status, stdout, stderr } = run(join(root, 'packages/contract'));
    expect({ status, stdout }).toEqual({ status: 1, stdout: '' });
    expect(stderr).toMatch(/^check-changesets: comparing with main /);
    expect(stderr).toContain('check-changesets: Add a changeset naming each package above');
  });

  it('exits 0 with what it found on stdout', () => {
    const { root } = tempRepo();
    expect(run(root)).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('check-changesets: no public package changed\n'),
      stderr: '',
    });
  });

  it('exits 2 when it cannot check', () => {
    const { root } = tempRepo();
    expect(run(root, { CHANGESET_BASE: 'nope' })).toMatchObject({
      status: 2,
      stderr: 'check-changesets: CHANGESET_BASE=nope is not a commit of this repository\n',
    });
  });
});
