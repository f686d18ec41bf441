import { randomInt } from 'node:crypto';
import { CheckContext } from './context.js';
import {
  CHECK_PETS_MAX,
  CREATE_CONCURRENCY,
  DEFAULT_NAME_PREFIX,
  Fixtures,
  NAME_PREFIX_MAX,
  NAME_PREFIX_PATTERN,
  NAME_SHAPES,
  type NameShape,
  newRunId,
  type SentPet,
} from './fixtures.js';
import { HttpClient, type HttpResponse, RateLimitedError, RequestError } from './http/client.js';
import { integerText } from './http/json.js';
import { nextPageUrl, unfollowedNextPage } from './http/pages.js';
import { curlLine, errorSummary } from './http/replay.js';
import { routeOf } from './oracles.js';
import { Redactor } from './redact.js';
import { CHECK_IDS, runOrder } from './sections/index.js';
import { CheckFailed, CheckSkipped } from './sections/support.js';
import { tally } from './tally.js';
import {
  type Check,
  type CheckResult,
  type ConformanceReport,
  GROUPS,
  type Group,
  type NotRun,
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
  /** Groups or check ids to leave out (after `only`). */
  readonly skip?: readonly string[];
  /**
   * A pet set the operator loaded into the server (`fixtures` prints one): adds the checks that
   * judge listing, limits, filters and getPet on it, which create nothing.
   */
  readonly fixtureSet?: readonly SentPet[];
  /** Count `should` advisories as failures. */
  readonly strict?: boolean;
  /** Skip every check that creates data, for production targets. */
  readonly readOnly?: boolean;
  /**
   * The key may be written into URLs (a key revoked after the run): the kit also sends it in the
   * query string without Authorization, which must not be accepted. Without it, the kit sends a
   * look-alike there and the report says the real key was not tried.
   */
  readonly disposableKey?: boolean;
  /**
   * categoryIds that exist on the server, used in turn for every pet the kit means to create
   * (default `[1]`). Integers, or integer strings for ids beyond 2^53.
   */
  readonly categoryIds?: readonly (number | string)[];
  /** Starts the name of every pet the kit creates (default `cf`; at most 4 of `[a-z0-9-]`). */
  readonly namePrefix?: string;
  /**
   * The shape of every name the kit sends (`lower`, `capitalised`, ...: `NAME_SHAPES`). Without
   * it the kit tries each shape before its checks and keeps the first the server accepts.
   */
  readonly nameShape?: NameShape;
  /**
   * Milliseconds to wait after a write before reading (default 0): for servers whose reads lag
   * their writes. Without it the kit expects to read its own writes at once.
   */
  readonly settleMs?: number;
  /**
   * The most pets the run may create (at least `CHECK_PETS_MAX`, what the checks create): the
   * store is filled to `STORE_TARGET` pets only as far as it allows. Default: no cap.
   */
  readonly maxPets?: number;
  /** Seeds the generated cases (default: random); the report gives it, to replay a run. */
  readonly seed?: number;
  /** Per-request timeout in milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /**
   * Retries after `429` or `503` (default 3), and the longest wait honoured from `Retry-After`
   * (default 5 000 ms; a second without one).
   */
  readonly retry?: { readonly maxRetries?: number; readonly maxWaitMs?: number };
  /** The fetch implementation (default: undici's, on connections of the run's own). */
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

/**
 * The server answers, but not as the spec's service at this base URL with this key: no
 * operation answers (a wrong base path), or every one refuses the key.
 */
export class ConfigurationError extends ConformanceError {
  override readonly name = 'ConfigurationError';
}

/** Per-request timeout when none is given, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Throws `UsageError` when a name in `names` is neither a group nor a check id. */
function knownNames(option: string, names: readonly string[], pool: readonly Check[]): void {
  const unknown = names.filter(
    (name) => !(GROUPS as readonly string[]).includes(name) && !pool.some((c) => c.id === name),
  );
  if (unknown.length > 0) {
    throw new UsageError(
      `${option}: unknown group or check ${unknown.map((u) => `"${u}"`).join(', ')}; groups are ${GROUPS.join(', ')}`,
    );
  }
}

/**
 * The checks `only` selects and `skip` leaves out (groups or check ids), in run order; throws
 * `UsageError` on unknown names.
 */
export function selectChecks(
  only: readonly string[] = [],
  skip: readonly string[] = [],
  withFixtureSet = false,
): Check[] {
  const pool = runOrder(withFixtureSet);
  knownNames('--only', only, pool);
  knownNames('--skip', skip, pool);
  const named = (c: Check, names: readonly string[]) =>
    names.includes(c.group) || names.includes(c.id);
  const selected = pool.filter((c) => (only.length === 0 || named(c, only)) && !named(c, skip));
  if (selected.length === 0) throw new UsageError('--only and --skip leave no check to run');
  return selected;
}

/**
 * The base URL `option` gives: http(s), without a user name or password (the key goes in
 * `Authorization`, and a URL is written where reports show it), a query or a fragment, even an
 * empty one (`/v1?`), its trailing `/` dropped.
 */
export function parseBaseUrl(raw: string, option = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${option} "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${option} must be http or https, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `${option} must not carry a user name or password: the kit sends the key as Authorization: Bearer (--api-key)`,
    );
  }
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(url.href)) {
    throw new UsageError(`${option} must not carry a query or fragment (a "?" or "#")`);
  }
  return url.href.replace(/\/+$/, '');
}

