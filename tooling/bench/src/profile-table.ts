/**
 * `pnpm --filter @animal-store/bench profile-table <file.cpuprofile>…`: the self time of each
 * profile grouped by what it is spent on (`profile-groups.ts`), one column per file.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type CpuProfile, groupTable } from './profile-groups.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: profile-table <file.cpuprofile>…\n');
  process.exit(2);
}
const profiles = files.map((file) => ({
  name: basename(file, '.cpuprofile'),
  profile: JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
}));
process.stdout.write(`${groupTable(profiles)}\n`);
