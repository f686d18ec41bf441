// `--expect-fail FILE`: a run passes when exactly the listed checks fail, fails on any other
// failure, and fails naming a listed check that passes now (its line is to go: the file only
// shrinks). A file with an unknown id or no reason is refused before anything runs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyExpectations, parseExpectations } from '../src/expectations.js';
import { UsageError } from '../src/run.js';
import type { CheckResult, ConformanceReport, Level } from '../src/types.js';
import { type Fault, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';
import { scratch } from './support/traffic.js';

const files = scratch();
afterAll(() => files.remove());

function file(name: string, text: string): string {
  const path = join(files.path, name);
  writeFileSync(path, text);
  return path;
}

const EXPECTED = `# Known failures of our server, each with its ticket
listPets.limit-1   the pager ignores limit (PETS-12)
`;

interface JsonReport {
  verdict: string;
  hints: string[];
  results: { id: string; outcome: string; message: string }[];
}

/** Runs the kit on a fake server with `faults`, `--only` the given checks, with `--expect-fail`. */
async function runWith(faults: Fault[], only: string[], expectations: string) {
  const fake = await startFakeServer({ faults });
  try {
    const run = await runCli(
      [
        '--base-url',
        fake.baseUrl,
        '--only',
        only.join(','),
        '--expect-fail',
        expectations,
        '--reporter',
        'json',
      ],
      { ANIMAL_STORE_API_KEY: fake.apiKey },
    );
    return { ...run, report: JSON.parse(run.stdout || '{}') as JsonReport };
  } finally {
    await fake.close();
  }
}

const outcome = (report: JsonReport, id: string) => report.results.find((r) => r.id === id);

describe('--expect-fail on a run', () => {
  let expected: string;
  beforeAll(() => {
    expected = file('expected.txt', EXPECTED);
  });

  it('passes when exactly the listed checks fail, each shown with its reason', async () => {
    const { exitCode, report, stderr } = await runWith(
      ['list-ignores-limit'],
      ['listPets.limit-1', 'auth.listPets.missing-header'],
      expected,
    );
    expect(outcome(report, 'listPets.limit-1')).toMatchObject({
      outcome: 'skip',
      message: expect.stringMatching(
        /^fails as expected \(.*expected\.txt:2: the pager ignores limit \(PETS-12\)\): /,
      ),
    });
    expect(outcome(report, 'auth.listPets.missing-header')?.outcome).toBe('pass');
    expect(report.verdict).toBe('pass');
    expect(report.hints.join('\n')).toMatch(/1 check\(s\) failed as .* expects: listPets\.limit-1/);
    expect(exitCode, stderr).toBe(0);
  });

  it('fails on a failure the file does not list', async () => {
    const { exitCode, report } = await runWith(
      ['list-ignores-limit', 'auth-skipped-on-list'],
      ['listPets.limit-1', 'auth.listPets.missing-header'],
      expected,
    );
    expect(outcome(report, 'listPets.limit-1')?.outcome).toBe('skip');
    expect(outcome(report, 'auth.listPets.missing-header')?.outcome).toBe('fail');
    expect(report.verdict).toBe('fail');
    expect(exitCode).toBe(1);
  });

  it('fails naming a listed check that passes now, and says to remove its line', async () => {
    const { exitCode, report, stdout } = await runWith([], ['listPets.limit-1'], expected);
    expect(outcome(report, 'listPets.limit-1')).toMatchObject({
      outcome: 'fail',
      message: expect.stringMatching(
        /passes now, but .*expected\.txt:2 lists it .*remove that line/,
      ),
    });
    expect(report.hints.join('\n')).toMatch(/now pass: listPets\.limit-1; remove their lines/);
    expect(report.verdict).toBe('fail');
    expect(exitCode).toBe(1);
    expect(stdout).not.toContain('test-key-123');
  });
});

describe('--expect-fail on judged traffic', () => {
  // One list of three pets for limit=2: listPets.at-most-limit fails.
  let har: string;
  beforeAll(() => {
    har = file(
      'traffic.har',
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [
            {
              startedDateTime: '2026-01-01T00:00:00.000Z',
              time: 5,
              request: {
                method: 'GET',
                url: 'http://127.0.0.1:9/v1/pets?limit=2',
                headers: [{ name: 'Authorization', value: 'Bearer s3cret-key-of-the-har' }],
              },
              response: {
                status: 200,
                headers: [{ name: 'Content-Type', value: 'application/json' }],
                content: {
                  mimeType: 'application/json',
                  text: JSON.stringify([1, 2, 3].map((id) => ({ id, name: 'Rex', categoryId: 1 }))),
                },
              },
            },
          ],
        },
      }),
    );
  });

  it('fails the traffic on its violation, and passes it when the file lists that check', async () => {
    const plain = await runCli(['judge', '--har', har]);
    expect(plain.stdout).toMatch(/listPets\.at-most-limit .*3 pets, more than limit 2/);
    expect(plain.stdout).not.toContain('s3cret-key-of-the-har');
    expect(plain.exitCode).toBe(1);
    const listed = file('listed.txt', 'listPets.at-most-limit  the list ignores limit\n');
    const judged = await runCli(['judge', '--har', har, '--expect-fail', listed]);
    expect(judged.stdout).toMatch(/failed as .*listed\.txt expects: listPets\.at-most-limit/);
    expect(judged.exitCode).toBe(0);
  });
});

