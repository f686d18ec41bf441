import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { wholeNumber } from './cli-args.js';
import { FIXTURE_SET_SIZE, fixtureSet, fixtureSetJson, readFixtureSet } from './fixture-set.js';
import {
  CHECK_PETS_MAX,
  DEFAULT_NAME_PREFIX,
  NAME_PREFIX_MAX,
  NAME_SHAPES,
  type NameShape,
  STORE_TARGET,
} from './fixtures.js';
import { Redactor } from './redact.js';
import { REPORTER_NAMES } from './report/choose.js';
import { reportOutput, writeReports } from './report/output.js';
import { prettyProgress } from './report/pretty.js';
import { ConformanceError, DEFAULT_TIMEOUT_MS, runConformance, UsageError } from './run.js';
import { CHECK_IDS } from './sections/index.js';
import { judgeCommand, proxyCommand } from './traffic/cli.js';
import { GROUPS } from './types.js';
import { KIT_VERSION } from './version.js';

const NAME = 'animal-store-conformance';

/** The usage text `--help` prints. */
export const HELP = `Usage: ${NAME} --base-url URL --api-key KEY [options]
       ${NAME} fixtures [--category-id ID]
       ${NAME} judge --har FILE [--base-url URL] [--settle-ms N] [--reporter …] [--strict] [--expect-fail FILE]
       ${NAME} proxy --target URL [--port N] [--host H] [--settle-ms N] [--reporter …] [--strict] [--expect-fail FILE]

Checks that an Animal Store server behaves as the specification says. \`fixtures\`
prints a set of ${FIXTURE_SET_SIZE} pets (JSON NewPets, statuses in turn) to load into a
server for --read-only --fixtures runs. \`judge\` holds the exchanges of a HAR file to the
same checks, \`proxy\` the live traffic it forwards unchanged to --target (127.0.0.1 and a free
port unless --host and --port say otherwise; the report comes when it is stopped).

Options:
  --base-url URL       the server's base address, ending in /v1 (required)
  --api-key KEY        a valid API key (or set ANIMAL_STORE_API_KEY)
  --reporter NAME[:FILE]
                       ${REPORTER_NAMES.join(', ')}; pretty by default. Repeat it (or
                       give a comma-separated list) for several reports of one run: the
                       one without :FILE goes to stdout, each other one to its FILE
                       (pretty goes to stdout when every one named has a FILE)
  --only LIST          comma-separated groups or check ids to run
                       (groups: ${GROUPS.join(', ')})
  --skip LIST          comma-separated groups or check ids to leave out
  --strict             count should-advisories as failures
  --read-only          skip every check that creates pets (for production)
  --disposable-key     the key may go where servers log it (a key you revoke after the
                       run): also send it as ?api_key=, in X-API-Key and other header
                       fields, in cookies and in a NewPet's members without
                       Authorization, which must fail
  --fixtures FILE      a pet set loaded into the server (as \`${NAME} fixtures\`
                       prints one): adds checks of listing, limits, filters and
                       getPet on it that create nothing
  --category-id LIST   comma-separated categoryIds that exist on the server, used in
                       turn for every pet the kit creates (default 1)
  --name-prefix P      starts the name of every pet the kit creates (default ${DEFAULT_NAME_PREFIX};
                       up to ${NAME_PREFIX_MAX} of a-z 0-9 -; names are P + run id + n, <= 16 chars)
  --name-shape SHAPE   the shape of every name the kit sends: ${Object.keys(NAME_SHAPES).join(', ')}
                       (default: the first of them the server accepts)
  --settle-ms N        wait N ms after a write before reading, for servers whose
                       lists lag writes (default 0: reads see writes at once); with
                       judge and proxy, hold no read sent sooner than that to a write
  --max-pets N         create at most N pets (at least ${CHECK_PETS_MAX}: what the checks
                       themselves create); the store is then filled to ${STORE_TARGET} pets
                       only as far as N allows, and limits it cannot show are not run
                       (default: fill a store that shows fewer than ${STORE_TARGET})
  --seed N             seed of the generated cases, to replay a run (default random)
  --timeout-ms N       per-request timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS})
  --expect-fail FILE   checks the server is known to fail, one \`check-id reason\` a line
                       (# comments): the run passes when exactly those fail, and fails
                       on a listed check that now passes (remove its line)
  -v, --version        print the kit version
  -h, --help           print this help

Exit status: 0 PASS: every must check ran and passed
             1 FAIL: a check failed
             2 the run could not start (usage, connection or configuration: no
               answer at the base URL in the spec's shapes, a key refused everywhere),
               or stopped before it ended
             3 INCOMPLETE: nothing failed, but some must checks could not run
               (the report lists each with why)
`;

