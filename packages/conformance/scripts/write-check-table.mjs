// Rewrites the table of checks in README.md from the registry (run after `pnpm build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { CHECKS, renderCheckTable } from '../dist/index.js';

const readme = new URL('../README.md', import.meta.url);
const text = readFileSync(readme, 'utf8');
const start = '<!-- checks:start -->';
const end = '<!-- checks:end -->';
const before = text.slice(0, text.indexOf(start) + start.length);
const after = text.slice(text.indexOf(end));
writeFileSync(readme, `${before}\n${renderCheckTable(CHECKS)}\n${after}`);
