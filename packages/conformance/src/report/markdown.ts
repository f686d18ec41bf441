import type { Check } from '../types.js';

/** Renders checks as the Markdown table of the README (id, section, level, title). */
export function renderCheckTable(checks: readonly Check[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    '| id | section | level | title |',
    '|---|---|---|---|',
    ...checks.map((c) => `| \`${c.id}\` | ${cell(c.section)} | ${c.level} | ${cell(c.title)} |`),
  ].join('\n');
}
