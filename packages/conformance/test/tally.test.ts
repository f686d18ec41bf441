import { describe, expect, it } from 'vitest';
import { notRunOf, tally } from '../src/tally.js';
import { type CheckResult, type Outcome, READ_ONLY_SKIP } from '../src/types.js';

// The counts and the verdict of a run: what the exit code and every report's heading rest on.

function result(
  id: string,
  outcome: Outcome,
  more: Partial<Pick<CheckResult, 'level' | 'message' | 'notApplicable'>> = {},
): CheckResult {
  return {
    id,
    title: id,
    section: '§4.1',
    level: 'must',
    group: 'listPets',
    outcome,
    message: `${id} ${outcome}`,
    ms: 1,
    ...more,
  };
}

describe('a tally', () => {
  it('counts each outcome', () => {
    const { summary } = tally([
      result('a', 'pass'),
      result('b', 'pass'),
      result('c', 'fail'),
      result('d', 'advisory', { level: 'should' }),
      result('e', 'skip'),
      result('f', 'skip', { level: 'should' }),
      result('g', 'skip', { message: READ_ONLY_SKIP }),
    ]);
    expect(summary).toEqual({ passed: 2, failed: 1, advisories: 1, skipped: 3 });
  });

  it('fails a run with a failure, whatever else it holds', () => {
    expect(tally([result('a', 'fail'), result('b', 'skip')]).verdict).toBe('fail');
    expect(tally([result('a', 'pass'), result('b', 'fail')]).verdict).toBe('fail');
  });

  it('is incomplete when a must check could not judge, and passes otherwise', () => {
    expect(tally([result('a', 'pass'), result('b', 'skip')]).verdict).toBe('incomplete');
    expect(tally([result('a', 'pass'), result('b', 'advisory', { level: 'should' })]).verdict).toBe(
      'pass',
    );
    expect(tally([]).verdict).toBe('pass');
  });

  it('passes a run whose only skips are should checks, read-only ones or inapplicable ones', () => {
    const { verdict, notRun } = tally([
      result('a', 'pass'),
      result('b', 'skip', { level: 'should' }),
      result('c', 'skip', { message: READ_ONLY_SKIP }),
      result('d', 'skip', { notApplicable: true }),
    ]);
    expect(notRun).toEqual([]);
    expect(verdict).toBe('pass');
  });
});

describe('the must checks that could not judge', () => {
  it('are the skipped must checks, each with its reason', () => {
    expect(
      notRunOf([
        result('a', 'skip', { message: 'no pet could be created' }),
        result('b', 'pass'),
        result('c', 'skip', { notApplicable: false, message: 'the server closed' }),
        result('d', 'fail'),
      ]),
    ).toEqual([
      { id: 'a', reason: 'no pet could be created' },
      { id: 'c', reason: 'the server closed' },
    ]);
  });

  it('leave out should checks, read-only skips and checks with nothing to apply to', () => {
    expect(
      notRunOf([
        result('a', 'skip', { level: 'should' }),
        result('b', 'skip', { message: READ_ONLY_SKIP }),
        result('c', 'skip', { notApplicable: true }),
        result('d', 'skip', { message: `${READ_ONLY_SKIP}.` }),
      ]),
    ).toEqual([{ id: 'd', reason: `${READ_ONLY_SKIP}.` }]);
  });
});
