import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReporters, REPORTER_NAMES } from '../src/report/choose.js';
import { renderJson } from '../src/report/json.js';
import { reportOutput, writeReports } from '../src/report/output.js';
import { SPECIFICATION_URL } from '../src/report/spec-links.js';
import { ConformanceError, UsageError } from '../src/run.js';
import { reportOf, result, traffic } from './support/report.js';

// Which reports a run writes and where (`--reporter`), and the JSON report, from reports built
// by hand.

const temp = new TemporaryFolder('conformance-report-choice-');
afterAll(() => temp.remove());

describe('--reporter', () => {
  it.each<[string[], ReturnType<typeof parseReporters>]>([
    [[], [{ name: 'pretty' }]],
    [['json'], [{ name: 'json' }]],
    [[' junit '], [{ name: 'junit' }]],
    [['junit:out.xml'], [{ name: 'pretty' }, { name: 'junit', file: 'out.xml' }]],
    [
      ['markdown,junit:a.xml', 'html:r:1.html'],
      [{ name: 'markdown' }, { name: 'junit', file: 'a.xml' }, { name: 'html', file: 'r:1.html' }],
    ],
  ])('%j writes %j', (values, choices) => {
    expect(parseReporters(values)).toEqual(choices);
  });

  it.each([
    [['xml'], `--reporter must be one of ${REPORTER_NAMES.join(', ')}, not "xml"`],
    [['json:'], '--reporter json: needs a file after ":"'],
    [
      ['json', 'markdown'],
      '--reporter: only one report goes to stdout, not json and markdown; give the others a :FILE',
    ],
    [['json:a', 'junit:a'], '--reporter: two reports would go to a'],
  ])('refuses %j', (values, message) => {
    expect(() => parseReporters(values)).toThrow(new UsageError(message));
  });

  it('names every reporter', () => {
    expect(REPORTER_NAMES).toEqual(['pretty', 'json', 'junit', 'markdown', 'html']);
  });
});

describe('writing the reports', () => {
  const report = reportOf([result({ id: 'a', outcome: 'fail', message: 'leaks s3cret' })]);

  it('writes each report, redacted, to stdout or its file, and returns the exit status', () => {
    const file = join(temp.path, 'report.json');
    const printed: string[] = [];
    const status = writeReports(
      report,
      reportOutput({ reporter: ['markdown', `json:${file}`] }),
      (text) => printed.push(text),
      (text) => text.replaceAll('s3cret', '[hidden]'),
    );
    expect(status).toBe(1);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^## Animal Store conformance: FAIL\n/);
    expect(printed[0]).toContain('leaks [hidden]');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.results[0].message).toBe('leaks [hidden]');
  });

  it('gives the exit status of each verdict', () => {
    const status = (verdict: 'pass' | 'fail' | 'incomplete') =>
      writeReports(
        reportOf([], { verdict }),
        { reporters: [] },
        () => {},
        (t) => t,
      );
    expect([status('pass'), status('fail'), status('incomplete')]).toEqual([0, 1, 3]);
  });

  it('applies --expect-fail before the verdict', () => {
    const file = join(temp.path, 'expected.txt');
    const expectations = {
      file,
      failures: [{ id: 'auth.missing-header', reason: 'known', line: 1 }],
    };
    const status = writeReports(
      reportOf([result({ id: 'auth.missing-header', outcome: 'fail' })]),
      { reporters: [], expectations },
      () => {},
      (t) => t,
    );
    expect(status).toBe(0);
  });

  it('fails with exit status 2, naming the file, when a report cannot be written', () => {
    const file = join(temp.path, 'no', 'such', 'temp.path', 'r.json');
    let thrown: unknown;
    try {
      writeReports(
        report,
        reportOutput({ reporter: [`json:${file}`] }),
        () => {},
        (t) => t,
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConformanceError);
    expect((thrown as ConformanceError).message).toMatch(
      new RegExp(`^cannot write the report to ${file.replaceAll('/', '\\/')}: ENOENT`),
    );
    expect((thrown as ConformanceError).exitCode).toBe(2);
  });

  it('refuses an --expect-fail file it cannot read', () => {
    expect(() => reportOutput({ 'expect-fail': join(temp.path, 'absent.txt') })).toThrow(
      /^cannot read --expect-fail .*absent\.txt: ENOENT/,
    );
  });
});

describe('the JSON report', () => {
  it('holds the run, each result with its links, the pets and every request', () => {
    const report = reportOf(
      [result({ id: 'a', outcome: 'fail', section: '§4.3, RFC 8594', ms: 12 })],
      {
        hints: ['h'],
        notRun: [{ id: 'x', reason: 'y' }],
        requests: [{ method: 'GET', path: '/pets', status: 200, ms: 3 }],
        created: { count: 1, namePrefix: 'cf-x', ids: ['7'] },
      },
    );
    const json = renderJson(report);
    expect(json.endsWith('}\n')).toBe(true);
    expect(json.split('\n')[1]).toBe('  "kit": {');
    const document = JSON.parse(json);
    expect(document).toEqual({
      kit: report.kit,
      baseUrl: report.baseUrl,
      runId: report.runId,
      startedAt: report.startedAt,
      durationMs: report.durationMs,
      strict: false,
      readOnly: false,
      seed: 42,
      inputs: report.inputs,
      hints: ['h'],
      groups: report.groups,
      verdict: 'fail',
      notRun: [{ id: 'x', reason: 'y' }],
      ok: false,
      summary: report.summary,
      specification: SPECIFICATION_URL,
      results: [
        {
          id: 'a',
          title: 'title of a',
          section: '§4.3, RFC 8594',
          sectionLinks: [`${SPECIFICATION_URL}#43-get-an-animal-get-petspetid-getpet-deprecated`],
          level: 'must',
          outcome: 'fail',
          message: 'message of a',
        },
      ],
      created: { count: 1, namePrefix: 'cf-x', ids: ['7'] },
      requests: [{ method: 'GET', path: '/pets', status: 200, ms: 3 }],
    });
  });

  it('holds what judged traffic held, when it judged traffic', () => {
    const held = traffic({ exercised: ['a'] });
    expect(JSON.parse(renderJson(reportOf([], { traffic: held }))).traffic).toEqual(held);
  });
});