function parseCategoryIds(ids: readonly (number | string)[] | undefined): string[] {
  if (ids === undefined) return ['1'];
  if (ids.length === 0) throw new UsageError('--category-id needs at least one id');
  return ids.map((id) => {
    const text = String(id).trim();
    if (
      !/^-?\d{1,19}$/.test(text) ||
      BigInt(text) > 2n ** 63n - 1n ||
      BigInt(text) < -(2n ** 63n)
    ) {
      throw new UsageError(`--category-id "${id}" is not an int64 integer`);
    }
    return BigInt(text).toString();
  });
}

function parseNamePrefix(prefix: string | undefined): string {
  if (prefix === undefined) return DEFAULT_NAME_PREFIX;
  if (!NAME_PREFIX_PATTERN.test(prefix) || prefix.length > NAME_PREFIX_MAX) {
    throw new UsageError(
      `--name-prefix "${prefix}" must be at most ${NAME_PREFIX_MAX} of a-z, 0-9 and "-" (names stay within 16 characters)`,
    );
  }
  return prefix;
}

function parseNameShape(shape: string | undefined): NameShape | undefined {
  if (shape === undefined || shape in NAME_SHAPES) return shape as NameShape | undefined;
  throw new UsageError(`--name-shape "${shape}" is none of ${Object.keys(NAME_SHAPES).join(', ')}`);
}

function parseCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new UsageError(`${name} must be a whole number of 0 or more, not ${value}`);
  }
  return value;
}

function parseMaxPets(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < CHECK_PETS_MAX) {
    throw new UsageError(
      `--max-pets must be at least ${CHECK_PETS_MAX}, what the checks themselves may create, not ${value} (--read-only creates none)`,
    );
  }
  return value;
}

/** A failure's message: the reason, what the server said, and the request to replay. */
function failureMessage(error: CheckFailed | RequestError, fallback?: HttpResponse): string {
  if (error instanceof RequestError) {
    const { sent } = error;
    return sent === undefined
      ? error.message
      : `${error.message}\nreplay: ${curlLine(sent.request, sent.url)}`;
  }
  const res = error.response ?? fallback;
  if (res === undefined) return error.message;
  const said = errorSummary(res);
  return [
    error.message,
    ...(said === undefined ? [] : [`server said: ${said}`]),
    `replay: ${curlLine(res.request, res.url)}`,
  ].join('\n');
}

