import { describe, expect, it } from 'vitest';
import { ExportProblems } from '../src/tracing/export-problems.js';

describe('lines about spans not sent', () => {
  const logged = () => {
    const lines: Array<[string, number]> = [];
    let now = 1_000_000;
    const problems = new ExportProblems(
      (message, unlogged) => lines.push([message, unlogged]),
      () => now,
      60_000,
    );
    const advance = (ms: number) => {
      now += ms;
    };
    return { lines, problems, advance };
  };

  it('logs the first problem at once', () => {
    const { lines, problems } = logged();
    problems.report('Bad Request (400)');
    expect(lines).toEqual([['Bad Request (400)', 0]]);
  });

  it('logs at most one line a minute, counting the problems it did not log', () => {
    const { lines, problems, advance } = logged();
    problems.report('first');
    for (let i = 0; i < 5; i++) {
      advance(10_000);
      problems.report(`again ${i}`);
    }
    expect(lines).toEqual([['first', 0]]);
    advance(10_000);
    problems.report('a minute on');
    expect(lines).toEqual([
      ['first', 0],
      ['a minute on', 5],
    ]);
    advance(59_999);
    problems.report('too soon');
    expect(lines).toHaveLength(2);
  });

  it('starts the count again after each line', () => {
    const { lines, problems, advance } = logged();
    problems.report('one');
    advance(1);
    problems.report('two');
    advance(60_000);
    problems.report('three');
    advance(60_000);
    problems.report('four');
    expect(lines).toEqual([
      ['one', 0],
      ['three', 1],
      ['four', 0],
    ]);
  });
});
