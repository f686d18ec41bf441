import { describe, expect, it } from 'vitest';
import { namesCheck } from '../src/matrix.js';
import { CHECKS, FIXTURE_SET_CHECKS, runOrder, SECTIONS } from '../src/sections/index.js';

describe('the spec sections', () => {
  it('hold each check beside the rows that name it', () => {
    for (const section of SECTIONS) {
      for (const check of section.checks) {
        const own = section.rows.some((row) => row.checks.some((p) => namesCheck(p, check.id)));
        expect(own, `${check.id} is named by a row of its own section`).toBe(true);
      }
      for (const row of section.rows) {
        for (const pattern of row.checks) {
          const held = section.checks.some((c) => namesCheck(pattern, c.id));
          expect(held, `${row.statement}: ${pattern} names a check of the row's section`).toBe(
            true,
          );
        }
      }
    }
  });

  it('give every check one home', () => {
    const ids = SECTIONS.flatMap((s) => s.checks.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(CHECKS.length + FIXTURE_SET_CHECKS.length);
  });

  it('run the first stage first and the last stage last, a pet set just before it', () => {
    const order = runOrder(true);
    const stages = order.map((c) => c.stage ?? 'middle');
    const firstLast = stages.lastIndexOf('first');
    const lastFirst = stages.indexOf('last');
    expect(stages.slice(0, firstLast + 1).every((s) => s === 'first')).toBe(true);
    expect(stages.slice(lastFirst).every((s) => s === 'last')).toBe(true);
    expect(order.slice(lastFirst - FIXTURE_SET_CHECKS.length, lastFirst)).toEqual(
      FIXTURE_SET_CHECKS,
    );
    expect(order.at(-1)?.group).toBe('errors');
  });
});
