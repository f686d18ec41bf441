#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll } from '@animal-store/test-support';
import { rssPerPet } from './memory.js';
import {
  describeMachine,
  describeSource,
  type Report,
  renderSummary,
  updateReadme,
  writeReport,
} from './report.js';
import { runRounds } from './rounds.js';
import { lineup, pinDriver, spanSink } from './servers.js';
import { HELP, parseSettings, type Settings } from './settings.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = resolve(PACKAGE_ROOT, 'README.md');

async function run(settings: Settings, progress: (line: string) => void): Promise<Report> {
  if (settings.pin && !pinDriver()) {
    progress('cannot pin processes to CPUs (taskset missing or one CPU): running unpinned');
    settings.pin = false;
  }
  // Paths on the command line are the caller's (pnpm runs scripts in the package directory).
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const name = settings.smoke ? 'smoke' : 'latest';
  const out = `${settings.out ? resolve(cwd, settings.out) : resolve(PACKAGE_ROOT, 'results', name)}.json`;
  const { out: _o, writeReadme: _w, from: _f, ...kept } = settings;
  const sink = await spanSink();
  const defs = lineup(settings.tracing, sink.origin, settings.undone);
  const report: Report = {
    version: 10,
    mode: settings.smoke ? 'smoke' : 'full',
    complete: false,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    machine: describeMachine(),
    source: describeSource(PACKAGE_ROOT),
    settings: kept,
    servers: defs.map(({ name, env }) => ({ name, env: { ...env } })),
    endpoints: [],
    peakRssMb: {},
  };
  const save = () => {
    report.finishedAt = new Date().toISOString();
    return writeReport(out, report);
  };
  try {
    // Written after every round, marked incomplete, so a run that is stopped leaves its rounds.
    await runRounds(settings, defs, progress, (endpoints, peakRssMb) => {
      Object.assign(report, { endpoints, peakRssMb });
      save();
    });
    if (settings.rssPets > 0) {
      progress(`RSS per stored pet: creating ${settings.rssPets} pets in the API`);
      report.rss = await rssPerPet(
        defs[0] as (typeof defs)[0],
        settings.pets,
        settings.rssPets,
        settings.pin,
      );
    }
  } finally {
    sink.server.close();
    sink.server.closeAllConnections();
  }
  report.complete = true;
  process.stdout.write(`\n${save()}`);
  progress(`wrote ${out}`);
  return report;
}

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
    const report = from
      ? (JSON.parse(readFileSync(from, 'utf8')) as Report)
      : await run(settings, progress);
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

process.exitCode = await main(process.argv.slice(2));
