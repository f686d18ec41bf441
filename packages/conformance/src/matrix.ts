// The spec matrix: every statement of the spec the kit holds a server to, with the oracle that
// judges an answer and the inputs that exercise it. The checks implement the rows, in the same
// section module; a test fails when a row has no check or a check no row, and the README's table
// is rendered from the rows.
import { SECTIONS } from './sections/index.js';
import type { MatrixRow } from './sections/support.js';

export type { MatrixRow } from './sections/support.js';

/**
 * The rows, in the spec's order: each section module (src/sections/) holds its rows beside the
 * checks that implement them.
 */
export const SPEC_MATRIX: readonly MatrixRow[] = SECTIONS.flatMap((section) => section.rows);

/** True when `pattern` (a check id, `*` standing for one dot-free part) names `id`. */
export function namesCheck(pattern: string, id: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]+');
  return new RegExp(`^${source}$`).test(id);
}

/** The rows that name a check. */
export function rowsOf(id: string, matrix: readonly MatrixRow[] = SPEC_MATRIX): MatrixRow[] {
  return matrix.filter((row) => row.checks.some((pattern) => namesCheck(pattern, id)));
}
