import { CHECKS } from './checks/index.js';
import { CheckFailed, CheckSkipped } from './checks/support.js';
import { CheckContext } from './context.js';
import { Fixtures, newRunId } from './fixtures.js';
import { HttpClient, RateLimitedError, RequestError } from './http/client.js';
import {
  type Check,
  type CheckResult,
  type ConformanceReport,
  GROUPS,
  type Group,
  type Outcome,
  type ProgressEvent,
  READ_ONLY_SKIP,
  type Verdict,
} from './types.js';
import { KIT_NAME, KIT_VERSION } from './version.js';

/** Options of `runConformance`. */
export interface ConformanceOptions {
  /** The service's base address, ending in `/v1` (e.g. `https://pets.example.com/v1`). */
  readonly baseUrl: string;
  /** A valid API key, sent as `Authorization: Bearer <key>`. */
  readonly apiKey: string;
  /** Groups (`auth`, `listPets`, `createPet`, `getPet`, `errors`) or check ids to run; all when empty. */
  readonly only?: readonly string[];
  /** Count `should` advisories as failures. */
  readonly strict?: boolean;
  /** Skip every check that creates data, for production targets. */
  readonly readOnly?: boolean;
  /** Per-request timeout in milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Retries after `429` (default 3) and the longest wait honoured from `Retry-After` (default 5 000 ms). */
  readonly retry?: { readonly maxRetries?: number; readonly maxWaitMs?: number };
  /** The fetch implementation (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Called as the run goes: start, notices (data created), each check's result. */
  readonly onProgress?: (event: ProgressEvent) => void;
}

/** A run that could not start: bad options or an unreachable server. Exit code 2 in the CLI. */
export class ConformanceError extends Error {
  override readonly name: string = 'ConformanceError';
  readonly exitCode = 2;
}

/** Options that cannot work (bad URL, unknown group). */
export class UsageError extends ConformanceError {
  override readonly name = 'UsageError';
}

/** The server gave no HTTP answer at all. */
export class ConnectionError extends ConformanceError {
  override readonly name = 'ConnectionError';
}

/** Per-request timeout when none is given, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The checks `only` selects (groups or check ids), in run order; throws `UsageError` on unknown names. */
export function selectChecks(only: readonly string[] = []): Check[] {
  if (only.length === 0) return [...CHECKS];
  const unknown = only.filter(
    (name) => !(GROUPS as readonly string[]).includes(name) && !CHECKS.some((c) => c.id === name),
  );
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown group or check ${unknown.map((u) => `"${u}"`).join(', ')}; groups are ${GROUPS.join(', ')}`,
    );
  }
  return CHECKS.filter((c) => only.includes(c.group) || only.includes(c.id));
}

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--base-url "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must be http or https, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError('--base-url must not carry a query or fragment');
  }
  return url.href.replace(/\/+$/, '');
}

async function judge(check: Check, ctx: CheckContext): Promise<Verdict> {
  if (check.writes && ctx.readOnly) {
    return { outcome: 'skip', message: READ_ONLY_SKIP };
  }
  try {
    return await check.run(ctx);
  } catch (error) {
    if (error instanceof CheckFailed || error instanceof RequestError) {
      return { outcome: 'fail', message: error.message };
    }
    if (error instanceof CheckSkipped || error instanceof RateLimitedError) {
      return { outcome: 'skip', message: error.message };
    }
    return { outcome: 'fail', message: `the kit could not complete this check: ${String(error)}` };
  }
}

function outcomeOf(check: Check, verdict: Verdict, strict: boolean): Outcome {
  if (verdict.outcome !== 'fail' || check.level === 'must' || strict) return verdict.outcome;
  return 'advisory';
}

/** Runs the conformance checks against a server and returns the report; never throws on findings. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!options.apiKey) throw new UsageError('an API key is required');
  const checks = selectChecks(options.only);
  const strict = options.strict ?? false;
  const readOnly = options.readOnly ?? false;
  const progress = options.onProgress ?? (() => {});
  const runId = newRunId();
  const startedAt = new Date();
  const started = performance.now();

  let ctx: CheckContext | undefined;
  const http = new HttpClient({
    baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.retry?.maxRetries ?? 3,
    maxRetryWaitMs: options.retry?.maxWaitMs ?? 5_000,
    userAgent: `animal-store-conformance/${KIT_VERSION}`,
    fetch: options.fetch ?? globalThis.fetch,
    onResponse: (res) => {
      ctx?.responses.push(res);
      ctx?.fixtures.observe(res);
    },
  });
  const fixtures = new Fixtures(http, runId, readOnly, (message) =>
    progress({ type: 'notice', message }),
  );
  ctx = new CheckContext(http, fixtures, readOnly, options.apiKey);

  const hint = await preflight(http, baseUrl);
  progress({ type: 'start', baseUrl, runId, checks: checks.length });
  if (hint !== undefined) progress({ type: 'notice', message: hint });

  const results: CheckResult[] = [];
  for (const [index, check] of checks.entries()) {
    const t0 = performance.now();
    const verdict = await judge(check, ctx);
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      section: check.section,
      level: check.level,
      group: check.group,
      outcome: outcomeOf(check, verdict, strict),
      message: verdict.message,
      ms: Math.round(performance.now() - t0),
    };
    results.push(result);
    progress({ type: 'check', result, index, total: checks.length });
  }

  const count = (outcome: Outcome) => results.filter((r) => r.outcome === outcome).length;
  const summary = {
    passed: count('pass'),
    failed: count('fail'),
    advisories: count('advisory'),
    skipped: count('skip'),
  };
  const groups = GROUPS.filter((g: Group) => checks.some((c) => c.group === g));
  return {
    kit: { name: KIT_NAME, version: KIT_VERSION },
    baseUrl,
    runId,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    strict,
    readOnly,
    groups,
    ok: summary.failed === 0,
    summary,
    results,
    created: {
      count: fixtures.createdIds.size,
      namePrefix: fixtures.namePrefix,
      ids: [...fixtures.createdIds],
    },
    requests: [...http.log],
  };
}

/**
 * One authenticated `listPets` to learn that the server answers at all; throws `ConnectionError`
 * when it does not, and returns a hint when the answer suggests a wrong base URL or key.
 */
async function preflight(http: HttpClient, baseUrl: string): Promise<string | undefined> {
  try {
    const res = await http.send({ method: 'GET', path: '/pets?limit=1' });
    if (res.status === 404) {
      return `GET ${baseUrl}/pets answered 404: is the base URL right? It should end in /v1`;
    }
    if (res.status === 401)
      return `GET ${baseUrl}/pets answered 401 to the API key given: is it valid?`;
  } catch (error) {
    if (error instanceof RequestError) {
      throw new ConnectionError(`cannot reach ${baseUrl}: ${error.reason}`);
    }
    if (!(error instanceof RateLimitedError)) throw error;
  }
  return undefined;
}
