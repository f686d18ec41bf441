// PASS only when every must check ran: a server whose lists never reach the kit's pets ends
// INCOMPLETE (exit 3), with each check that could not run and why; the same data with a
// next-page Link passes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EXIT_STATUS } from '../src/index.js';
import { type FakeServer, type GapChoice, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';

const temp = new TemporaryFolder('conformance-verdicts-');
afterAll(() => temp.remove());
const file = (name: string) => join(temp.path, name);
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Runs the CLI (JSON on stdout) against a fake server holding thousands of older pets. */
async function runOnCrowdedStore(choices: readonly GapChoice[], extra: readonly string[] = []) {
  const server = await startFakeServer({ choices: ['preloaded-store', ...choices] });
  servers.push(server);
  const run = await runCli([
    '--base-url',
    server.baseUrl,
    '--api-key',
    server.apiKey,
    '--reporter',
    'json',
    ...extra,
  ]);
  return { ...run, report: JSON.parse(run.stdout) };
}

describe('a store whose lists show older pets first', () => {
  it('without paging, ends INCOMPLETE with exit 3 and names each must check that could not run', async () => {
    const { exitCode, report } = await runOnCrowdedStore(
      ['no-next-link'],
      ['--reporter', `markdown:${file('md')},html:${file('html')},junit:${file('xml')}`],
    );
    expect(report.verdict).toBe('incomplete');
    expect(report.ok).toBe(false);
    expect(exitCode).toBe(EXIT_STATUS.incomplete);
    expect(exitCode).toBe(3);
    expect(report.summary.failed).toBe(0);
    const ids = report.notRun.map((n: { id: string }) => n.id);
    expect(ids).toContain('createPet.listed');
    expect(ids).toContain('listPets.status-filter.available.includes-created');
    for (const { id, reason } of report.notRun) {
      const result = report.results.find((r: { id: string }) => r.id === id);
      expect(result.level).toBe('must');
      expect(result.outcome).toBe('skip');
      expect(reason).toMatch(/full page|no paging|Link/);
    }
    const markdown = readFileSync(file('md'), 'utf8');
    expect(markdown).toMatch(/^## Animal Store conformance: INCOMPLETE\n/);
    expect(markdown).toContain('### Not run (must): ');
    expect(markdown).toContain('#### `createPet.listed`');
    const html = readFileSync(file('html'), 'utf8');
    expect(html).toContain('<title>Animal Store conformance: INCOMPLETE</title>');
    expect(html).toContain('<li><code>createPet.listed</code>: ');
    const junit = readFileSync(file('xml'), 'utf8');
    expect(junit).toContain('<property name="verdict" value="INCOMPLETE"/>');
    expect(junit).toMatch(/<skipped message="NOT RUN \(must\): [^"]*full page/);
  });

  it('with a next-page Link, finds its pets by following it and passes', async () => {
    const { exitCode, report, stderr } = await runOnCrowdedStore([]);
    expect(report.notRun, stderr).toEqual([]);
    expect(report.verdict).toBe('pass');
    expect(exitCode).toBe(0);
    const listed = report.results.find(
      (r: { id: string }) => r.id === 'listPets.status-filter.available.includes-created',
    );
    expect(listed.message).toMatch(/over \d+ pages \(Link rel="next"\)/);
  });
});
