import { parseArgs } from 'node:util';
import { ENDPOINT_IDS, type EndpointId } from './scenario.js';

/** Every option: its argument (none for a flag) and its line in `--help`. */
const OPTIONS = {
  smoke: ['', 'one tiny round against each server: checks that the bench runs (seconds)'],
  long: ['', 'twice the rounds, each run twice as long (about two hours)'],
  endpoints: ['LIST', `comma list of ${ENDPOINT_IDS.join(', ')} (default: all)`],
  rounds: ['N', 'interleaved rounds, each of fresh processes (default: 8)'],
  duration: ['S', 'seconds of each measured run (default: 2.5)'],
  tracing: ['RATIO', 'sampling ratio of the traced API, or "off" (default: 0.01)'],
  undone: [
    'MAIN',
    "another build's main.js (the API with a change kept for speed undone), run as `traced` is",
  ],
  control: ['', 'also a second untraced API beside it: how far two of the same build differ'],
  'rss-pets': ['N', 'pets added for the RSS per stored pet, 0 for none (default: 50000)'],
  'no-pin': ['', 'do not pin the driver and the servers to separate CPUs'],
  out: ['PATH', 'the report, PATH.json and PATH.md (default: results/latest)'],
  'write-readme': ['', "write the report's summary table into tooling/bench/README.md"],
  from: ['FILE', 'with --write-readme: take that report (a JSON file) instead of running'],
  help: ['', 'this text'],
} as const;

export const HELP = `Usage: pnpm bench [options]

Benchmarks the API (apps/api/dist/main.js) against its Koa and Fastify peers, the replay limit
and the Koa and Fastify floors, and its tracing against an untraced API, every server on one
core (at saturation the servers of each figure at once, at the fixed rate one at a time), and
prints the tables.

Options:
${Object.entries(OPTIONS)
  .map(([name, [arg, text]]) => `  ${`--${name} ${arg}`.padEnd(21)}${text}\n`)
  .join('')}`;

function positive(name: string, raw: string | undefined, fallback: number, integer = true): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && name !== 'rss-pets')) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}`);
  }
  if (integer && !Number.isInteger(value)) {
    throw new Error(`--${name} must be a positive integer`);
  }
  return value;
}

function ratio(raw: string | undefined): number | undefined {
  if (raw === 'off') return undefined;
  const value = Number(raw ?? 0.01);
  if (!(value > 0 && value <= 1)) throw new Error('--tracing must be a ratio above 0, at most 1');
  return value;
}

/** How long one run lasts: `amount` requests when set (smoke runs), else `durationS` seconds. */
export interface RunLength {
  durationS: number;
  amount?: number;
}

/** Reads the command line (`'help'` for `--help` or `-h`); throws on anything it does not know. */
export function parseSettings(argv: string[]) {
  const options = Object.fromEntries(
    Object.entries(OPTIONS).map(([name, [arg]]) => [name, { type: arg ? 'string' : 'boolean' }]),
  ) as {
    [K in keyof typeof OPTIONS]: { type: (typeof OPTIONS)[K][0] extends '' ? 'boolean' : 'string' };
  };
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--').map((arg) => (arg === '-h' ? '--help' : arg)),
    strict: true,
    options,
  });
  if (values.help) return 'help';
  const endpoints = values.endpoints?.split(',').map((id) => id.trim()) ?? [...ENDPOINT_IDS];
  const unknown = endpoints.find((id) => !(ENDPOINT_IDS as readonly string[]).includes(id));
  if (unknown !== undefined) {
    throw new Error(`--endpoints: unknown "${unknown}" (one of ${ENDPOINT_IDS.join(', ')})`);
  }
  if (values.undone !== undefined && values.tracing === 'off') {
    throw new Error('--undone runs beside the traced API: it needs --tracing');
  }
  if (values.control && values.tracing === 'off') {
    throw new Error(
      '--control runs beside the untraced API of the tracing group: it needs --tracing',
    );
  }
  if (values.from !== undefined && !values['write-readme']) {
    throw new Error('--from only goes with --write-readme');
  }
  const smoke = values.smoke ?? false;
  const long = values.long ?? false;
  const durationS = positive('duration', values.duration, long ? 5 : 2.5, false);
  // A smoke run measures nothing: it takes every step of a run with as little work as each step
  // allows, and counts requests instead of seconds, so a busy machine slows it, never fails it.
  // autocannon's `amount` must be at least `connections` × `pipelining`, or its run never ends.
  const length = (seconds: number, amount: number): RunLength =>
    smoke ? { durationS: seconds, amount } : { durationS: seconds };
  return {
    smoke,
    // The creates endpoint last: its creates leave the reads' answers as they were.
    endpoints: ENDPOINT_IDS.filter((id) => endpoints.includes(id)) as EndpointId[],
    rounds: positive('rounds', values.rounds, smoke ? 1 : long ? 16 : 8),
    /**
     * Pets every server holds before the runs: more than 100 sold for `status=sold&limit=100`;
     * in a smoke run a page and a half of `limit=20`.
     */
    pets: smoke ? 30 : 1000,
    measure: length(durationS, 20),
    warmup: length(1, 10),
    /** Creates before the measured creates, the same number on every server. */
    createWarmup: smoke ? 10 : 5000,
    connections: smoke ? 2 : 100,
    /** Requests in flight on each connection at saturation (one at the fixed rate). */
    pipelining: smoke ? 2 : 10,
    /** The fixed rate: this fraction of the API's req/s at saturation in the first round. */
    rateFraction: smoke ? 1 : 0.2,
    /**
     * Whether each run waits for the server to go idle before it starts and after it ends, and
     * the RSS readings too: only a measurement needs it, so a smoke run does not.
     */
    settle: !smoke,
    tracing: ratio(values.tracing),
    /** Requests the traced API records on each read endpoint before any run (`warmTracing`). */
    recordedWarmup: smoke ? 1 : 1000,
    /** The API with a change kept for speed undone (apps/api/PERFORMANCE.md), traced alike. */
    undone: values.undone,
    /** A second untraced API in the tracing group: the `control/untraced` figure. */
    control: values.control ?? false,
    rssPets: positive('rss-pets', values['rss-pets'], smoke ? 50 : 50_000),
    pin: !(values['no-pin'] ?? false),
    /** The report's path, without `.json` or `.md`, relative to the caller's directory. */
    out: values.out?.replace(/\.(json|md)$/, ''),
    writeReadme: values['write-readme'] ?? false,
    from: values.from,
  };
}

/** What a run is asked to do: the command line read, every default filled in. */
export type Settings = Exclude<ReturnType<typeof parseSettings>, 'help'>;
