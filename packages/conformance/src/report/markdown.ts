import type { Check } from '../types.js';

/** Renders checks as the Markdown table of the README (id, section, level, title). */
export function renderCheckTable(checks: readonly Check[]): string {
  // Escaped so that `@<seconds>` shows as written rather than as an HTML tag.
  const cell = (text: string) =>
    text.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return [
    '| id | section | level | title |',
    '|---|---|---|---|',
    ...checks.map((c) => `| \`${c.id}\` | ${cell(c.section)} | ${c.level} | ${cell(c.title)} |`),
  ].join('\n');
}
