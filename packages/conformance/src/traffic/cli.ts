// The CLI's `judge --har FILE` and `proxy --target URL`: the kit's judgment of traffic it did not
// send, with the run's reporters and exit statuses.
import { parseArgs } from 'node:util';
import { wholeNumber } from '../cli-args.js';
import { plural } from '../plural.js';
import { reportOutput, writeReports } from '../report/output.js';
import { terminalSafe } from '../report/pretty.js';
import { ConformanceError, parseBaseUrl, UsageError } from '../run.js';
import { inferBase } from './exchange.js';
import { readHar } from './har.js';
import { judgeTraffic, TrafficJudge, type Violation } from './judge.js';
import { startProxy } from './proxy.js';

/** Where a traffic command writes, and how it learns that it is to stop. */
export interface TrafficIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Resolves when the proxy is to stop (SIGINT or SIGTERM by default). */
  readonly stopped?: Promise<void>;
  /** Told the proxy's address once it listens. */
  readonly onListening?: (origin: string) => void;
}

const COMMON = {
  reporter: { type: 'string', multiple: true },
  'settle-ms': { type: 'string' },
  strict: { type: 'boolean' },
  'expect-fail': { type: 'string' },
} as const;

/** `parse()`, with a parse error as a usage error of `command`. */
function parsed<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

/** A violation as the proxy prints it the moment it is found. */
function violationLine(v: Violation): string {
  const [first] = v.message.split('\n');
  const mark = v.level === 'must' ? '✗' : '!';
  return `  ${mark} ${v.id} (${v.section}): ${terminalSafe(first ?? '')}\n`;
}

/** `judge --har FILE [--base-url URL]`: judges a HAR file's exchanges. */
export async function judgeCommand(args: readonly string[], io: TrafficIo): Promise<number> {
  const { values } = parsed('judge', () =>
    parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: { ...COMMON, har: { type: 'string' }, 'base-url': { type: 'string' } },
    }),
  );
  if (values.har === undefined) throw new UsageError('judge: --har FILE is required');
  const output = reportOutput(values);
  const settleMs = parsed('judge', () => wholeNumber('settle-ms', values['settle-ms'])) ?? 0;
  const recorded = readHar(values.har);
  const baseUrl = values['base-url'];
  const base =
    baseUrl === undefined ? inferBase(recorded) : parsed('judge', () => parseBaseUrl(baseUrl));
  if (base === undefined) {
    throw new ConformanceError(
      `judge: ${values.har} holds no request to /pets or /pets/{id}: nothing of the spec to judge (${recorded.length} exchanges)`,
    );
  }
  const { report, judge } = await judgeTraffic(recorded, {
    base,
    strict: values.strict ?? false,
    settleMs,
    source: `HAR file ${values.har}`,
  });
  if (judge.judged === 0) {
    throw new ConformanceError(
      `judge: ${values.har} holds no exchange of the spec's operations below ${base} (${recorded.length} exchanges)`,
    );
  }
  return writeReports(report, output, io.stdout, (text) => judge.redactor.text(text));
}

/** Resolves on the first SIGINT or SIGTERM. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** `proxy --target URL [--port N] [--host H]`: judges live traffic until stopped. */
export async function proxyCommand(args: readonly string[], io: TrafficIo): Promise<number> {
  const { values } = parsed('proxy', () =>
    parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        ...COMMON,
        target: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
      },
    }),
  );
  const rawTarget = values.target;
  if (rawTarget === undefined) throw new UsageError('proxy: --target URL is required');
  const target = parsed('proxy', () => parseBaseUrl(rawTarget, '--target'));
  const port = values.port ?? '0';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new UsageError(`proxy: --port must be a port number (0 to 65535), not "${port}"`);
  }
  const output = reportOutput(values);
  const settleMs = parsed('proxy', () => wholeNumber('settle-ms', values['settle-ms'])) ?? 0;
  const judge = new TrafficJudge({
    base: target,
    strict: values.strict ?? false,
    settleMs,
    source: `proxy to ${target}`,
    headersAsSent: true,
    onViolation: (v) => io.stderr(violationLine(v)),
  });
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({
      target,
      host: values.host ?? '127.0.0.1',
      port: Number(port),
      onExchange: (exchange) => void judge.add(exchange),
    });
  } catch (error) {
    throw new ConformanceError(`proxy: cannot listen: ${(error as Error).message}`);
  }
  // Ctrl-C is the proxy's to handle only once it listens: a proxy that could not start leaves
  // the process's signals as they were.
  const stopped = io.stopped ?? signalled();
  const clientBase = `${proxy.origin}${new URL(target).pathname.replace(/\/+$/, '')}`;
  io.stderr(
    `Judging traffic to ${target}: point the client at ${clientBase} (stop with Ctrl-C for the report)\n`,
  );
  io.onListening?.(proxy.origin);
  await stopped;
  await proxy.close();
  const report = await judge.report();
  if (judge.judged === 0) {
    // Traffic to other paths alone: most often a --target that is no base URL (no /v1).
    const others = report.traffic?.otherPaths ?? 0;
    const why =
      others === 0
        ? ''
        : ` (${plural(others, 'exchange')} to other paths: the operations are /pets and /pets/{petId} right below --target ${target}, the base URL, which ends in /v1)`;
    io.stderr(`proxy: no exchange of the spec's operations passed through: nothing judged${why}\n`);
    return 2;
  }
  return writeReports(report, output, io.stdout, (text) => judge.redactor.text(text));
}
