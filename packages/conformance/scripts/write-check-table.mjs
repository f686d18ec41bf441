// Rewrites the spec matrix and the table of checks in README.md from the source (run after
// `pnpm build`).
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CHECKS,
  FIXTURE_SET_CHECKS,
  renderCheckTable,
  renderMatrixTable,
  SPEC_MATRIX,
} from '../dist/index.js';

const readme = new URL('../README.md', import.meta.url);
let text = readFileSync(readme, 'utf8');

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
function replace(name, table) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  text = `${before}\n${table}\n${after}`;
}

replace('matrix', renderMatrixTable(SPEC_MATRIX, [...CHECKS, ...FIXTURE_SET_CHECKS]));
replace('checks', renderCheckTable(CHECKS));
writeFileSync(readme, text);
