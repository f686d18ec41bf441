import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  // The contract's list parameters are named there alone: a hand-kept copy here would go stale
  // when the contract adds one.
  it("gives pets.list the contract's query and names none of its parameters by hand", () => {
    const row = /`pets\.list\(\{ ([^}]*) \}\)`/.exec(readme);
    expect(row, 'README.md has no `pets.list({ … })` row').not.toBeNull();
    const names = (row?.[1] ?? '').split(', ').map((name) => name.replace(/\?$/, ''));
    expect(names).toEqual(['...query', 'signal', 'timeoutMs']);
    expect(readme).toMatch(/`ListPetsQuery` in\s+`@animal-store\/contract`/);
  });
});
