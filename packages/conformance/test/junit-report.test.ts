import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../src/report/junit.js';
import { SPECIFICATION_URL } from '../src/report/spec-links.js';
import type { ConformanceReport } from '../src/types.js';
import { reportOf, result, traffic } from './support/report.js';

// The JUnit XML a CI system reads: parsed back by an XML parser, every count, time and text as
// the report holds it. No run is made: the report is built by hand.

interface Testcase {
  readonly name: string;
  readonly classname: string;
  readonly time: string;
  readonly failure?: { readonly type: string; readonly message: string; readonly '#text': string };
  readonly skipped?: { readonly message: string };
  readonly 'system-out'?: string;
}

interface Testsuite {
  readonly name: string;
  readonly tests: string;
  readonly failures: string;
  readonly errors: string;
  readonly skipped: string;
  readonly time: string;
  readonly timestamp: string;
  readonly properties: { readonly property: { name: string; value: string }[] };
  readonly testcase: Testcase[];
  readonly 'system-out'?: string;
}

/** The report's JUnit XML, checked well-formed and parsed. */
function junitOf(report: ConformanceReport) {
  const xml = renderJunit(report);
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  }).parse(xml) as {
    testsuites: Record<string, string> & { testsuite?: Testsuite[] };
  };
  return { xml, suites: parsed.testsuites.testsuite ?? [], root: parsed.testsuites };
}

const RESULTS = [
  result({ id: 'listPets.limit-100', outcome: 'pass', ms: 1200 }),
  result({
    id: 'listPets.status-filter',
    outcome: 'fail',
    ms: 34,
    title: 'filters by status',
    section: '§4.1, §7',
    message: 'answered 500',
  }),
  result({ id: 'auth.missing', group: 'auth', outcome: 'skip', message: 'rate limited' }),
  result({
    id: 'auth.www-authenticate',
    group: 'auth',
    level: 'should',
    section: '§5',
    outcome: 'advisory',
    message: 'no WWW-Authenticate',
  }),
  result({ id: 'getPet.not-found', group: 'getPet', outcome: 'skip', message: 'no pet' }),
];

