import { describe, expect, it } from 'vitest';
import { prettyProgress, renderPretty, terminalSafe } from '../src/report/pretty.js';
import { SPECIFICATION_URL } from '../src/report/spec-links.js';
import { READ_ONLY_SKIP } from '../src/types.js';
import { reportOf, result, traffic } from './support/report.js';

// What a person reads in the terminal, from reports built by hand: the order of the sections,
// the verdict's words, and a server's text never acted on by the terminal.

const fail = (id: string, message: string, section = '§4.1') =>
  result({ id, outcome: 'fail', message, section });

describe('the terminal report', () => {
  it('is the run, the counts, the pets and the verdict when there is nothing else to show', () => {
    expect(renderPretty(reportOf([result({ id: 'a', outcome: 'pass' })]))).toBe(
      [
        'Animal Store conformance kit 1.2.3: http://127.0.0.1:8080/v1',
        'run r1a2b3, seed 42 (--seed 42 replays its cases), 0 requests in 4.3 s',
        '',
        '1 passed, 0 failed, 0 advisories, 0 skipped',
        'Created no pets.',
        'PASS: every must check ran and passed',
        '',
      ].join('\n'),
    );
  });

  it('names the mode, the requests and the pets a run made', () => {
    const text = renderPretty(
      reportOf([], {
        readOnly: true,
        strict: true,
        requests: [{ method: 'GET', path: '/pets', status: 200, ms: 1 }],
        created: { count: 1, namePrefix: 'cf-x', ids: ['1'] },
      }),
    );
    expect(text).toContain('1 request in 4.3 s, read-only, strict\n');
    expect(text).toContain(
      '\nCreated 1 pet named cf-x<n>; they stay on the server (the spec has no delete).\n',
    );
    expect(
      renderPretty(reportOf([], { created: { count: 3, namePrefix: 'cf-x', ids: [] } })),
    ).toContain('\nCreated 3 pets named cf-x<n>;');
  });

  it('lists failures first, grouped by cause, then what could not run, advisories and skips', () => {
    const cause = 'not a valid Error body';
    const text = renderPretty(
      reportOf(
        [
          result({ id: 'ok', outcome: 'pass' }),
          fail('a', `GET /x answered 400: ${cause}`, '§7'),
          fail('b', 'answered 500\nbody: {}', '§4.3'),
          fail('c', `POST /y answered 400: ${cause}`, '§4.2, §7'),
          fail('d', `GET /z answered 400: ${cause}`),
          result({ id: 'adv', outcome: 'advisory', level: 'should', section: 'RFC 9110 §15' }),
          result({ id: 'n', outcome: 'skip', message: 'out of reach', section: '§4.1' }),
          result({ id: 's', outcome: 'skip', message: 'rate limited', section: '§5' }),
          result({ id: 'w', outcome: 'skip', message: READ_ONLY_SKIP }),
          result({ id: 'w2', outcome: 'skip', message: READ_ONLY_SKIP }),
        ],
        {
          hints: ['first \u001b[2J hint'],
          notRun: [{ id: 'n', reason: 'out of reach' }],
          fullVerdict: 'an empty store',
        },
      ),
    );
    expect(text.split('\n').slice(2, -4)).toEqual([
      '',
      'HINT: first \\x1b[2J hint',
      '',
      'Failed (must)',
      `  Root cause of 3 failures: ${cause}`,
      `  ✗ a (§7): GET /x answered 400: ${cause}`,
      '    the same for: c, d',
      '  ✗ b (§4.3): answered 500',
      '    body: {}',
      '',
      'Not run (must checks that could not judge: the run is INCOMPLETE)',
      '  - n (§4.1): out of reach',
      '  For a full verdict: an empty store',
      '',
      'Advisories (should: recommended where the spec leaves a gap)',
      '  ! adv (RFC 9110 §15): message of adv',
      '',
      'Skipped (could not be judged)',
      '  - s (§5): rate limited',
      '  - 2 checks that create pets (--read-only)',
      '',
      'The contract sections cited:',
      `  §4.1: ${SPECIFICATION_URL}#41-list-animals-get-pets-listpets`,
      `  §4.2: ${SPECIFICATION_URL}#42-add-an-animal-post-pets-createpet`,
      `  §4.3: ${SPECIFICATION_URL}#43-get-an-animal-get-petspetid-getpet-deprecated`,
      `  §7: ${SPECIFICATION_URL}#7-errors`,
      '',
    ]);
    expect(text.split('\n').slice(-4)).toEqual([
      '1 passed, 4 failed, 1 advisory, 4 skipped',
      'Created no pets.',
      'FAIL: 4 must checks failed',
      '',
    ]);
  });

  it('links the sections advisories cite too', () => {
    const text = renderPretty(reportOf([result({ id: 'a', outcome: 'advisory', section: '§5' })]));
    expect(text).toContain(
      `\nThe contract sections cited:\n  §5: ${SPECIFICATION_URL}#5-authentication\n`,
    );
  });

  it('gives what could not run without a full verdict when there is none', () => {
    const text = renderPretty(
      reportOf([result({ id: 'n', outcome: 'skip', message: 'no pet' })], {
        verdict: 'incomplete',
        notRun: [{ id: 'n', reason: 'no pet' }],
      }),
    );
    expect(text).toContain(
      '\nNot run (must checks that could not judge: the run is INCOMPLETE)\n  - n (§4.1): no pet\n\n0 passed',
    );
    expect(text).toContain(
      '\nINCOMPLETE: no check failed, but 1 must check could not run (listed above, with why)\n',
    );
  });

  it.each([
    [
      'a pass with checks left out and advisories',
      reportOf([
        result({ id: 'w', outcome: 'skip', message: READ_ONLY_SKIP }),
        result({ id: 'a', outcome: 'advisory' }),
        result({ id: 'b', outcome: 'advisory' }),
      ]),
      'PASS: every must check ran and passed, except the 1 that create pets (--read-only) (2 advisories to consider)',
    ],
    [
      'a pass with one advisory',
      reportOf([result({ id: 'a', outcome: 'advisory' })]),
      'PASS: every must check ran and passed (1 advisory to consider)',
    ],
    [
      'a pass of judged traffic',
      reportOf([], { traffic: traffic() }),
      'PASS: no exchange broke a must check',
    ],
    [
      'a failure of one check under --strict',
      reportOf([fail('a', 'm')], { strict: true }),
      'FAIL: 1 check failed',
    ],
  ])('ends %s with its verdict', (_, report, verdict) => {
    expect(renderPretty(report).split('\n').at(-2)).toBe(verdict);
  });

  it('says what judged traffic held in place of the run, and names no pets', () => {
    const text = renderPretty(
      reportOf([fail('a', 'm')], { traffic: traffic({ source: 'a\u0007.har' }), strict: true }),
    );
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Animal Store conformance kit 1.2.3: http://127.0.0.1:8080/v1',
      "traffic of a\\x07.har: 3 exchanges, 3 of the spec's operations judged",
      'Exercised (0): ',
      'Not exercised (0): ',
    ]);
    expect(text).toContain('\nFailed\n  ✗ a (§4.1): m\n');
    expect(text.split('\n').slice(-4)).toEqual([
      '',
      '0 passed, 1 failed, 0 advisories, 0 skipped',
      'FAIL: 1 check failed',
      '',
    ]);
    expect(text).not.toContain('Created');
    expect(text).not.toContain('seed');
  });
});

