import type { Check } from '../types.js';

/**
 * A Markdown table cell: pipes escaped, `<` and `>` shown as written (`@<seconds>`) rather than
 * as HTML tags.
 */
export function tableCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Renders checks as the Markdown table of the README: id, level, the spec section, what a
 * `should` check rests on besides the spec (an RFC, an HTTP rule, the reference's decision), title.
 */
export function renderCheckTable(checks: readonly Check[]): string {
  return [
    '| id | level | spec | rests on | title |',
    '|---|---|---|---|---|',
    ...checks.map(
      (c) =>
        `| \`${c.id}\` | ${c.level} | ${tableCell(c.section)} | ${tableCell(c.rule ?? 'the spec')} | ${tableCell(c.title)} |`,
    ),
  ].join('\n');
}
