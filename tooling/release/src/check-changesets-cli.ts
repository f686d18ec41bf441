#!/usr/bin/env node
/**
 * animal-store-check-changesets: fails (exit 1) when a public package changed since the base
 * branch without a changeset naming it; exit 2 when it cannot check (a CHANGESET_BASE that is no
 * commit, a malformed changeset, git failing).
 *
 *   CHANGESET_BASE=<ref>     compare with this ref instead of origin/<baseBranch> or <baseBranch>
 *   SKIP_CHANGESET_CHECK=1   do not check
 */
import { checkChangesets } from './check-changesets.js';
import { runMain } from './cli.js';

runMain('check-changesets', () => {
  const { ok, lines } = checkChangesets({ cwd: process.cwd(), env: process.env });
  const write = ok ? process.stdout : process.stderr;
  for (const line of lines) write.write(`check-changesets: ${line}\n`);
  return ok ? 0 : 1;
});