async function judge(
  check: Check,
  ctx: CheckContext,
  writesRefused: string | undefined,
): Promise<Verdict> {
  if (check.writes && ctx.readOnly) {
    return { outcome: 'skip', message: READ_ONLY_SKIP };
  }
  if (check.writes && writesRefused !== undefined) {
    return { outcome: 'skip', message: writesRefused };
  }
  const seen = ctx.responses.length;
  try {
    return await check.run(ctx);
  } catch (error) {
    if (error instanceof CheckFailed || error instanceof RequestError) {
      // Without an answer named by the check, the last one the check itself received.
      return { outcome: 'fail', message: failureMessage(error, ctx.responses.slice(seen).at(-1)) };
    }
    if (error instanceof CheckSkipped && error.notApplicable) {
      return { outcome: 'skip', message: error.message, notApplicable: true };
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

/** The options of a run, checked and with their defaults. */
interface RunSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fixtureSet: readonly SentPet[];
  readonly checks: readonly Check[];
  readonly strict: boolean;
  readonly readOnly: boolean;
  readonly categoryIds: readonly string[];
  readonly namePrefix: string;
  readonly settleMs: number;
  readonly maxPets: number | undefined;
  readonly nameShape: NameShape | undefined;
  readonly seed: number;
}

/** Checks the options and fills in their defaults; throws `UsageError` on one that cannot work. */
function settingsOf(options: ConformanceOptions): RunSettings {
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!options.apiKey) throw new UsageError('an API key is required');
  const fixtureSet = options.fixtureSet ?? [];
  return {
    baseUrl,
    apiKey: options.apiKey,
    fixtureSet,
    checks: selectChecks(options.only, options.skip, fixtureSet.length > 0),
    strict: options.strict ?? false,
    readOnly: options.readOnly ?? false,
    categoryIds: parseCategoryIds(options.categoryIds),
    namePrefix: parseNamePrefix(options.namePrefix),
    settleMs: parseCount('--settle-ms', options.settleMs, 0),
    maxPets: parseMaxPets(options.maxPets),
    nameShape: parseNameShape(options.nameShape),
    seed: parseCount('--seed', options.seed, randomInt(2 ** 31)),
  };
}

/** What the checks share: the client (which records every answer), the run's pets, the context. */
interface Wiring {
  readonly http: HttpClient;
  readonly fixtures: Fixtures;
  readonly ctx: CheckContext;
}

/** Builds the HTTP client, the run's pets and the checks' context, wired to each other. */
function wire(
  options: ConformanceOptions,
  settings: RunSettings,
  runId: string,
  redactor: Redactor,
  progress: (event: ProgressEvent) => void,
): Wiring {
  let ctx: CheckContext | undefined;
  const http = new HttpClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.retry?.maxRetries ?? 3,
    maxRetryWaitMs: options.retry?.maxWaitMs ?? 5_000,
    userAgent: `animal-store-conformance/${KIT_VERSION}`,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    connections: CREATE_CONCURRENCY,
    redactor,
    onResponse: (res) => {
      ctx?.responses.push(res);
      ctx?.fixtures.observe(res);
    },
  });
  const fixtures = new Fixtures(http, {
    runId,
    readOnly: settings.readOnly,
    categoryIds: settings.categoryIds,
    namePrefix: settings.namePrefix,
    settleMs: settings.settleMs,
    ...(settings.maxPets === undefined ? {} : { maxPets: settings.maxPets }),
    nameShape: settings.nameShape,
    progress: (message) => progress({ type: 'notice', message }),
  });
  ctx = new CheckContext(
    http,
    fixtures,
    settings.readOnly,
    settings.apiKey,
    settings.seed,
    settings.fixtureSet,
    options.disposableKey ?? false,
  );
  return { http, fixtures, ctx };
}

/** The preflight, with the key taken out of what it throws. */
async function preflightRedacted(
  http: HttpClient,
  baseUrl: string,
  redactor: Redactor,
): Promise<string | undefined> {
  try {
    return await preflight(http, baseUrl);
  } catch (error) {
    if (error instanceof Error) error.message = redactor.text(error.message);
    throw error;
  }
}

/**
 * Without `--name-shape`, finds the shape of name the server accepts before any check writes.
 * When it accepts none, returns why: every check that writes is then left out as not run (the
 * kit cannot tell a name rule of the server's from a fault), and the rest still judge it.
 */