describe('the JUnit report', () => {
  it('has one suite per group that ran, in the groups order, with its counts and time', () => {
    const { suites, root } = junitOf(reportOf(RESULTS));
    expect(root).toMatchObject({
      name: 'animal-store-conformance',
      tests: '5',
      failures: '1',
      errors: '0',
      skipped: '2',
      time: '4.321',
    });
    expect(
      suites.map(({ name, tests, failures, errors, skipped, time, timestamp }) => ({
        name,
        tests,
        failures,
        errors,
        skipped,
        time,
        timestamp,
      })),
    ).toEqual([
      {
        name: 'auth',
        tests: '2',
        failures: '0',
        errors: '0',
        skipped: '1',
        time: '0.000',
        timestamp: '2026-12-01T10:00:00.000Z',
      },
      {
        name: 'listPets',
        tests: '2',
        failures: '1',
        errors: '0',
        skipped: '0',
        time: '1.234',
        timestamp: '2026-12-01T10:00:00.000Z',
      },
      {
        name: 'getPet',
        tests: '1',
        failures: '0',
        errors: '0',
        skipped: '1',
        time: '0.000',
        timestamp: '2026-12-01T10:00:00.000Z',
      },
    ]);
  });

  it('names the run in every suite', () => {
    const { suites } = junitOf(reportOf(RESULTS, { verdict: 'incomplete' }));
    for (const suite of suites) {
      expect(suite.properties.property).toEqual([
        { name: 'baseUrl', value: 'http://127.0.0.1:8080/v1' },
        { name: 'runId', value: 'r1a2b3' },
        { name: 'kitVersion', value: '1.2.3' },
        { name: 'seed', value: '42' },
        { name: 'verdict', value: 'INCOMPLETE' },
      ]);
    }
  });

  it('gives each check a testcase that says how it ended', () => {
    const { suites } = junitOf(
      reportOf(RESULTS, { notRun: [{ id: 'getPet.not-found', reason: 'no pet' }] }),
    );
    const cases = Object.fromEntries(suites.flatMap((s) => s.testcase).map((c) => [c.name, c]));
    expect(cases['listPets.limit-100']).toEqual({
      name: 'listPets.limit-100',
      classname: 'animal-store-conformance.listPets',
      time: '1.200',
    });
    expect(cases['listPets.status-filter']?.failure).toEqual({
      type: 'must',
      message: 'answered 500',
      '#text': `filters by status\nmust §4.1, §7: answered 500\nsee ${SPECIFICATION_URL}#41-list-animals-get-pets-listpets ${SPECIFICATION_URL}#7-errors`,
    });
    expect(cases['listPets.status-filter']?.time).toBe('0.034');
    expect(cases['auth.missing']?.skipped).toEqual({ message: 'rate limited' });
    expect(cases['getPet.not-found']?.skipped).toEqual({ message: 'NOT RUN (must): no pet' });
    expect(cases['auth.www-authenticate']).toMatchObject({
      classname: 'animal-store-conformance.auth',
      'system-out': `ADVISORY (should, §5): no WWW-Authenticate\nsee ${SPECIFICATION_URL}#5-authentication`,
    });
    expect(cases['auth.www-authenticate']).not.toHaveProperty('failure');
  });

  it('writes a failure of a section without a link without a see line', () => {
    const { suites } = junitOf(
      reportOf([
        result({ id: 'x.fail', outcome: 'fail', section: 'RFC 9110', message: 'm', title: 't' }),
        result({ id: 'x.advisory', outcome: 'advisory', section: 'RFC 9110', message: 'a' }),
      ]),
    );
    const [failed, advisory] = suites[0]?.testcase ?? [];
    expect(failed?.failure?.['#text']).toBe('t\nmust RFC 9110: m');
    expect(advisory?.['system-out']).toBe('ADVISORY (should, RFC 9110): a');
  });

  it('carries the hints and what judged traffic held in each suite, and nothing without them', () => {
    const plain = junitOf(reportOf(RESULTS));
    expect(plain.suites.every((s) => s['system-out'] === undefined)).toBe(true);
    const { suites } = junitOf(
      reportOf(RESULTS, {
        hints: ['the key was refused'],
        traffic: traffic({ exercised: ['auth.missing'], notExercised: ['getPet.not-found'] }),
      }),
    );
    for (const suite of suites) {
      expect(suite['system-out']?.split('\n')).toEqual([
        'HINT: the key was refused',
        "TRAFFIC: traffic of run.har: 3 exchanges, 3 of the spec's operations judged",
        'TRAFFIC: Exercised (1): auth.missing',
        'TRAFFIC: Not exercised (1): getPet.not-found',
      ]);
    }
  });

  it('escapes what a server wrote, and replaces what XML cannot hold', () => {
    const hostile = `<b a="1" b='2'>&amp;</b>\u0000\u001b[31m\uFFFE`;
    const { suites, xml } = junitOf(
      reportOf([result({ id: 'listPets.x', outcome: 'fail', message: hostile, title: 'T' })], {
        baseUrl: 'http://h/v1?a=1&b="2"',
        hints: [hostile],
      }),
    );
    const expected = `<b a="1" b='2'>&amp;</b>\uFFFD\uFFFD[31m\uFFFD`;
    const [suite] = suites;
    expect(suite?.testcase[0]?.failure?.message).toBe(expected);
    expect(suite?.testcase[0]?.failure?.['#text']).toContain(`must §4.1: ${expected}`);
    expect(suite?.['system-out']).toBe(`HINT: ${expected}`);
    expect(suite?.properties.property[0]?.value).toBe('http://h/v1?a=1&b="2"');
    const controls = [...xml].filter(
      (c) => (c.codePointAt(0) as number) < 0x20 && !'\t\n\r'.includes(c),
    );
    expect(controls).toEqual([]);
  });

  it('is an empty list of suites for a report without results', () => {
    const { suites, xml } = junitOf(reportOf([]));
    expect(suites).toEqual([]);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="animal-store-conformance" tests="0" failures="0" errors="0" skipped="0" time="4.321">\n</testsuites>\n',
    );
  });

  it('holds elements alone, one to a line, when no text runs over lines', () => {
    const { xml } = junitOf(
      reportOf([result({ id: 'a', outcome: 'pass' }), result({ id: 'b', outcome: 'skip' })]),
    );
    for (const line of xml.split('\n').slice(0, -1)) expect(line.trim()).toMatch(/^<.*>$/);
    expect(xml.endsWith('</testsuites>\n')).toBe(true);
  });
});
