import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP } from '../src/cli.js';
import { CHECKS, renderCheckTable } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('lists every check of the registry, as generated', () => {
    const start = readme.indexOf('<!-- checks:start -->\n') + '<!-- checks:start -->\n'.length;
    const end = readme.indexOf('\n<!-- checks:end -->');
    expect(readme.slice(start, end)).toBe(renderCheckTable(CHECKS));
  });

  it('shows the usage and options of --help', () => {
    const options = HELP.split('\n').filter((line) => line.startsWith('  '));
    for (const line of options) expect(readme).toContain(line);
    expect(readme).toContain(HELP.split('\n')[0]);
  });
});
