import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { HELP } from '../src/cli.js';
import { MAX_CREATED } from '../src/fixtures.js';
import type { ConformanceReport } from '../src/index.js';
import { CHECKS, GROUPS, KIT_VERSION } from '../src/index.js';
import {
  closedBaseUrl,
  type FakeServer,
  type FakeServerOptions,
  KNOWN_CATEGORY_IDS,
  startFakeServer,
} from './support/fake-server.js';
import { runCli } from './support/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fake server and the arguments that point the CLI at it. */
async function target(options: FakeServerOptions = {}) {
  const server = await startFakeServer(options);
  servers.push(server);
  return { server, args: ['--base-url', server.baseUrl, '--api-key', server.apiKey] };
}

describe('animal-store-conformance', () => {
  it('prints the usage with --help and exits 0', async () => {
    const { stdout, stderr, exitCode } = await runCli(['--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(HELP);
    expect(stdout).toMatch(/^Usage: animal-store-conformance --base-url URL --api-key KEY/);
    expect(stderr).toBe('');
  });

  it('prints the kit version with --version', async () => {
    expect(await runCli(['--version'])).toEqual({
      stdout: `${KIT_VERSION}\n`,
      stderr: '',
      exitCode: 0,
    });
  });

  it.each([
    ['no arguments', [], /--base-url is required/],
    ['no API key', ['--base-url', 'http://127.0.0.1:9/v1'], /--api-key is required/],
    ['an unknown option', ['--base-url', 'http://x/v1', '--api-key', 'k', '--fast'], /'--fast'/],
    ['a positional argument', ['http://x/v1'], /positional/],
    [
      'an unknown reporter',
      ['--base-url', 'http://x/v1', '--api-key', 'k', '--reporter', 'tap'],
      /--reporter must be one of pretty, json, junit/,
    ],
    [
      'an unknown group',
      ['--base-url', 'http://x/v1', '--api-key', 'k', '--only', 'pets'],
      /unknown group or check "pets"/,
    ],
    ['a base URL that is no URL', ['--base-url', 'pets', '--api-key', 'k'], /is not a URL/],
    [
      'a base URL with a user name and password',
      ['--base-url', 'http://user:s3cret-pw@x/v1', '--api-key', 'k'],
      /--base-url must not carry a user name or password: the kit sends the key as Authorization/,
    ],
    [
      'a base URL with a user name alone',
      ['--base-url', 'http://someone@x/v1', '--api-key', 'k'],
      /--base-url must not carry a user name or password/,
    ],
    [
      'a base URL with an empty query',
      ['--base-url', 'http://x/v1?', '--api-key', 'k'],
      /--base-url must not carry a query or fragment/,
    ],
    ...['0', '500ms', 'x500', '-500', '2.5'].map((value) => [
      `the timeout ${value}`,
      // `=`: a value may start with a dash.
      ['--base-url', 'http://x/v1', '--api-key', 'k', `--timeout-ms=${value}`],
      new RegExp(`--timeout-ms must be a positive integer, not "${value}"`),
    ]),
    ...[
      ['max-pets', '12abc'],
      ['seed', '-1'],
      ['settle-ms', '1.5'],
      ['settle-ms', 'x1'],
    ].map(([name, value]) => [
      `--${name} ${value}`,
      ['--base-url', 'http://x/v1', '--api-key', 'k', `--${name}=${value}`],
      new RegExp(`--${name} must be a whole number of 0 or more, not "${value}"`),
    ]),
    [
      'fewer pets than the checks create',
      ['--base-url', 'http://x/v1', '--api-key', 'k', '--max-pets', '1'],
      /--max-pets must be at least \d+, what the checks themselves may create, not 1/,
    ],
    ...[
      ['an unknown option', ['--count', '3'], /'--count'/],
      ['a positional argument', ['42'], /positional/],
      ['a categoryId that is no integer', ['--category-id', 'x'], /"x" is not an integer/],
      ['a categoryId with more after it', ['--category-id', '42x'], /"42x" is not an integer/],
      ['a categoryId with more before it', ['--category-id', 'x42'], /"x42" is not an integer/],
    ].map(([what, args, message]) => [
      `fixtures with ${what}`,
      ['fixtures', ...(args as string[])],
      message as RegExp,
    ]),
  ] as [
    string,
    string[],
    RegExp,
  ][])('exits 2 with one line on stderr for %s', async (_, args, message) => {
    const { stdout, stderr, exitCode } = await runCli(args);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/^animal-store-conformance: .*\(see --help\)\n$/);
  });

  it.each([
    'pretty',
    'json',
    'junit',
  ])('exits 2 with one clear line when the base URL is unreachable (%s)', async (reporter) => {
    const url = await closedBaseUrl();
    const args = ['--base-url', url, '--api-key', 'k', '--reporter', reporter];
    const { stdout, stderr, exitCode } = await runCli(args);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(`^animal-store-conformance: cannot reach ${url}: .*ECONNREFUSED[^\\n]*\\n$`),
    );
  });

  it('hides the API key in what it writes before a run starts, even in the base URL', async () => {
    // Some gateways route by a key in the path; the key is still never printed.
    const key = 'path-key-0123456789';
    const url = (await closedBaseUrl()).replace(/\/v1$/, `/${key}/v1`);
    const { stderr, exitCode } = await runCli(['--base-url', url, '--api-key', key]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(
      /^animal-store-conformance: cannot reach http:\/\/127\.0\.0\.1:\d+\/\[redacted key\]\/v1: /,
    );
    expect(stderr).not.toContain(key);
  });

  it('judges what it can and exits 3 naming the shapes tried when createPet refuses every name shape', async () => {
    const { args } = await target({ choices: ['known-categories-only'] });
    const { stdout, exitCode } = await runCli([...args, '--reporter', 'json']);
    expect(exitCode).toBe(3);
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(report.verdict).toBe('incomplete');
    const writing = report.results.filter((r) => r.id === 'createPet.created');
    expect(writing[0]?.outcome).toBe('skip');
    expect(writing[0]?.message).toMatch(
      /every name shape tried: lower \("cf[a-p]+a"\): 400 "[^"]+", capitalised \("Cf.*--name-shape .*--category-id/,
    );
    expect(report.notRun.map((n) => n.id)).toContain('createPet.created');
    // The checks that write nothing still judged the server.
    expect(report.results.find((r) => r.id === 'auth.listPets.missing-header')?.outcome).toBe(
      'pass',
    );
  });

  it('uses the name shape given with --name-shape, trying none', async () => {
    const { args, server } = await target({ choices: ['capitalised-names-only'] });
    const { exitCode } = await runCli([
      ...args,
      '--only',
      'createPet.created',
      '--name-shape',
      'capitalised',
    ]);
    expect(exitCode).toBe(0);
    const names = server.requests
      .filter((r) => r.method === 'POST')
      .map((r) => (JSON.parse(r.body) as { name: string }).name);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/^Cf[a-p]+[a-z]+$/);
  });

  it('takes the API key from ANIMAL_STORE_API_KEY', async () => {
    const { server } = await target();
    const result = await runCli(['--base-url', server.baseUrl, '--only', 'auth'], {
      ANIMAL_STORE_API_KEY: server.apiKey,
    });
    expect(result.exitCode).toBe(0);
  });

  it('exits 0 against a conforming server, with a summary on stdout and progress on stderr', async () => {
    const { args } = await target();
    const { stdout, stderr, exitCode } = await runCli(args);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Animal Store conformance kit /);
    expect(stdout).toMatch(
      new RegExp(`\\n${CHECKS.length} passed, 0 failed, 0 advisories, 0 skipped\\n`),
    );
    expect(stdout).toMatch(/\nCreated \d+ pets named cf[a-p]{8}<n>; they stay/);
    expect(stdout).toMatch(/\nPASS: every must check ran and passed\n$/);
    expect(stderr).toMatch(
      /^Checking http:\/\/127\.0\.0\.1:\d+\/v1 \(run [a-p]{8}, seed \d+, \d+ checks\)\n/,
    );
    expect(stderr).toContain('  ✓ listPets.limit-100\n');
  });

  it('exits 1 against a failing server and gives each failure its section and reason', async () => {
    const { args } = await target({ faults: ['list-ignores-status-filter'] });
    const { stdout, exitCode } = await runCli(args);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(
      /\n {2}✗ listPets\.status-filter\.sold \(§4\.1\): GET \/pets\?status=sold&limit=100 returned pet \d+ with status "\w+"\n/,
    );
    expect(stdout).toMatch(/\nFAIL: 7 must checks failed\n$/);
  });

  it('prints one JSON document with the documented shape for --reporter json', async () => {
    const { args } = await target({ faults: ['sunset-wrong-date'] });
    const { stdout, stderr, exitCode } = await runCli([...args, '--reporter', 'json']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe('');
    const report = JSON.parse(stdout);
    expect(report.kit).toEqual({ name: '@animal-store/conformance', version: KIT_VERSION });
    expect(Object.keys(report.summary).sort()).toEqual([
      'advisories',
      'failed',
      'passed',
      'skipped',
    ]);
    expect(report.summary.failed).toBe(1);
    expect(report.results).toHaveLength(CHECKS.length);
    for (const result of report.results) {
      expect(Object.keys(result).sort()).toEqual([
        'id',
        'level',
        'message',
        'outcome',
        'section',
        'sectionLinks',
        'title',
      ]);
      for (const link of result.sectionLinks) {
        expect(link).toMatch(
          /^https:\/\/github\.com\/animal-store\/animal-store\/blob\/@animal-store\/conformance@[^/]+\/docs\/specification\.md#\d+-[a-z0-9-]+$/,
        );
      }
    }
    expect(report.specification).toMatch(/^https:\/\/github\.com\/.*\/docs\/specification\.md$/);
    expect(report.results.find((r: { id: string }) => r.id === 'getPet.sunset-day')).toMatchObject({
      level: 'must',
      outcome: 'fail',
      section: '§4.3, §9',
    });
    expect(report.seed).toEqual(expect.any(Number));
    expect(report.inputs).toEqual({ categoryIds: ['1'], namePrefix: 'cf', settleMs: 0 });
    expect(report.hints).toEqual([]);
    expect(report.requests.length).toBeGreaterThan(100);
    for (const request of report.requests) {
      expect(request).toMatchObject({
        method: expect.any(String),
        path: expect.any(String),
        ms: expect.any(Number),
      });
    }
    expect(report.requests.some((r: { status: number }) => r.status === 200)).toBe(true);
    expect(report.created.count).toBeGreaterThan(0);
    expect(report.created.count).toBeLessThanOrEqual(MAX_CREATED);
  });

  it('prints well-formed JUnit XML with one testcase per check for --reporter junit', async () => {
    const { args } = await target({ faults: ['auth-skipped-on-get'], choices: ['no-location'] });
    const { stdout, exitCode } = await runCli([...args, '--reporter', 'junit']);
    expect(exitCode).toBe(1);
    expect(XMLValidator.validate(stdout)).toBe(true);
    const xml = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(stdout);
    const cases = xml.testsuites.testsuite.flatMap(
      (suite: { testcase: unknown[] }) => suite.testcase,
    );
    // One testsuite per group, in the groups' order.
    const byGroup = GROUPS.flatMap((g) => CHECKS.filter((c) => c.group === g).map((c) => c.id));
    expect(cases.map((c: Record<string, string>) => c['@_name'])).toEqual(byGroup);
    const failed = cases.filter((c: Record<string, unknown>) => c.failure !== undefined);
    expect(failed.map((c: Record<string, string>) => c['@_name'])).toContain(
      'auth.getPet.missing-header',
    );
    expect(xml.testsuites['@_failures']).toBe(String(failed.length));
    const location = cases.find(
      (c: Record<string, string>) => c['@_name'] === 'createPet.location-header',
    );
    expect(location['system-out']).toMatch(/^ADVISORY \(should, §4\.2\)/);
  });

  it('gives up on a request after --timeout-ms, and says so', async () => {
    // Every request is taken and never answered.
    const { args } = await target({ hang: () => true });
    const run = await runCli([...args, '--timeout-ms', '300']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/no answer within 300 ms/);
  });

  it('uses the categoryIds given to --category-id, spaces around the commas allowed', async () => {
    const { args, server } = await target({ choices: ['known-categories-only'] });
    const { exitCode } = await runCli([
      ...args,
      ...['--only', 'createPet.created', '--category-id', KNOWN_CATEGORY_IDS.join(' , ')],
    ]);
    expect(exitCode).toBe(0);
    const sent = server.requests
      .filter((r) => r.method === 'POST')
      .map((r) => String((JSON.parse(r.body) as { categoryId: unknown }).categoryId));
    expect(new Set(sent)).toEqual(new Set(KNOWN_CATEGORY_IDS));
  });

  it('runs only the groups given to --only', async () => {
    const { args, server } = await target();
    const { stdout, exitCode } = await runCli([
      ...args,
      '--only',
      'getPet , errors',
      '--reporter',
      'json',
    ]);
    expect(exitCode).toBe(0);
    const ids: string[] = JSON.parse(stdout).results.map((r: { id: string }) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('getPet.') || id.startsWith('errors.'))).toBe(true);
    expect(server.created()).toBeLessThan(10);
  });

  it('sends no POST with --read-only', async () => {
    const { args, server } = await target();
    const { stdout, exitCode } = await runCli([...args, '--read-only']);
    // An empty store leaves the limits nothing to judge.
    expect(stdout).toContain('\nINCOMPLETE: no check failed, but ');
    expect(exitCode).toBe(3);
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
    const writing = CHECKS.filter((c) => c.writes).length;
    expect(stdout).toContain(`\n  - ${writing} checks that create pets (--read-only)\n`);
    expect(stdout).not.toContain('read-only run: this check creates data');
    expect(stdout).toContain('Created no pets.');
  });

  it('exits 0 with advisories, and 1 once --strict turns them into failures', async () => {
    const { args: serverArgs } = await target({ lenient: true });
    // The createPet group has advisories on this server, the one read below among them.
    const args = [
      ...serverArgs,
      ...['--only', 'createPet'],
      ...['--category-id', KNOWN_CATEGORY_IDS.join(','), '--settle-ms', '300'],
    ];
    const lenient = await runCli(args);
    expect(lenient.exitCode).toBe(0);
    expect(lenient.stdout).toContain(
      '\nAdvisories (should: recommended where the spec leaves a gap)\n',
    );
    expect(lenient.stdout).toContain(
      '\n  ! createPet.location-header (§4.2): POST /pets answered 201 without Location\n    replay: curl -sS -i -X POST ',
    );
    const strict = await runCli([...args, '--strict']);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toMatch(/\nFAIL: \d+ checks failed\n$/);
  });
});
