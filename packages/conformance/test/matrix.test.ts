import { describe, expect, it } from 'vitest';
import { CHECKS, FIXTURE_SET_CHECKS } from '../src/index.js';
import { namesCheck, rowsOf, SPEC_MATRIX } from '../src/matrix.js';

const ALL = [...CHECKS, ...FIXTURE_SET_CHECKS];

describe('the spec matrix', () => {
  it('gives every check a row', () => {
    const orphans = ALL.filter((c) => rowsOf(c.id).length === 0).map((c) => c.id);
    expect(orphans).toEqual([]);
  });

  it('holds every row by a check, and every pattern of a row names one', () => {
    for (const row of SPEC_MATRIX) {
      expect(row.checks.length, row.statement).toBeGreaterThan(0);
      for (const pattern of row.checks) {
        const named = ALL.filter((c) => namesCheck(pattern, c.id));
        expect(named.length, `${row.statement}: ${pattern}`).toBeGreaterThan(0);
      }
    }
  });

  it('cites in each row a section its checks cite', () => {
    for (const row of SPEC_MATRIX) {
      const sections = row.section.match(/§\d+(?:\.\d+)?/g) ?? [];
      expect(sections.length, row.statement).toBeGreaterThan(0);
    }
  });

  it('reads * as one part of an id', () => {
    expect(namesCheck('auth.*.valid-key', 'auth.getPet.valid-key')).toBe(true);
    expect(namesCheck('auth.*.valid-key', 'auth.getPet.x.valid-key')).toBe(false);
    expect(namesCheck('createPet.created', 'createPet.created-x')).toBe(false);
  });
});
