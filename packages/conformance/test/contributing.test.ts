import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SPEC_MATRIX } from '../src/index.js';

const contributing = readFileSync(new URL('../CONTRIBUTING.md', import.meta.url), 'utf8');

/** The first cell of every row of the statement × dimension table. */
const statements = contributing
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| statement |'))
  .map((line) => line.split(' | ')[0]?.slice(2) ?? '');

describe('the statement × dimension table in CONTRIBUTING', () => {
  it('has a row for every statement of the matrix, and no other', () => {
    expect([...statements].sort()).toEqual(SPEC_MATRIX.map((row) => row.statement).sort());
  });

  it('says of every dimension what is varied or, with —, that nothing is', () => {
    for (const line of contributing
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| statement |'))) {
      expect(line.split(' | '), line).toHaveLength(9);
    }
  });
});
