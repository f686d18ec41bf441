#!/usr/bin/env node
/**
 * animal-store-api-report [PACKAGE_DIR...]: writes the public surface report (api-report.json)
 * of each built package (default packages/contract), recording the pending changesets naming it.
 * Run from the repository root, after a build (`pnpm api-report` does both).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildApiReport,
  diffApiReports,
  formatApiReport,
  REPORT_FILE,
  readApiReport,
} from './api-report.js';
import { readChangesets } from './changesets.js';
import { runMain } from './cli.js';

runMain('api-report', async () => {
  const dirs = process.argv.slice(2);
  const changesets = readChangesets(process.cwd());
  for (const dir of dirs.length > 0 ? dirs : ['packages/contract']) {
    const committed = readApiReport(dir);
    const report = await buildApiReport(dir, changesets);
    const file = join(dir, REPORT_FILE);
    writeFileSync(file, formatApiReport(report));
    const changes = committed ? diffApiReports(committed, report) : ['(new report)'];
    process.stdout.write(
      changes.length === 0
        ? `api-report: ${file}: the public surface of ${report.package} is unchanged\n`
        : `api-report: ${file}: written\n${changes.map((line) => `  ${line}\n`).join('')}`,
    );
    const fresh = report.changesets.filter((id) => !committed?.changesets.includes(id));
    if (committed && changes.length > 0 && fresh.length === 0) {
      process.stderr.write(
        `api-report: no changeset added since the last report names ${report.package}: add one ` +
          '(`pnpm changeset`) before you commit, or the changeset check fails\n',
      );
    }
  }
  return 0;
});