async function chooseNameShape(
  settings: RunSettings,
  fixtures: Fixtures,
): Promise<string | undefined> {
  const { nameShape, readOnly, checks, categoryIds } = settings;
  if (nameShape !== undefined || readOnly || !checks.some((c) => c.writes)) return undefined;
  // No answer at all is no refusal: the checks report it.
  const { found, tried } = await fixtures.findNameShape().catch((error: unknown) => {
    if (error instanceof RequestError || error instanceof RateLimitedError) {
      return { found: true, tried: [] };
    }
    throw error;
  });
  if (found) return undefined;
  return `createPet refused a pet in every name shape tried: ${tried.join(', ')} (categoryId ${categoryIds.join(', ')}); give a shape the server accepts with --name-shape (${Object.keys(NAME_SHAPES).join(', ')}), or categories it knows with --category-id`;
}

/** Runs the checks in order, reporting each result as it comes. */
async function runChecks(
  settings: RunSettings,
  ctx: CheckContext,
  writesRefused: string | undefined,
  progress: (event: ProgressEvent) => void,
): Promise<CheckResult[]> {
  const { checks, strict } = settings;
  const results: CheckResult[] = [];
  for (const [index, check] of checks.entries()) {
    const t0 = performance.now();
    const verdict = await judge(check, ctx, writesRefused);
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      section: check.section,
      level: check.level,
      group: check.group,
      outcome: outcomeOf(check, verdict, strict),
      message: verdict.message,
      ms: Math.round(performance.now() - t0),
      ...(verdict.notApplicable ? { notApplicable: true } : {}),
    };
    results.push(result);
    progress({ type: 'check', result, index, total: checks.length });
  }
  return results;
}

/** The report of a finished run (the key taken out of every text). */
function reportOf(
  settings: RunSettings,
  run: { runId: string; startedAt: Date; started: number; hint: string | undefined },
  { http, fixtures, ctx }: Wiring,
  results: readonly CheckResult[],
  redactor: Redactor,
): ConformanceReport {
  const { baseUrl, checks, strict, readOnly, seed, categoryIds, namePrefix, settleMs, maxPets } =
    settings;
  const groups = GROUPS.filter((g: Group) => checks.some((c) => c.group === g));
  const { summary, notRun, verdict } = tally(results);
  const fullVerdict = fullVerdictOf(ctx, notRun, settings.fixtureSet.length > 0);
  return redactor.deep({
    kit: { name: KIT_NAME, version: KIT_VERSION },
    baseUrl,
    runId: run.runId,
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - run.started),
    strict,
    readOnly,
    seed,
    inputs: { categoryIds, namePrefix, settleMs, ...(maxPets === undefined ? {} : { maxPets }) },
    hints: run.hint === undefined ? [] : [run.hint],
    groups,
    verdict,
    notRun,
    ...(fullVerdict === undefined ? {} : { fullVerdict }),
    ok: verdict === 'pass',
    summary,
    results,
    created: {
      count: fixtures.createdIds.size,
      namePrefix: fixtures.namePrefix,
      ids: [...fixtures.createdIds],
    },
    requests: [...http.log],
  });
}

/** Runs the conformance checks against a server and returns the report; never throws on findings. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const settings = settingsOf(options);
  // Every text that leaves the run (progress, the report, errors) passes through it.
  const redactor = new Redactor([options.apiKey], CHECK_IDS);
  const onProgress = options.onProgress ?? (() => {});
  const progress = (event: ProgressEvent) => onProgress(redactor.deep(event));
  const run = { runId: newRunId(), startedAt: new Date(), started: performance.now() };
  const wiring = wire(options, settings, run.runId, redactor, progress);

  try {
    const hint = await preflightRedacted(wiring.http, settings.baseUrl, redactor);
    const { baseUrl, seed, checks } = settings;
    progress({ type: 'start', baseUrl, runId: run.runId, seed, checks: checks.length });
    if (hint !== undefined) progress({ type: 'notice', message: hint });
    const writesRefused = await chooseNameShape(settings, wiring.fixtures);
    if (writesRefused !== undefined) progress({ type: 'notice', message: writesRefused });

    const results = await runChecks(settings, wiring.ctx, writesRefused, progress);
    return reportOf(settings, { ...run, hint }, wiring, results, redactor);
  } finally {
    await wiring.http.close();
  }
}

/** The checks that need the run's pets (or a known set) within a list's reach. */
const NEEDS_REACH = /^(createPet\.listed|listPets\.)/;

