// The repository's GitHub Action (action.yml at the root): its step script run as the runner
// runs it, with a temporary GITHUB_STEP_SUMMARY and GITHUB_OUTPUT, against a real listening server.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Finished, runProcess, TemporaryFolder } from '@animal-store/test-support';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  closedBaseUrl,
  type FakeServer,
  type FakeServerOptions,
  startFakeServer,
} from './support/fake-server.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repo, 'packages', 'conformance', 'action', 'run.sh');
const kit = `${process.execPath} ${join(repo, 'packages', 'conformance', 'bin', 'animal-store-conformance.js')}`;
const temp = new TemporaryFolder('conformance-action-');
afterAll(() => temp.remove());

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A key long and odd enough that any trace of it in the summary is found. */
const KEY = 'Action-Key-0d15ea5e77';

interface Step extends Finished {
  readonly summary: string;
  readonly output: string;
  readonly cwd: string;
}

let runs = 0;

/** Runs the action's script in a fresh working folder, as its step does, with `env` as inputs. */
async function runStep(given: Record<string, string | undefined>): Promise<Step> {
  runs += 1;
  const cwd = mkdtempSync(join(temp.path, `run${runs}-`));
  const summaryFile = join(cwd, '..', `summary-${runs}.md`);
  const outputFile = join(cwd, '..', `output-${runs}.txt`);
  // A summary already written by an earlier step stays: the action appends.
  writeFileSync(summaryFile, '# Earlier step\n\n');
  writeFileSync(outputFile, '');
  const env = {
    PATH: process.env.PATH,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    CONFORMANCE_COMMAND: kit,
    ...given,
  };
  const finished = await runProcess('bash', [script], { env, cwd });
  return {
    ...finished,
    summary: readFileSync(summaryFile, 'utf8'),
    output: readFileSync(outputFile, 'utf8'),
    cwd,
  };
}

async function inputs(options: FakeServerOptions = {}): Promise<Record<string, string>> {
  const server = await startFakeServer({ apiKey: KEY, ...options });
  servers.push(server);
  return { CONFORMANCE_BASE_URL: server.baseUrl, ANIMAL_STORE_API_KEY: KEY };
}

