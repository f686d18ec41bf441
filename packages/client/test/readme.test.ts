import { readFileSync } from 'node:fs';
import { LIST_PETS_PARAMS } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it("lists pets.list's options as the contract's list parameters, then signal and timeoutMs", () => {
    const row = /`pets\.list\(\{ ([^}]*) \}\)`/.exec(readme);
    expect(row, 'README.md has no `pets.list({ … })` row').not.toBeNull();
    const names = (row?.[1] ?? '').split(', ').map((name) => name.replace(/\?$/, ''));
    expect(names).toEqual([...LIST_PETS_PARAMS, 'signal', 'timeoutMs']);
  });
});
