import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssPerPet } from './memory.js';
import { describeMachine, describeSource, type Report, writeReport } from './report.js';
import { runRounds } from './rounds.js';
import { lineup, pinDriver, spanSink } from './servers.js';
import type { Settings } from './settings.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs the bench as `settings` say: every round, then the RSS per stored pet; writes the report. */
export async function run(settings: Settings, progress: (line: string) => void): Promise<Report> {
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
  const defs = lineup(settings.tracing, sink.origin, settings);
  const report: Report = {
    version: 11,
    mode: settings.smoke ? 'smoke' : 'full',
    complete: false,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    machine: describeMachine(),
    source: describeSource(PACKAGE_ROOT),
    settings: kept,
    servers: defs.map(({ name, group, env }) => ({ name, group, env: { ...env } })),
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
        settings,
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