describe('the GitHub Action', () => {
  it('passes its inputs to its script: base URL, key, category ids, read-only, strict, seed', () => {
    const action = parse(readFileSync(join(repo, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    const inputNames = Object.keys(action.inputs);
    const names = ['base-url', 'api-key', 'category-ids', 'read-only', 'strict', 'seed'];
    for (const name of [...names, 'fixtures', 'settle-ms', 'timeout-ms']) {
      expect(inputNames).toContain(name);
    }
    const [step] = action.runs.steps;
    expect(step.run).toBe('bash "$GITHUB_ACTION_PATH/packages/conformance/action/run.sh"');
    // Every input reaches the script through the step's environment, and the script reads it.
    const text = readFileSync(script, 'utf8');
    const wired = Object.entries(step.env as Record<string, string>);
    expect(wired.map(([, value]) => value).sort()).toEqual(
      inputNames.map((name) => `\${{ inputs.${name} }}`).sort(),
    );
    for (const [variable] of wired) expect(text).toContain(`\${${variable}`);
  });

  it('writes the Markdown summary, JUnit and HTML files, and passes when the kit passes', async () => {
    const step = await runStep({
      ...(await inputs()),
      CONFORMANCE_SEED: '42',
      CONFORMANCE_CATEGORY_IDS: '1',
    });
    expect(step.exitCode, step.stderr).toBe(0);
    expect(step.summary).toMatch(/^# Earlier step\n\n## Animal Store conformance: PASS\n/);
    expect(step.summary).toContain('seed 42');
    expect(step.stdout).toMatch(/\nPASS: every must check ran and passed\n$/);
    const junit = readFileSync(join(step.cwd, 'conformance-junit.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(readFileSync(join(step.cwd, 'conformance.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(step.output).toBe('exit-code=0\njunit=conformance-junit.xml\nhtml=conformance.html\n');
    for (const text of [step.summary, step.stdout, step.stderr, junit]) {
      expect(text).not.toContain(KEY);
    }
  });

  it('passes the step when exactly the checks of expect-fail fail', async () => {
    const listed = join(temp.path, 'known-failures.txt');
    writeFileSync(listed, '# ours\ngetPet.not-found  our router answers 400 (TICKET-9)\n');
    const step = await runStep({
      ...(await inputs({ faults: ['get-400-for-absent'] })),
      CONFORMANCE_ONLY: 'getPet',
      CONFORMANCE_EXPECT_FAIL: listed,
    });
    expect(step.exitCode, step.stderr).toBe(0);
    expect(step.summary).toContain('## Animal Store conformance: PASS');
    expect(step.summary).toContain('getPet.not-found');
    expect(step.output).toContain('exit-code=0\n');
  });

  it('fails the step with the kit’s status 1 and lists the failures in the summary', async () => {
    const step = await runStep({
      ...(await inputs({ faults: ['get-400-for-absent'] })),
      CONFORMANCE_ONLY: 'getPet',
      CONFORMANCE_JUNIT: 'getpet-junit.xml',
    });
    expect(step.exitCode).toBe(1);
    expect(step.summary).toContain('## Animal Store conformance: FAIL');
    expect(step.summary).toContain('#### `getPet.not-found`');
    expect(step.summary).toContain('replay: curl ');
    expect(step.output).toContain('exit-code=1\njunit=getpet-junit.xml\n');
    expect(readFileSync(join(step.cwd, 'getpet-junit.xml'), 'utf8')).toContain('getPet.not-found');
  });

  it('passes read-only and strict to the kit: no POST, and advisories fail', async () => {
    const server = await startFakeServer({ apiKey: KEY, choices: ['no-location'] });
    servers.push(server);
    const base = { CONFORMANCE_BASE_URL: server.baseUrl, ANIMAL_STORE_API_KEY: KEY };
    const readOnly = await runStep({ ...base, CONFORMANCE_READ_ONLY: 'true' });
    expect(readOnly.exitCode).toBe(3);
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(readOnly.summary).toContain(', read-only');
    const strict = await runStep({
      ...base,
      CONFORMANCE_STRICT: 'true',
      CONFORMANCE_SKIP: 'auth,errors',
    });
    expect(strict.exitCode).toBe(1);
    expect(strict.summary).toContain('#### `createPet.location-header`');
  });

  it('exits 2 and says so in the summary when the kit cannot reach the server', async () => {
    const url = await closedBaseUrl();
    const step = await runStep({ CONFORMANCE_BASE_URL: url, ANIMAL_STORE_API_KEY: KEY });
    expect(step.exitCode).toBe(2);
    expect(step.summary).toContain('## Animal Store conformance: not run');
    expect(step.stderr).toContain(`cannot reach ${url}`);
  });

  it('says "not run" and what is missing when the key is empty (a pull request from a fork)', async () => {
    const { CONFORMANCE_BASE_URL } = await inputs();
    const step = await runStep({ CONFORMANCE_BASE_URL, ANIMAL_STORE_API_KEY: '' });
    expect(step.exitCode).toBe(2);
    expect(step.summary).toContain('## Animal Store conformance: not run\n');
    expect(step.summary).toContain('the api-key input is empty');
    expect(step.summary).toContain('a pull request from a fork gets no secrets');
    expect(step.output).toContain('exit-code=2\n');
  });

  it('runs the kit of its own version by default, and says "not run" when it cannot be installed', async () => {
    // An npx that records how it was called and fails, as one without a registry would.
    const bin = mkdtempSync(join(temp.path, 'bin-'));
    const calls = join(bin, 'calls');
    writeFileSync(
      join(bin, 'npx'),
      `#!/bin/sh\necho "$@" >>"${calls}"\necho "npm error 404 Not Found" >&2\nexit 1\n`,
    );
    chmodSync(join(bin, 'npx'), 0o755);
    const version = JSON.parse(
      readFileSync(join(repo, 'packages/conformance/package.json'), 'utf8'),
    ).version;
    const step = await runStep({
      ...(await inputs()),
      CONFORMANCE_COMMAND: undefined,
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(readFileSync(calls, 'utf8')).toBe(
      `--yes @animal-store/conformance@${version} --version\n`,
    );
    expect(step.exitCode).toBe(2);
    expect(step.summary).toContain('## Animal Store conformance: not run\n');
    expect(step.summary).toContain('the kit could not be installed or started');
    expect(step.summary).toContain('npm error 404 Not Found');
    expect(step.summary).not.toContain('FAIL');
  });

  it('says "not run" with the kit\'s one line when the key is refused everywhere', async () => {
    const { CONFORMANCE_BASE_URL } = await inputs();
    const step = await runStep({ CONFORMANCE_BASE_URL, ANIMAL_STORE_API_KEY: 'not-the-key' });
    expect(step.exitCode).toBe(2);
    expect(step.summary).toContain('## Animal Store conformance: not run\n');
    expect(step.summary).toContain('the server refuses the API key on every operation');
    expect(step.summary).not.toContain('not-the-key');
  });

  it('creates the folders of its report files', async () => {
    const step = await runStep({
      ...(await inputs()),
      CONFORMANCE_ONLY: 'auth',
      CONFORMANCE_JUNIT: 'reports/junit/conformance.xml',
      CONFORMANCE_HTML: 'reports/html/deep/conformance.html',
    });
    expect(step.exitCode, step.stderr).toBe(0);
    expect(existsSync(join(step.cwd, 'reports/junit/conformance.xml'))).toBe(true);
    expect(existsSync(join(step.cwd, 'reports/html/deep/conformance.html'))).toBe(true);
  });

  it.each([
    ['CONFORMANCE_FIXTURES', 'no-such-set.json', /no-such-set\.json/],
    ['CONFORMANCE_SETTLE_MS', 'soon', /--settle-ms must be a whole number/],
    ['CONFORMANCE_TIMEOUT_MS', '0', /--timeout-ms must be a positive integer/],
    ['CONFORMANCE_EXPECT_FAIL', 'no-such-list.txt', /cannot read --expect-fail no-such-list\.txt/],
  ])('passes %s to the kit', async (name, value, said) => {
    const step = await runStep({ ...(await inputs()), [name]: value });
    expect(step.exitCode).toBe(2);
    expect(step.summary).toMatch(said);
  });
});