/**
 * What gives a full verdict when checks that look for pets in lists could not run, and which of
 * it this server lacks; undefined when no such check is among `notRun`.
 */
function fullVerdictOf(
  ctx: CheckContext,
  notRun: readonly NotRun[],
  withFixtureSet: boolean,
): string | undefined {
  if (!notRun.some((n) => NEEDS_REACH.test(n.id))) return undefined;
  const { createdIds, emptyAtStart } = ctx.fixtures;
  const lists = ctx.responses.filter((r) => {
    const route = routeOf(r);
    return route.op === 'listPets' && !route.query.has('status') && r.status === 200;
  });
  const newestFirst = lists.some(
    (r) => Array.isArray(r.body) && createdIds.has(integerText(r.body[0], 'id') ?? ''),
  );
  const listings = ctx.responses.filter((r) => routeOf(r).op === 'listPets');
  const outside = listings
    .map((r) => unfollowedNextPage(r, ctx.baseUrl))
    .find((target) => target !== undefined);
  const ways: [string, boolean, string][] = [
    ['an empty store before the run', emptyAtStart === true, 'this one held pets'],
    ['lists in newest-first order', newestFirst, "no list began with one of the run's pets"],
    [
      'a Link rel="next" on a full page (RFC 8288), below the base URL',
      listings.some((r) => nextPageUrl(r, ctx.baseUrl) !== undefined),
      outside === undefined
        ? 'this server sent none'
        : `this server's lies outside it, where the kit sends no key: ${outside}`,
    ],
    ['--fixtures with a pet set loaded into the server', withFixtureSet, 'none was given'],
  ];
  const lacks = ways.filter(([, has]) => !has).map(([way, , why]) => `${way} (${why})`);
  return `the run's pets must be within a list's reach for a full verdict, which needs one of: ${ways.map(([way]) => way).join('; ')}. This server lacks ${lacks.join('; ')}`;
}

/** A JSON object that reads as an Error: a string `code` or `message`, or a numeric `status`. */
export function errorShaped(res: HttpResponse): boolean {
  if (!isObject(res.body)) return false;
  const body = res.body as Record<string, unknown>;
  return (
    typeof body.code === 'string' ||
    typeof body.message === 'string' ||
    typeof body.status === 'number'
  );
}

/**
 * True when `res`, an answer to a read of the preflight, is in one of the spec's shapes for an
 * operation that is there: a JSON object (either read, a list wrapped in one among them) or a
 * JSON array (listPets) with a 2xx, a 401, or an
 * Error-like JSON body with another status. A 404 or 405 says no such route (at a wrong base URL
 * every path answers so), and for getPet a 404 is also the spec's own answer: neither tells that
 * the spec's service is there.
 */
export function speaksTheSpec(res: HttpResponse, op: 'listPets' | 'getPet'): boolean {
  if (res.status === 401) return true;
  if (res.status >= 200 && res.status <= 299) {
    // A list wrapped in an object (`{"items": []}`) is the operation answered in the wrong
    // shape, which the checks fail, as getPet's wrapped pet is: no sign of a wrong base URL.
    return isObject(res.body) || (op === 'listPets' && Array.isArray(res.body));
  }
  if (res.status === 404 || res.status === 405) return false;
  return res.status >= 400 && errorShaped(res);
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Where a redirect of `res` went, on another origin than `baseUrl`'s, as a base URL (the path
 * below it the kit asked for taken off: `http` to `https`), or undefined.
 */
function redirectedElsewhere(baseUrl: string, res: HttpResponse | undefined): string | undefined {
  if (res?.redirectedTo === undefined) return undefined;
  const to = new URL(res.redirectedTo);
  if (to.origin === new URL(baseUrl).origin) return undefined;
  const asked = new URL(res.url);
  const below = asked.pathname.slice(new URL(baseUrl).pathname.length);
  const landed = to.pathname.replace(/\/+$/, '');
  const path = landed.endsWith(below) ? landed.slice(0, -below.length) : landed;
  return `${to.origin}${path}`;
}

