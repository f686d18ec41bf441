import { type MatrixRow, namesCheck } from '../matrix.js';
import type { Check } from '../types.js';
import { tableCell } from './check-table.js';

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
        `| ${tableCell(row.section)} | ${tableCell(row.statement)} | ${tableCell(row.oracle)} | ${tableCell(row.inputs)} | ${held(row)} |`,
    ),
  ].join('\n');
}
