import { parseArgs } from 'node:util';
import { versionLine } from '../build-info.js';
import { ConfigError, loadConfig } from '../config.js';
import { connectMongo } from '../store/mongo-client.js';
import { StoreUnavailableError } from '../store/pet-store.js';
import {
  API_KEY_NAME,
  ApiKeyNameTakenError,
  ApiKeyRegistry,
  type ApiKeySummary,
} from './api-key-registry.js';

const NAME = 'animal-store-keys';

/** The usage text `--help` prints. */
export const HELP = `Usage: ${NAME} <command> [name]

Manages the API keys kept in MongoDB (the api_keys collection holds only their SHA-256 digests).

Commands:
  create <name>   make a key named <name>; prints the key once on stdout, on a line of its own;
                  running API processes accept it within API_KEY_CACHE_MS (5 s)
  list            print every key: name, created, revoked, fingerprint (8 hex digits of its digest)
  revoke <name>   revoke a key; running API processes refuse it within API_KEY_CACHE_MS (5 s)

Options:
  -h, --help      print this help
  -v, --version   print the version

Environment: MONGODB_URI or MONGODB_URI_FILE (required), MONGODB_DB (default animal_store),
MONGODB_ALLOW_WEAK_CONSISTENCY (see the API's README).
Exit status: 0 done, 1 failed (unknown name, name taken, database unreachable), 2 usage error.
`;

/** Where the CLI writes and what it reads; tests pass their own. */
export interface KeysCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const processIo: KeysCliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

class UsageError extends Error {}

type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'create'; name: string }
  | { kind: 'list' }
  | { kind: 'revoke'; name: string };

const parseOptions = (args: readonly string[]) =>
  parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });

function parse(args: readonly string[]): Command {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return { kind: 'help' };
  if (parsed.values.version) return { kind: 'version' };
  const [command, name, ...extra] = parsed.positionals;
  if (command === undefined) throw new UsageError('a command is required: create, list or revoke');
  if (command === 'list') {
    if (name !== undefined) throw new UsageError(`list takes no argument (got "${name}")`);
    return { kind: 'list' };
  }
  if (command !== 'create' && command !== 'revoke') {
    throw new UsageError(`unknown command "${command}": use create, list or revoke`);
  }
  if (name === undefined) throw new UsageError(`${command} needs a key name`);
  if (extra.length > 0) throw new UsageError(`${command} takes one name (got ${extra.length + 1})`);
  if (!API_KEY_NAME.test(name)) {
    throw new UsageError(
      `"${name}" is not a key name: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
  return { kind: command, name };
}

const iso = (date: Date | null) => (date ? date.toISOString() : '-');

function table(keys: readonly ApiKeySummary[]): string {
  const rows = [
    ['NAME', 'CREATED', 'REVOKED', 'FINGERPRINT'],
    ...keys.map((k) => [k.name, iso(k.createdAt), iso(k.revokedAt), k.fingerprint]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

async function execute(
  command: Exclude<Command, { kind: 'help' | 'version' }>,
  registry: ApiKeyRegistry,
  io: KeysCliIo,
): Promise<number> {
  switch (command.kind) {
    case 'create': {
      const key = await registry.create(command.name);
      io.stdout(`${key}\n`);
      io.stderr(
        `Created API key "${command.name}". It is shown only this once: store it now. ` +
          'Send it as: Authorization: Bearer <key>\n',
      );
      return 0;
    }
    case 'list': {
      const keys = await registry.list();
      if (keys.length === 0) io.stderr('No API keys in the database.\n');
      else io.stdout(table(keys));
      return 0;
    }
    case 'revoke': {
      const key = await registry.revoke(command.name);
      if (!key) {
        io.stderr(`${NAME}: no key named "${command.name}"\n`);
        return 1;
      }
      io.stderr(`Key "${key.name}" is revoked (since ${iso(key.revokedAt)}).\n`);
      return 0;
    }
  }
}

/** Runs the `keys` CLI with `args` (without node and the script) and returns the exit code. */
export async function runKeysCli(
  args: readonly string[],
  io: KeysCliIo = processIo,
): Promise<number> {
  let command: Command;
  let uri: string | undefined;
  let dbName: string;
  let allowWeakConsistency: boolean;
  try {
    command = parse(args);
    if (command.kind === 'help') {
      io.stdout(HELP);
      return 0;
    }
    if (command.kind === 'version') {
      io.stdout(`${versionLine(NAME)}\n`);
      return 0;
    }
    ({
      mongodbUri: uri,
      mongodbDb: dbName,
      mongodbAllowWeakConsistency: allowWeakConsistency,
    } = loadConfig({
      MONGODB_URI: io.env.MONGODB_URI,
      MONGODB_URI_FILE: io.env.MONGODB_URI_FILE,
      MONGODB_DB: io.env.MONGODB_DB,
      MONGODB_ALLOW_WEAK_CONSISTENCY: io.env.MONGODB_ALLOW_WEAK_CONSISTENCY,
    }));
    if (uri === undefined) throw new UsageError('MONGODB_URI is not set: keys live in MongoDB');
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
    io.stderr(`${NAME}: ${error.message} (see --help)\n`);
    return 2;
  }
  let client: Awaited<ReturnType<typeof connectMongo>> | undefined;
  try {
    client = await connectMongo(uri, { appName: NAME }, { allowWeakConsistency });
    return await execute(command, await ApiKeyRegistry.open(client.db(dbName)), io);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`${NAME}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ApiKeyNameTakenError) {
      io.stderr(`${NAME}: ${error.message}; choose another name\n`);
      return 1;
    }
    if (error instanceof StoreUnavailableError) {
      // The driver's message names hosts, never the credentials in MONGODB_URI.
      const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
      io.stderr(`${NAME}: cannot reach MongoDB${cause}\n`);
      return 1;
    }
    throw error;
  } finally {
    await client?.close();
  }
}