/**
 * Before the checks, reads `listPets` and `getPet` once each with the valid key (it writes
 * nothing); their answers are judged by the oracles like every other. Throws `ConnectionError`
 * when the server gives no answer or asks both to come back later after every retry (down for
 * maintenance), and `ConfigurationError` when no answer is in the spec's
 * shapes (an HTML page, a redirect elsewhere, a 404 for the list: a wrong base URL) or both
 * refuse the key: every check would fail for that one reason. Any other server is judged, and
 * gets PASS, FAIL or INCOMPLETE. Returns a hint when one answer alone suggests a wrong base URL
 * or key.
 */
async function preflight(http: HttpClient, baseUrl: string): Promise<string | undefined> {
  try {
    const list = await http.send({ method: 'GET', path: '/pets?limit=1' });
    const first = Array.isArray(list.body) ? integerText(list.body[0], 'id') : undefined;
    const id = list.status === 200 && first !== undefined ? first : '1';
    let get: HttpResponse | undefined;
    try {
      get = await http.send({ method: 'GET', path: `/pets/${id}` });
    } catch (error) {
      // The listing answered: what follows is for the checks to judge.
      if (!(error instanceof RequestError || error instanceof RateLimitedError)) throw error;
    }
    const said = `GET /pets answered ${list.status}, GET /pets/${id} ${get === undefined ? 'gave no answer' : `answered ${get.status}`}`;
    // Fetch sends no key across origins: a read redirected to another (http to https) is
    // refused there, or answered as a keyless one. It names the base URL to give instead.
    const elsewhere = redirectedElsewhere(baseUrl, list) ?? redirectedElsewhere(baseUrl, get);
    const sentElsewhere = (problem: string) =>
      new ConfigurationError(
        `${problem} (${said}): the server sends the kit's reads on to another origin, where the key is not sent: is the base URL ${elsewhere}?`,
      );
    if (list.status === 401 && get?.status === 401) {
      if (elsewhere !== undefined) throw sentElsewhere('the API key is refused on every operation');
      throw new ConfigurationError(
        `the server refuses the API key on every operation (${said}): is it a valid key for ${baseUrl}?`,
      );
    }
    // A 404 Error for the pet is the spec's own answer once the list route is there.
    const petNotFound =
      get?.status === 404 && errorShaped(get) && list.status !== 404 && list.status !== 405;
    const speaks =
      speaksTheSpec(list, 'listPets') ||
      (get !== undefined && speaksTheSpec(get, 'getPet')) ||
      petNotFound;
    if (!speaks) {
      if (elsewhere !== undefined) throw sentElsewhere('no operation of the spec answers');
      throw new ConfigurationError(
        `no operation of the spec answers at ${baseUrl} (${said}): is the base URL right? It ends in the path prefix, such as /v1`,
      );
    }
    if (list.status === 404) {
      return `GET ${baseUrl}/pets answered 404: is the base URL right? It should end in /v1`;
    }
    if (list.status === 401) {
      return `GET ${baseUrl}/pets answered 401 to the API key given: is it valid? Every check that needs the key fails until it is`;
    }
  } catch (error) {
    if (error instanceof RequestError) {
      throw new ConnectionError(`cannot reach ${baseUrl}: ${error.reason}`);
    }
    if (!(error instanceof RateLimitedError)) throw error;
    // The list still asks to come back later. A server that limits the kit's first requests
    // reads a pet; one down for maintenance asks so of everything, and no check could judge it.
    try {
      await http.send({ method: 'GET', path: '/pets/1' });
    } catch (again) {
      if (again instanceof RateLimitedError) {
        throw new ConnectionError(
          `${baseUrl} asks to come back later: ${error.message}, and ${again.message}; run the kit once it serves again`,
        );
      }
      if (!(again instanceof RequestError)) throw again;
    }
  }
  return undefined;
}
