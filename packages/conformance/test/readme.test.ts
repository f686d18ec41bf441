import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP } from '../src/cli.js';
import {
  CHECKS,
  FIXTURE_SET_CHECKS,
  renderCheckTable,
  renderMatrixTable,
  SPEC_MATRIX,
} from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The text between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
function block(name: string): string {
  const start = readme.indexOf(`<!-- ${name}:start -->\n`) + `<!-- ${name}:start -->\n`.length;
  const end = readme.indexOf(`\n<!-- ${name}:end -->`);
  return readme.slice(start, end);
}

describe('the README', () => {
  it('shows the spec matrix, as generated', () => {
    expect(block('matrix')).toBe(
      renderMatrixTable(SPEC_MATRIX, [...CHECKS, ...FIXTURE_SET_CHECKS]),
    );
  });

  it('lists every check of the registry, as generated', () => {
    expect(block('checks')).toBe(renderCheckTable(CHECKS));
  });

  it('shows the usage and options of --help', () => {
    const options = HELP.split('\n').filter((line) => line.startsWith('  '));
    for (const line of options) expect(readme).toContain(line);
    expect(readme).toContain(HELP.split('\n')[0]);
  });
});
