import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { CHECK_IDS } from '../src/sections/index.js';
import { startFakeServer } from './support/fake-server.js';
import { startLoggingProxy } from './support/logging-proxy.js';
import { runCli } from './support/run-cli.js';

/** A key long and odd enough that any trace of it is found. */
const KEY = 'Kit-Key-51c0ffee9d2a';
/** Values the kit builds from the key and sends as Authorization: hidden like the key. */
const DERIVED = ['kIT-kEY-51C0FFEE9D2A', KEY.slice(0, -1)];
/** The longest start of the key a text may hold (what a report cut short could leave). */
const PREFIX = KEY.slice(0, 8);

const temp = new TemporaryFolder('conformance-secrecy-');
afterAll(() => temp.remove());

const REPORTS = ['json', 'junit', 'markdown', 'html'] as const;

/** Runs the CLI through a logging proxy, every reporter on; returns every text it wrote. */
async function runThroughProxy(name: string, extra: readonly string[], echoHeaders: boolean) {
  const server = await startFakeServer({ apiKey: KEY });
  const proxy = await startLoggingProxy(server.baseUrl, { echoHeaders });
  try {
    const file = (reporter: string) => join(temp.path, `${name}.${reporter}`);
    const { stdout, stderr, exitCode } = await runCli([
      '--base-url',
      proxy.baseUrl,
      '--api-key',
      KEY,
      '--reporter',
      `pretty,${REPORTS.map((r) => `${r}:${file(r)}`).join(',')}`,
      ...extra,
    ]);
    const reports = REPORTS.map((r) => readFileSync(file(r), 'utf8'));
    return {
      exitCode,
      stderr,
      texts: [stdout, stderr, ...reports],
      reports: [stdout, ...reports],
      log: proxy.log,
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}

function expectNoKey(texts: readonly string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(PREFIX);
    for (const derived of DERIVED) expect(text).not.toContain(derived);
  }
}

describe('the API key, through a logging proxy', () => {
  it.each([
    ['a full run', [], 0],
    // An empty store leaves a read-only run's limits nothing to judge: INCOMPLETE.
    ['a read-only run', ['--read-only'], 3],
  ])('%s puts it in no URL and no log line; query probes carry a look-alike', async (name, extra, exit) => {
    const { exitCode, stderr, texts, log } = await runThroughProxy(name, extra, false);
    expect(exitCode, stderr).toBe(exit);
    expect(log.length).toBeGreaterThan(10);
    expectNoKey(log);
    expectNoKey(texts);
    const probes = log.filter((line) => line.includes('api_key='));
    expect(probes.length).toBeGreaterThanOrEqual(extra.length === 0 ? 3 : 2);
    for (const probe of probes) {
      const sent = /api_key=([^&\s]*)/.exec(probe)?.[1] ?? '';
      expect(sent).toHaveLength(KEY.length);
      expect(sent).not.toBe(KEY);
    }
  });

  it('sends the key itself in the query only with --disposable-key, and keeps it out of every report', async () => {
    const { exitCode, stderr, texts, log } = await runThroughProxy(
      'disposable',
      ['--disposable-key'],
      false,
    );
    expect(exitCode, stderr).toBe(0);
    expect(log.filter((line) => line.includes(`api_key=${KEY}`)).length).toBe(3);
    expectNoKey(texts);
  });

  it.each([
    ['echo', []],
    ['echo-read-only', ['--read-only']],
  ])('stays out of every report (%s) when the server echoes it into its bodies', async (name, extra) => {
    const { exitCode, texts, reports, log } = await runThroughProxy(name, extra, true);
    expect(exitCode).toBe(1);
    expectNoKey(log);
    expectNoKey(texts);
    // The echoes reached every report, hidden.
    for (const text of reports) expect(text).toContain('[redacted key]');
  });
});

describe('a key that is part of a check id (key-a in auth.listPets.key-appended)', () => {
  it('leaves every check id whole, so --expect-fail still names it, and hides the key elsewhere', async () => {
    const key = 'key-a';
    const server = await startFakeServer({ apiKey: key });
    try {
      const expectations = join(temp.path, 'expect-key-a.txt');
      writeFileSync(expectations, 'auth.listPets.key-appended  passes: listed to see it named\n');
      const { stdout, exitCode } = await runCli([
        ...['--base-url', server.baseUrl, '--api-key', key, '--only', 'auth'],
        ...['--reporter', 'json', '--expect-fail', expectations],
      ]);
      const report = JSON.parse(stdout) as ConformanceReport;
      const ids = new Set(CHECK_IDS);
      for (const result of report.results) expect(ids.has(result.id), result.id).toBe(true);
      // The listed check passes: --expect-fail names it and fails the run.
      expect(exitCode).toBe(1);
      expect(stdout).toContain('auth.listPets.key-appended');
      let rest = stdout;
      for (const id of CHECK_IDS) rest = rest.replaceAll(id, '');
      expect(rest).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});
