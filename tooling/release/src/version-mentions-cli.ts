#!/usr/bin/env node
/**
 * animal-store-version-mentions [--write]: lists every version of a workspace package named in
 * the READMEs, the Action and the docs that is not the package's own (exit 1 when there is one);
 * with --write, rewrites them to the packages' versions (`pnpm version-packages` does, after
 * `changeset version`). Run from the repository root.
 */
import { runMain } from './cli.js';
import { fixVersionMentions, wrongVersionMentions } from './version-mentions.js';

runMain('version-mentions', () => {
  const root = process.cwd();
  if (process.argv.includes('--write')) {
    for (const file of fixVersionMentions(root)) {
      process.stdout.write(`version-mentions: ${file}: rewritten to the packages' versions\n`);
    }
  }
  const wrong = wrongVersionMentions(root);
  for (const m of wrong) {
    process.stdout.write(
      `version-mentions: ${m.file}:${m.line}: ${m.package} ${m.found}, but the package is at ${m.expected}\n`,
    );
  }
  return wrong.length === 0 ? 0 : 1;
});