describe('text for a terminal', () => {
  it.each([
    ['an escape sequence', '\u001b[31mred', '\\x1b[31mred'],
    ['a bell and a carriage return', 'a\u0007b\rc', 'a\\x07b\\x0dc'],
    ['a tab and DEL', 'a\tb\u007f', 'a\\x09b\\x7f'],
    ['C1 controls', '\u0080\u009b\u009f\u00a0', '\\x80\\x9b\\x9f\u00a0'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    [
      'bidirectional marks',
      '\u202a\u202e\u2066\u2069\u2067',
      '\\u202a\\u202e\\u2066\\u2069\\u2067',
    ],
    [
      'their neighbours, which are text',
      '\u2027\u202f\u2065\u206a\u001f',
      '\u2027\u202f\u2065\u206a\\x1f',
    ],
    ['letters beyond the basic plane', 'cat 🐈', 'cat 🐈'],
  ])('shows %s as text', (_, text, shown) => {
    expect(terminalSafe(text)).toBe(shown);
  });

  it('indents the lines after a line break', () => {
    expect(terminalSafe('a\nb\nc')).toBe('a\n    b\n    c');
    expect(terminalSafe('a\nb', '> ')).toBe('a\n> b');
  });
});

describe('the progress lines', () => {
  it('name the run, each notice, and each check with the first line of its reason', () => {
    const lines: string[] = [];
    const progress = prettyProgress((text) => lines.push(text));
    progress({ type: 'start', baseUrl: 'http://h/\u001b', runId: 'r1', seed: 7, checks: 90 });
    progress({ type: 'notice', message: 'creating pets\u0007' });
    const check = (outcome: 'pass' | 'fail' | 'advisory' | 'skip', message: string) =>
      progress({
        type: 'check',
        result: result({ id: `x.${outcome}`, outcome, message }),
        index: 0,
        total: 1,
      });
    check('pass', 'all good');
    check('fail', 'answered 500\nbody');
    check('advisory', 'no header');
    check('skip', 'rate \u001b limited');
    expect(lines).toEqual([
      'Checking http://h/\\x1b (run r1, seed 7, 90 checks)\n',
      '  … creating pets\\x07\n',
      '  ✓ x.pass\n',
      '  ✗ x.fail  answered 500\n',
      '  ! x.advisory  no header\n',
      '  - x.skip  rate \\x1b limited\n',
    ]);
  });
});
