import { describe, expect, it } from 'vitest';
import { tableCell } from '../src/report/check-table.js';
import { SPECIFICATION_URL, sectionLinks } from '../src/report/spec-links.js';
import { trafficLines } from '../src/report/traffic.js';
import { notRunSummary } from '../src/report/verdict.js';
import { reportOf, traffic } from './support/report.js';

// The lines every reporter shares: what judged traffic held, the INCOMPLETE verdict's reason and
// the links to the contract's sections.

describe('the lines on judged traffic', () => {
  it('count the exchanges, and list the checks exercised and not', () => {
    expect(
      trafficLines(
        traffic({ exchanges: 1, judged: 1, exercised: ['a'], notExercised: ['b', 'c'] }),
      ),
    ).toEqual([
      "traffic of run.har: 1 exchange, 1 of the spec's operations judged",
      'Exercised (1): a',
      'Not exercised (2): b, c',
    ]);
  });

  it('name each kind of exchange left alone, and only those there were', () => {
    const all = traffic({
      exchanges: 20,
      judged: 5,
      otherHosts: 1,
      otherPaths: 2,
      notAnswered: 3,
      rateLimited: 4,
      unavailable: 2,
      fromCache: 5,
      headTooLarge: 1,
    });
    expect(trafficLines(all)[0]).toBe(
      "traffic of run.har: 20 exchanges, 5 of the spec's operations judged (left alone: 1 with other hosts, 2 of other paths or methods, 3 not answered, 4 answered 429, 2 answered 503, 1 refused for a head over 4096 bytes or 100 fields, 5 answered without the server (a cache, a service worker, a mock))",
    );
    expect(trafficLines(traffic({ exchanges: 4, judged: 3, notAnswered: 1 }))[0]).toBe(
      "traffic of run.har: 4 exchanges, 3 of the spec's operations judged (left alone: 1 not answered)",
    );
  });

  it('say what a recording lacks, and where the rules across answers stop', () => {
    expect(
      trafficLines(
        traffic({ bodiesNotRecorded: 2, keysRecorded: false, petsChangedBy: 'DELETE /v1/pets/1' }),
      ).slice(0, 3),
    ).toEqual([
      "traffic of run.har: 3 exchanges, 3 of the spec's operations judged; 2 recorded without their answer's body (or with one in a content coding the kit cannot undo)",
      'no request carries Authorization (a sanitized HAR takes it out): requests without a key are not judged',
      'DELETE /v1/pets/1 may change pets (no operation of the spec): the rules across answers stop there',
    ]);
  });
});

describe("the INCOMPLETE verdict's reason", () => {
  it.each([
    [1, '1 must check could not run'],
    [2, '2 must checks could not run'],
  ])('counts %i check', (n, words) => {
    const notRun = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, reason: 'r' }));
    expect(notRunSummary(reportOf([], { notRun }))).toBe(words);
  });
});

describe('the links to the contract', () => {
  it('link every section cited, a trailing dot aside, and nothing else', () => {
    expect(sectionLinks('§4.3, §7.')).toEqual([
      `${SPECIFICATION_URL}#43-get-an-animal-get-petspetid-getpet-deprecated`,
      `${SPECIFICATION_URL}#7-errors`,
    ]);
    expect(sectionLinks('RFC 9110 §15.5')).toEqual([]);
    expect(sectionLinks('RFC 8594')).toEqual([]);
  });
});

describe('a cell of the README tables', () => {
  it('shows pipes and angle brackets as written', () => {
    expect(tableCell('a|b @<seconds> x>y')).toBe('a\\|b @&lt;seconds&gt; x&gt;y');
  });
});
