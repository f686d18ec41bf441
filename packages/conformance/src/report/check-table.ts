import type { Check } from '../types.js';

/**
 * Renders checks as the Markdown table of the README: id, level, the spec section, what a
 * `should` check rests on besides the spec (an RFC, an HTTP rule, the reference's decision), title.
 */
export function renderCheckTable(checks: readonly Check[]): string {
  // Escaped so that `@<seconds>` shows as written rather than as an HTML tag.
  const cell = (text: string) =>
    text.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return [
    '| id | level | spec | rests on | title |',
    '|---|---|---|---|---|',
    ...checks.map(
      (c) =>
        `| \`${c.id}\` | ${c.level} | ${cell(c.section)} | ${cell(c.rule ?? 'the spec')} | ${cell(c.title)} |`,
    ),
  ].join('\n');
}