describe('an --expect-fail file', () => {
  it('is one check id and its reason a line, with comments and blank lines', () => {
    const parsed = parseExpectations(
      '# ours\n\nlistPets.limit-1 the pager ignores limit\n  getPet.sunset-day\twrong day (PETS-3)  \n',
      'known.txt',
    );
    expect(parsed.failures).toEqual([
      { id: 'listPets.limit-1', reason: 'the pager ignores limit', line: 3 },
      { id: 'getPet.sunset-day', reason: 'wrong day (PETS-3)', line: 4 },
    ]);
  });

  it('is refused with each line at fault: an unknown id, no reason, an id twice', () => {
    const parse = () =>
      parseExpectations(
        'listPets.limit-7 no such check\ngetPet.sunset-day\nlistPets.limit-1 a\nlistPets.limit-1 b\n',
        'known.txt',
      );
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(
      '--expect-fail: known.txt:1: unknown check id "listPets.limit-7"; known.txt:2: "getPet.sunset-day" has no reason (write it after the id); known.txt:4: "listPets.limit-1" is listed twice',
    );
  });

  it('stops the CLI with status 2 before it runs anything', async () => {
    const bad = file('bad.txt', 'auth.nothing because\n');
    const run = await runCli(['--base-url', 'http://127.0.0.1:9/v1', '--expect-fail', bad], {
      ANIMAL_STORE_API_KEY: 'some-key',
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/bad\.txt:1: unknown check id "auth\.nothing"/);
    const missing = await runCli([
      'judge',
      '--har',
      'x.har',
      '--expect-fail',
      join(files.path, 'none.txt'),
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot read --expect-fail .*none\.txt/);
  });
});

describe('applyExpectations', () => {
  const result = (id: string, outcome: CheckResult['outcome'], level: Level = 'must') =>
    ({
      id,
      title: id,
      section: '§1',
      level,
      group: 'errors',
      outcome,
      message: `was ${outcome}`,
      ms: 1,
    }) as CheckResult;
  const report = (results: CheckResult[]) =>
    ({
      hints: ['a hint of the run'],
      results,
      verdict: 'fail',
      ok: false,
    }) as unknown as ConformanceReport;
  // Four ids the kit knows, listed in that order.
  const ID = {
    a: 'errors.json-body',
    b: 'errors.strict-json',
    c: 'errors.error-schema',
    d: 'errors.status-matches',
  } as const;
  const expectations = parseExpectations(
    `${ID.a}  fails (T-1)\n${ID.b}\twarns (T-2)  \n${ID.c} fixed since (T-3)\n${ID.d} not judged (T-4)\n`,
    'known.txt',
  );

  it('skips what fails as listed, fails what passes now, and keeps every other result', () => {
    const unlisted = result('errors.success-status', 'fail');
    const { report: judged, outcome } = applyExpectations(
      report([
        result(ID.a, 'fail'),
        result(ID.b, 'advisory', 'should'),
        result(ID.c, 'pass'),
        result(ID.d, 'skip'),
        unlisted,
        result('errors.no-server-errors', 'pass'),
      ]),
      expectations,
    );
    expect(outcome).toEqual({
      failedAsExpected: [ID.a, ID.b],
      nowPassing: [ID.c],
      // A listed check that passes now fails, but it is no unexpected failure.
      unexpected: ['errors.success-status'],
    });
    const by = new Map(judged.results.map((r) => [r.id, r]));
    expect(by.get(ID.a)).toMatchObject({
      outcome: 'skip',
      notApplicable: true,
      message: 'fails as expected (known.txt:1: fails (T-1)): was fail',
    });
    expect(by.get(ID.b)).toMatchObject({
      outcome: 'skip',
      message: /^fails as expected \(known\.txt:2: warns \(T-2\)\)/,
    });
    expect(by.get(ID.c)).toMatchObject({
      outcome: 'fail',
      message:
        'passes now, but known.txt:3 lists it as failing (fixed since (T-3)): remove that line from known.txt',
    });
    expect(by.get(ID.d)).toEqual(result(ID.d, 'skip'));
    expect(by.get('errors.success-status')).toBe(unlisted);
    expect(judged.hints).toEqual([
      'a hint of the run',
      `2 check(s) failed as known.txt expects: ${ID.a}, ${ID.b}`,
      `1 check(s) listed in known.txt now pass: ${ID.c}; remove their lines (the file only shrinks)`,
    ]);
    expect(judged).toMatchObject({ verdict: 'fail', ok: false });
  });

  it('passes a report whose only failures are listed, and adds no hint for what did not happen', () => {
    const { report: judged, outcome } = applyExpectations(
      report([result(ID.a, 'fail'), result('errors.no-server-errors', 'pass')]),
      expectations,
    );
    expect(outcome).toEqual({ failedAsExpected: [ID.a], nowPassing: [], unexpected: [] });
    expect(judged).toMatchObject({ verdict: 'pass', ok: true });
    expect(judged.hints).toEqual([
      'a hint of the run',
      `1 check(s) failed as known.txt expects: ${ID.a}`,
    ]);
    const clean = applyExpectations(
      report([result('errors.no-server-errors', 'pass')]),
      expectations,
    );
    expect(clean.report.hints).toEqual(['a hint of the run']);
    expect(clean.report).toMatchObject({ verdict: 'pass', ok: true });
  });
});
