#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, pinDriver } from './children.js';
import { compareEndpoint, type EndpointComparison, unevenRotation } from './compare.js';
import { type GrowthSeries, growthRuns } from './growth.js';
import { lineup } from './lineup.js';
import {
  describeMachine,
  describeSource,
  type Report,
  renderSummary,
  updateReadme,
  writeReport,
} from './report.js';
import { HELP, parseSettings, type Settings } from './settings.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

async function run(settings: Settings): Promise<void> {
  const started = performance.now();
  const progress = (line: string) =>
    process.stderr.write(
      `[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`,
    );
  if (settings.pin && !pinDriver()) {
    progress('cannot pin processes to CPUs (taskset missing or one CPU): running unpinned');
    settings.pin = false;
  }
  // Paths on the command line are the caller's (pnpm runs scripts in the package directory).
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out = `${
    settings.out
      ? resolve(cwd, settings.out)
      : resolve(PACKAGE_ROOT, 'results', settings.smoke ? 'smoke' : 'latest')
  }.json`;
  const startedAt = new Date().toISOString();
  const comparisons: EndpointComparison[] = [];
  const growth: GrowthSeries[] = [];
  const { out: _out, readme: _readme, ...kept } = settings;
  const source = describeSource(PACKAGE_ROOT);
  const { servers: defs, close } = await lineup(settings, progress);
  const uneven = settings.smoke ? undefined : unevenRotation(settings.rounds, defs.length);
  if (uneven) progress(uneven);
  const servers = defs.map(({ name, nodeVersion, env }) => ({
    name,
    node: nodeVersion,
    env: env ?? {},
  }));
  const report = (complete: boolean): Report => ({
    version: 9,
    mode: settings.smoke ? 'smoke' : 'full',
    complete,
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: describeMachine(),
    source,
    settings: kept,
    servers,
    comparisons,
    growth,
  });
  // Written after every endpoint, marked incomplete, so a run that is stopped leaves its figures.
  try {
    for (const endpoint of settings.endpoints) {
      comparisons.push(await compareEndpoint(endpoint, settings, defs, progress));
      writeReport(out, report(false));
    }
    const api = defs[0] as (typeof defs)[number];
    if (settings.growth.length > 0) growth.push(...(await growthRuns(settings, api, progress)));
  } finally {
    await close();
  }
  const final = report(true);
  process.stdout.write(`\n${writeReport(out, final)}`);
  progress(`wrote ${out}`);
  if (settings.readme) {
    const readme = resolve(cwd, settings.readme);
    updateReadme(readme, renderSummary(final));
    progress(`updated ${readme}`);
  }
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
  try {
    await run(settings);
    return 0;
  } catch (error) {
    process.stderr.write(`bench: FAILED: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    killAllChildren();
  }
}

process.exitCode = await main(process.argv.slice(2));
