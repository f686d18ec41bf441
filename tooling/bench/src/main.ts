#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll } from '@animal-store/test-support';
import { type Report, renderSummary, updateReadme } from './report.js';
import { HELP, parseSettings, type Settings } from './settings.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));

async function main(argv: string[]): Promise<number> {
  let settings: Settings | 'help';
  try {
    settings = parseSettings(argv);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (settings === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const started = performance.now();
  const progress = (line: string) =>
    process.stderr.write(
      `[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`,
    );
  try {
    const from = settings.from && resolve(process.env.INIT_CWD ?? process.cwd(), settings.from);
    // The servers, the load and the contract load only for a run: they take about a second of
    // CPU, which --help, a refusal and --write-readme --from do without.
    const report = from
      ? (JSON.parse(readFileSync(from, 'utf8')) as Report)
      : await (await import('./run.js')).run(settings, progress);
    if (settings.writeReadme) {
      if (report.mode !== 'full' || !report.complete) {
        throw new Error(
          'only a complete full run goes into the README (not a smoke or stopped one)',
        );
      }
      updateReadme(README, renderSummary(report));
      progress(`updated ${README}`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`bench: FAILED: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    // The bench never leaves a server behind.
    killAll();
  }
}

// A bench stopped by a signal stops its servers too (a round runs them all); its report
// is already on disk up to the last whole round.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(code);
  });
}

process.exitCode = await main(process.argv.slice(2));
