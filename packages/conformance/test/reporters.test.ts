import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { XMLValidator } from 'fast-xml-parser';
import MarkdownIt from 'markdown-it';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHECKS, GROUPS } from '../src/index.js';
import { type FakeServer, type FakeServerOptions, startFakeServer } from './support/fake-server.js';
import { HOSTILE } from './support/hostile.js';
import { runCli } from './support/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const temp = new TemporaryFolder('conformance-reporters-');
afterAll(() => temp.remove());

/** A key long and odd enough that any trace of it in a report is found. */
const KEY = 'Kit-Key-51c0ffee9d2a';

async function target(options: FakeServerOptions = {}) {
  const server = await startFakeServer({ apiKey: KEY, ...options });
  servers.push(server);
  return ['--base-url', server.baseUrl, '--api-key', KEY];
}

describe('several reporters in one run, and --skip', () => {
  it('writes pretty to stdout and each report named with a file to it, all of the same run', async () => {
    const args = await target({ faults: ['get-400-for-absent'], choices: ['no-location'] });
    const file = (name: string) => join(temp.path, `several.${name}`);
    const { stdout, stderr, exitCode } = await runCli([
      ...args,
      '--reporter',
      `junit:${file('xml')},html:${file('html')}`,
      '--reporter',
      `json:${file('json')}`,
      '--reporter',
      `markdown:${file('md')}`,
    ]);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^Animal Store conformance kit /);
    expect(stderr).toContain('  ✗ getPet.not-found');
    const json = JSON.parse(readFileSync(file('json'), 'utf8'));
    expect(json.results).toHaveLength(CHECKS.length);
    expect(stdout).toContain(`run ${json.runId}, seed ${json.seed}`);
    const junit = readFileSync(file('xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit).toContain(`<property name="runId" value="${json.runId}"/>`);
    expect(readFileSync(file('html'), 'utf8')).toContain(`run ${json.runId}`);
    expect(readFileSync(file('md'), 'utf8')).toContain(`run ${json.runId}`);
    const reports = ['xml', 'json', 'html', 'md'].map((name) => readFileSync(file(name), 'utf8'));
    for (const text of [stdout, stderr, ...reports]) expect(text).not.toContain(KEY);
  });

  it('keeps a single --reporter NAME on stdout alone', async () => {
    const args = await target();
    const { stdout, stderr } = await runCli([...args, '--only', 'auth', '--reporter', 'json']);
    expect(JSON.parse(stdout).ok).toBe(true);
    expect(stderr).toBe('');
  });

  it.each([
    [['--reporter', 'json,junit'], /only one report goes to stdout, not json and junit/],
    [['--reporter', 'html:'], /--reporter html: needs a file/],
    [['--reporter', 'tap:x'], /--reporter must be one of pretty, json, junit, markdown, html/],
    [['--reporter', 'json:a', '--reporter', 'html:a'], /two reports would go to a/],
    [['--skip', 'pets'], /--skip: unknown group or check "pets"/],
    [['--skip', ''], /--skip needs a group or check id/],
    [['--skip', GROUPS.join(',')], /leave no check to run/],
  ])('refuses %j with exit status 2', async (extra, message) => {
    const { stderr, exitCode } = await runCli([
      '--base-url',
      'http://x/v1',
      '--api-key',
      'k',
      ...extra,
    ]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 with one line when a report cannot be written', async () => {
    const args = await target();
    const missing = join(temp.path, 'no-such-folder', 'r.html');
    const { stderr, exitCode } = await runCli([
      ...args,
      '--only',
      'auth',
      '--reporter',
      `html:${missing}`,
    ]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(new RegExp(`cannot write the report to ${missing}: .*ENOENT`));
  });
  it('leaves out the groups and check ids it names', async () => {
    const args = await target();
    const skip = ['createPet', 'listPets', 'auth.getPet.missing-header'];
    const { stdout, exitCode } = await runCli([
      ...args,
      '--skip',
      skip.join(','),
      '--reporter',
      'json',
    ]);
    expect(exitCode).toBe(0);
    const ids: string[] = JSON.parse(stdout).results.map((r: { id: string }) => r.id);
    const expected = CHECKS.filter(
      (c) => c.group !== 'createPet' && c.group !== 'listPets' && c.id !== skip[2],
    ).map((c) => c.id);
    expect(ids).toEqual(expected);
    expect(ids.length).toBeGreaterThan(0);
  });
});

describe('the Markdown report', () => {
  it('gives counts, the failures first with their section and replay line, and folds the rest', async () => {
    const args = await target({ faults: ['get-400-for-absent'], choices: ['no-location'] });
    const { stdout, exitCode } = await runCli([...args, '--reporter', 'markdown']);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^## Animal Store conformance: FAIL\n/);
    expect(stdout).toMatch(
      /\n\| passed \| failed \| advisories \| skipped \|\n\|---\|---\|---\|---\|\n\| \d+ \| 1 \| 1 \| 0 \|\n/,
    );
    const failed = stdout.indexOf('### Failed (must)');
    const advisories = stdout.indexOf('<summary>1 advisory');
    expect(failed).toBeGreaterThan(0);
    expect(advisories).toBeGreaterThan(failed);
    expect(stdout.indexOf('<summary>', failed)).toBe(advisories);
    const failure = stdout.slice(failed, advisories);
    expect(failure).toContain('#### `getPet.not-found`');
    expect(failure).toMatch(
      /must, §4\.3, §7 \(\[1\]\(\S+#43-get-an-animal[^)]*\), \[2\]\(\S+#7-errors\)\)/,
    );
    expect(failure).toMatch(
      /\nreplay: curl -sS -i '[^']+\/v1\/pets\/\d+' -H "Authorization: Bearer \$ANIMAL_STORE_API_KEY"\n```\n/,
    );
    expect(stdout.slice(advisories)).toContain('#### `createPet.location-header`');
    expect(stdout).toMatch(/<summary>\d+ passed<\/summary>/);
    expect(stdout).not.toContain(KEY);
  });

  it('renders a server’s HTML, script and Markdown as text', async () => {
    const args = await target({ faults: ['get-400-for-absent'], errorMessage: HOSTILE });
    const { stdout } = await runCli([...args, '--only', 'getPet', '--reporter', 'markdown']);
    // Rendered with raw HTML allowed, as a job summary is before GitHub sanitises it.
    const html = new MarkdownIt({ html: true }).render(stdout);
    expect(html).not.toMatch(/<script|<img|<strong>bold|<a href="javascript/i);
    expect(html).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;');
    expect(html).toContain('**bold**');
  });
});