/** Where the CLI writes and what it reads; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

function parse(args: readonly string[], env: CliIo['env']) {
  let values: ReturnType<typeof parseOptions>['values'];
  try {
    values = parseOptions(args).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' } as const;
  if (values.version) return { kind: 'version' } as const;
  const baseUrl = values['base-url'];
  const apiKey = values['api-key'] ?? env.ANIMAL_STORE_API_KEY;
  if (!baseUrl) throw new UsageError('--base-url is required');
  if (!apiKey) throw new UsageError('--api-key is required (or set ANIMAL_STORE_API_KEY)');
  const output = reportOutput(values);
  const timeout = values['timeout-ms'];
  if (timeout !== undefined && !/^[1-9]\d*$/.test(timeout)) {
    throw new UsageError(`--timeout-ms must be a positive integer, not "${timeout}"`);
  }
  const count = (name: 'settle-ms' | 'seed' | 'max-pets') => wholeNumber(name, values[name]);
  const categoryIds =
    values['category-id'] === undefined
      ? undefined
      : values['category-id'].split(',').map((s) => s.trim());
  const list = (name: 'only' | 'skip') => {
    const names = (values[name] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (values[name] !== undefined && names.length === 0) {
      throw new UsageError(`--${name} needs a group or check id`);
    }
    return names;
  };
  return {
    kind: 'run' as const,
    baseUrl,
    apiKey,
    output,
    only: list('only'),
    skip: list('skip'),
    strict: values.strict ?? false,
    readOnly: values['read-only'] ?? false,
    disposableKey: values['disposable-key'] ?? false,
    categoryIds,
    namePrefix: values['name-prefix'],
    nameShape: values['name-shape'] as NameShape | undefined,
    settleMs: count('settle-ms'),
    maxPets: count('max-pets'),
    seed: count('seed'),
    timeoutMs: timeout === undefined ? undefined : Number(timeout),
    fixtureSet: values.fixtures === undefined ? undefined : readFixtureSet(values.fixtures),
  };
}

/** `fixtures [--category-id ID]`: the pet set to load, as JSON on stdout. */
function fixturesCommand(args: readonly string[]): string {
  let values: { 'category-id'?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: { 'category-id': { type: 'string' } },
    }));
  } catch (error) {
    throw new UsageError(`fixtures: ${(error as Error).message}`);
  }
  const categoryId = values['category-id'] ?? '1';
  if (!/^-?\d{1,19}$/.test(categoryId)) {
    throw new UsageError(`fixtures: --category-id "${categoryId}" is not an integer`);
  }
  return fixtureSetJson(fixtureSet(BigInt(categoryId).toString()));
}

function parseOptions(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      reporter: { type: 'string', multiple: true },
      only: { type: 'string' },
      skip: { type: 'string' },
      strict: { type: 'boolean' },
      'read-only': { type: 'boolean' },
      'disposable-key': { type: 'boolean' },
      'category-id': { type: 'string' },
      'name-prefix': { type: 'string' },
      'name-shape': { type: 'string' },
      'settle-ms': { type: 'string' },
      'max-pets': { type: 'string' },
      seed: { type: 'string' },
      'timeout-ms': { type: 'string' },
      fixtures: { type: 'string' },
      'expect-fail': { type: 'string' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Runs the CLI with `args` (without node and the script) and returns the exit code. */
export async function main(args: readonly string[], given: CliIo = processIo): Promise<number> {
  // What the CLI writes passes through the run's redaction once the key is known.
  const redactor = new Redactor([], CHECK_IDS);
  const io: CliIo = {
    ...given,
    stdout: (text) => given.stdout(redactor.text(text)),
    stderr: (text) => given.stderr(redactor.text(text)),
  };
  try {
    if (args[0] === 'fixtures') {
      io.stdout(fixturesCommand(args.slice(1)));
      return 0;
    }
    if (args[0] === 'judge') return await judgeCommand(args.slice(1), io);
    if (args[0] === 'proxy') return await proxyCommand(args.slice(1), io);
    const options = parse(args, io.env);
    if (options.kind === 'run') redactor.add(options.apiKey);
    if (options.kind === 'help' || options.kind === 'version') {
      io.stdout(options.kind === 'help' ? HELP : `${KIT_VERSION}\n`);
      return 0;
    }
    const { output, ...run } = options;
    const toStdout = output.reporters.find((r) => r.file === undefined);
    const report = await runConformance({
      ...run,
      fetch: io.fetch,
      onProgress: toStdout?.name === 'pretty' ? prettyProgress(io.stderr) : undefined,
    });
    return writeReports(report, output, io.stdout, (text) => redactor.text(text));
  } catch (error) {
    if (!(error instanceof ConformanceError)) throw error;
    const hint = error instanceof UsageError ? ' (see --help)' : '';
    io.stderr(`${NAME}: ${error.message}${hint}\n`);
    return error.exitCode;
  }
}

/** True when this module is the script Node was started with (`node dist/cli.js …`). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  // Bundled (the single executable) there is no module URL: its own entry calls `main`.
  if (script === undefined || typeof import.meta.url !== 'string') return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * Sets the process's exit status from `run`, the command's: 2 until it ends, so that a process
 * whose run stopped halfway (its event loop left with nothing to wake the step that waits)
 * never exits 0, which reads as a PASS, and says so.
 */
export function exitWith(run: Promise<number>): void {
  let ended = false;
  process.exitCode = 2;
  process.once('beforeExit', () => {
    if (!ended) {
      process.stderr.write(
        `${NAME}: the run stopped before it ended: a step waited for something that never came\n`,
      );
    }
  });
  run.then(
    (code) => {
      ended = true;
      process.exitCode = code;
    },
    (error: unknown) => {
      ended = true;
      process.stderr.write(`${NAME}: ${String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

// `node dist/cli.js …` runs the CLI as the `animal-store-conformance` command does.
if (isEntryPoint()) exitWith(main(process.argv.slice(2)));
