import { parseArgs } from 'node:util';
import { ENDPOINT_IDS, type EndpointId } from './scenario.js';

/** Every option: its argument (none for a flag) and its line in `--help`. */
const OPTIONS = {
  smoke: ['', 'a short run that only checks everything works (about a minute)'],
  endpoints: ['LIST', `comma list of ${ENDPOINT_IDS.join(', ')} (default: all)`],
  growth: ['SIZES', 'comma list of store sizes, or "off" (default: 1000,100000,1000000)'],
  rounds: ['N', 'interleaved measured rounds per server (default: 5)'],
  duration: ['S', 'seconds per measured run (default: 4)'],
  warmup: ['S', 'seconds of warm-up per server (default: 2)'],
  connections: ['N', 'connections (default: 100)'],
  pipelining: ['N', 'requests in flight per connection, throughput runs (default: 10)'],
  'create-warmup': ['N', 'creates sent to each server before every POST round (default: 20000)'],
  'no-pin': ['', 'do not pin the driver and the servers to separate CPUs'],
  node: ['PATH', 'also run the API on this Node.js binary (another major)'],
  tracing: ['RATIO', 'also run the API traced, sampling this ratio (0.01: 1%) to a local sink'],
  ref: ['REF', 'also run the API at this git commit; repeatable (built in a temporary directory)'],
  out: [
    'PATH',
    'the report, PATH.json and PATH.md (default: results/latest; smoke: results/smoke)',
  ],
  readme: ['FILE', 'replace the table between the bench markers in FILE'],
  help: ['', 'this text'],
} as const;

export const HELP = `Usage: pnpm bench [options]

Benchmarks the API against a Fastify peer, a matched node:http baseline and the replay limit,
and prints the tables.

Options:
${Object.entries(OPTIONS)
  .map(([name, [arg, text]]) => `  ${`--${name} ${arg}`.padEnd(21)}${text}\n`)
  .join('')}`;

function positive(name: string, raw: string | undefined, fallback: number, integer = true): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

function ratio(raw: string): number {
  const value = Number(raw);
  if (!(value > 0 && value <= 1)) throw new Error('--tracing must be a ratio above 0, at most 1');
  return value;
}

/** How long one run lasts: `amount` responses when set (smoke runs), else `durationS` seconds. */
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
    options: { ...options, ref: { type: 'string', multiple: true } },
  });
  if (values.help) return 'help';
  const endpoints = values.endpoints?.split(',').map((id) => id.trim()) ?? [...ENDPOINT_IDS];
  const unknown = endpoints.find((id) => !(ENDPOINT_IDS as readonly string[]).includes(id));
  if (unknown !== undefined) {
    throw new Error(`--endpoints: unknown "${unknown}" (one of ${ENDPOINT_IDS.join(', ')})`);
  }
  const smoke = values.smoke ?? false;
  // A smoke run ends after 100 responses, so a busy machine slows it, never fails it.
  const length = (durationS: number): RunLength =>
    smoke ? { durationS, amount: 100 } : { durationS };
  const growthRaw = values.growth ?? (smoke ? '1000,10000' : '1000,100000,1000000');
  const growth =
    growthRaw === 'off'
      ? []
      : growthRaw.split(',').map((size) => positive('growth', size.trim(), 0));
  return {
    smoke,
    endpoints: endpoints as EndpointId[],
    /** Store sizes of the growth runs; empty for none. */
    growth,
    /** Pets in the store of the comparison runs (enough for `status=sold&limit=100`). */
    pets: 1000,
    rounds: positive('rounds', values.rounds, smoke ? 1 : 5),
    growthRounds: smoke ? 1 : 3,
    measure: length(positive('duration', values.duration, smoke ? 0.5 : 4, false)),
    warmup: length(positive('warmup', values.warmup, smoke ? 0.25 : 2, false)),
    /** Warm-up creates of each POST round, the same on both freshly seeded servers. */
    createWarmupRequests: positive('create-warmup', values['create-warmup'], 20_000),
    connections: positive('connections', values.connections, smoke ? 10 : 100),
    pipelining: positive('pipelining', values.pipelining, smoke ? 2 : 10),
    /**
     * Fixed rate for each of the API and the baseline (loaded together), as a fraction of the slower
     * one's throughput: at a sixteenth each, the server core is about two fifths busy (README, step 4).
     */
    rateFraction: 0.0625,
    /** Fixed rate of the growth runs: a fraction of the API's capacity at the smallest store. */
    growthRateFraction: 0.25,
    pin: !(values['no-pin'] ?? false),
    /** A second Node.js binary the API also runs on, if any. */
    node: values.node,
    /** The sampling ratio of a traced API variant, if any. */
    tracing: values.tracing === undefined ? undefined : ratio(values.tracing),
    /** The git commits (or any refs) the API also runs at, in the order given. */
    ref: values.ref ?? [],
    /**
     * The report's path, relative to the caller's cwd: `<out>.json` and `<out>.md` (a trailing
     * `.json` or `.md` on `out` is the same name).
     */
    out: values.out?.replace(/\.(json|md)$/, ''),
    /** A README whose bench section is replaced by the tables. */
    readme: values.readme,
  };
}

/** What a run is asked to do: the command line read, every default filled in. */
export type Settings = Exclude<ReturnType<typeof parseSettings>, 'help'>;
