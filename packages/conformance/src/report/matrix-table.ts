import { type MatrixRow, namesCheck } from '../matrix.js';
import type { Check } from '../types.js';

/** A Markdown table cell: pipes escaped, `<` and `>` shown as written rather than as HTML tags. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Renders the spec matrix as the README's Markdown table: the section, the statement, the oracle
 * that judges an answer, the inputs sent, and the checks that hold the row with their level.
 */
export function renderMatrixTable(matrix: readonly MatrixRow[], checks: readonly Check[]): string {
  const held = (row: MatrixRow) =>
    checks
      .filter((c) => row.checks.some((pattern) => namesCheck(pattern, c.id)))
      .map((c) => `\`${c.id}\` (${c.level})`)
      .join('<br>');
  return [
    '| spec | statement | oracle | inputs | checks |',
    '|---|---|---|---|---|',
    ...matrix.map(
      (row) =>
        `| ${cell(row.section)} | ${cell(row.statement)} | ${cell(row.oracle)} | ${cell(row.inputs)} | ${held(row)} |`,
    ),
  ].join('\n');
}
