import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CHECK_PETS_MAX,
  MAX_CREATED,
  NAME_PREFIX_MAX,
  NAME_SHAPES,
  type NameShape,
} from '../src/fixtures.js';
import {
  CHECKS,
  type ConformanceOptions,
  type ConformanceReport,
  ConnectionError,
  GROUPS,
  type ProgressEvent,
  renderMarkdown,
  renderPretty,
  runConformance,
  selectChecks,
  UsageError,
} from '../src/index.js';
import { closedBaseUrl, startFakeServer } from './support/fake-server.js';
import { notPassed, resultOf, runAgainst } from './support/run-kit.js';

describe('the check registry', () => {
  it('gives every check a unique id that starts with its group', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CHECKS) expect(c.id.startsWith(`${c.group}.`)).toBe(true);
  });

  it('names the rule every should check rests on, and none for a must check (the spec alone)', () => {
    for (const c of CHECKS) {
      if (c.level === 'should') expect(c.rule, c.id).toMatch(/\S/);
      else expect(c.rule, c.id).toBeUndefined();
    }
  });

  it('cites a spec section for every check and has checks in every group', () => {
    for (const c of CHECKS) expect(c.section).toMatch(/^§\d/);
    for (const group of GROUPS) expect(CHECKS.some((c) => c.group === group)).toBe(true);
  });

  it('selects groups and single checks, and refuses unknown names', () => {
    expect(selectChecks(['errors']).every((c) => c.group === 'errors')).toBe(true);
    expect(selectChecks(['getPet.not-found']).map((c) => c.id)).toEqual(['getPet.not-found']);
    expect(() => selectChecks(['pets'])).toThrow(UsageError);
  });
});

/** Two runs, one after the other, on one conforming store that starts empty. */
interface TwoRuns {
  /** The first run; `events`: the progress it reported. */
  readonly first: ConformanceReport;
  readonly events: readonly ProgressEvent[];
  /** What the server had seen when the first run ended. */
  readonly afterFirst: { readonly created: number; readonly requests: number };
  readonly second: ConformanceReport;
  /** How many pets the server stored over both runs. */
  readonly created: number;
}

let twoRuns: Promise<TwoRuns> | undefined;

/** The two runs, made once for the tests that read them. */
function runTwiceOnOneStore(): Promise<TwoRuns> {
  twoRuns ??= (async () => {
    const server = await startFakeServer();
    try {
      const { baseUrl, apiKey } = server;
      const events: ProgressEvent[] = [];
      const first = await runConformance({ baseUrl, apiKey, onProgress: (e) => events.push(e) });
      const afterFirst = { created: server.created(), requests: server.requests.length };
      const second = await runConformance({ baseUrl, apiKey });
      return { first, events, afterFirst, second, created: server.created() };
    } finally {
      await server.close();
    }
  })();
  return twoRuns;
}

describe('runConformance', () => {
  it('reports the pets it created, tagged with the run id, and the kit version', async () => {
    const { first: report, afterFirst: server } = await runTwiceOnOneStore();
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(report.kit).toEqual({ name: '@animal-store/conformance', version: manifest.version });
    expect(report.created.count).toBe(server.created);
    expect(report.created.count).toBeGreaterThan(0);
    expect(report.created.count).toBeLessThanOrEqual(MAX_CREATED);
    expect(report.created.namePrefix).toBe(`cf${report.runId}`);
    expect(report.requests.length).toBe(server.requests);
  });

  it('creates nothing in read-only mode and skips the checks that would', async () => {
    const { report, server } = await runAgainst({}, { readOnly: true });
    // Only safe methods (RFC 9110 §9.2.1): OPTIONS asks what a path allows.
    const safe = ['GET', 'HEAD', 'OPTIONS'];
    expect(server.requests.filter((r) => !safe.includes(r.method))).toEqual([]);
    expect(report.created.count).toBe(0);
    for (const check of CHECKS.filter((c) => c.writes)) {
      expect(resultOf(report, check.id).outcome).toBe('skip');
    }
    // An empty store leaves the limits nothing to judge: INCOMPLETE, and the checks left out
    // on purpose are not what makes it so.
    expect(report.verdict).toBe('incomplete');
    const byDefault = resultOf(report, 'listPets.status-default-limit');
    expect(byDefault.outcome).toBe('skip');
    expect(byDefault.message).toBe('no status has pets enough to show the limit at work');
    // Nothing created and nothing listed: getPet has no pet to fetch, and says so; the path
    // boundaries need none.
    expect(resultOf(report, 'getPet.path-boundaries').outcome).toBe('pass');
    expect(resultOf(report, 'getPet.returns-pet')).toMatchObject({
      outcome: 'skip',
      message: 'no pet to fetch: none created (read-only) and none listed',
    });
    const writing = new Set(CHECKS.filter((c) => c.writes).map((c) => c.id));
    expect(report.notRun.filter((n) => writing.has(n.id))).toEqual([]);
  });

  it.each([
    [[], 'status "available"'],
    [['omits-status'], 'status none'],
  ] as const)('says which status a server with %j gave a pet sent without one', async (choices, shown) => {
    const only = ['createPet.without-status'];
    const { report } = await runAgainst({ choices }, { only });
    const result = resultOf(report, 'createPet.without-status');
    expect(result).toMatchObject({ outcome: 'pass', message: `201; the server gave ${shown}` });
  });

  it.each([
    ['a server that asks for the key first', [], 'pass'],
    ['a server that looks the pet up first', ['looks-up-before-auth'], 'skip'],
  ] as const)('judges getPet without a key and with no pet to read on %s', async (_, choices, outcome) => {
    const { report } = await runAgainst({ choices }, { readOnly: true, only: ['auth'] });
    for (const id of ['auth.getPet.missing-header', 'auth.getPet.unknown-key']) {
      expect(resultOf(report, id).outcome, id).toBe(outcome);
    }
    if (outcome === 'skip') {
      expect(resultOf(report, 'auth.getPet.missing-header').message).toMatch(
        /answered 404: with no pet to read, a server may look the pet up before the key$/,
      );
    }
    expect(report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
  });

  it('judges existing data in read-only mode without failing a conforming server', async () => {
    const { report } = await runAgainst({ lenient: true }, { readOnly: true });
    expect(report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(resultOf(report, 'getPet.returns-pet').outcome).toBe('pass');
    expect(resultOf(report, 'listPets.limit-1').outcome).toBe('pass');
  });

  it('catches a faulty server in read-only mode from the data already there', async () => {
    const { report } = await runAgainst(
      { faults: ['list-ignores-limit'], choices: ['others-pets-descending'] },
      { readOnly: true },
    );
    expect(resultOf(report, 'listPets.limit-1').outcome).toBe('fail');
  });

  it('runs only the groups asked for', async () => {
    const { report, server } = await runAgainst({}, { only: ['auth', 'errors'] });
    expect(new Set(report.results.map((r) => r.group))).toEqual(new Set(['auth', 'errors']));
    expect(report.groups).toEqual(['auth', 'errors']);
    // The pets these checks create themselves, a dozen at most: no store filled to list.
    expect(server.created()).toBeLessThanOrEqual(12);
  });

  it('judges error answers on its own when only the errors group runs', async () => {
    const { report } = await runAgainst({ faults: ['get-404-as-html'] }, { only: ['errors'] });
    expect(resultOf(report, 'errors.json-body').outcome).toBe('fail');
  });

  it('retries 429 after Retry-After and counts it neither as a pass nor a failure', async () => {
    const { report } = await runAgainst({ rateLimitFirst: 5 });
    expect(report.requests.filter((r) => r.status === 429)).toHaveLength(5);
    expect(notPassed(report)).toEqual([]);
  });

  it('skips a check whose request stays rate-limited after the retries', async () => {
    // The getPet group sends that request: the other groups could not change what is judged.
    const { report } = await runAgainst(
      { alwaysRateLimit: (method, path) => method === 'GET' && path === '/pets/not-a-number' },
      { retry: { maxRetries: 2 }, only: ['getPet'] },
    );
    const result = resultOf(report, 'getPet.malformed-id-rejected');
    expect(result.outcome).toBe('skip');
    expect(result.message).toMatch(/429 after 2 retries/);
    expect(report.requests.filter((r) => r.status === 429)).toHaveLength(3);
    expect(report.ok).toBe(true);
  });

  it('waits out a 503 with Retry-After, as while a database is down a moment, and fails nothing', async () => {
    const { report } = await runAgainst({ unavailable: { first: 3 } });
    expect(report.requests.filter((r) => r.status === 503)).toHaveLength(3);
    expect(notPassed(report)).toEqual([]);
  });

  it("waits out a 503 without Retry-After too, as nginx's limit_req answers a burst", async () => {
    const { report } = await runAgainst(
      { unavailable: { first: 2, retryAfter: false } },
      { retry: { maxWaitMs: 0 } },
    );
    expect(report.requests.filter((r) => r.status === 503)).toHaveLength(2);
    expect(notPassed(report)).toEqual([]);
  });

  it('ends at once on a server that asks to come back later to every read', async () => {
    const run = runAgainst({ unavailable: { always: () => true } }, { retry: { maxRetries: 1 } });
    await expect(run).rejects.toThrow(
      /asks to come back later: GET \/pets\?limit=1 still answered 503 after 1 retries, and GET \/pets\/1 still answered 503 after 1 retries; run the kit once it serves again$/,
    );
    await expect(run).rejects.toBeInstanceOf(ConnectionError);
  });

  it('fails a request still answered 503 after every retry, and skips the check that sent it', async () => {
    const { report } = await runAgainst(
      {
        unavailable: {
          always: (method, path) => method === 'GET' && path === '/pets/not-a-number',
        },
      },
      { retry: { maxRetries: 2 }, only: ['getPet', 'errors'] },
    );
    const skipped = resultOf(report, 'getPet.malformed-id-rejected');
    expect(skipped).toMatchObject({ outcome: 'skip' });
    expect(skipped.message).toMatch(/503 after 2 retries/);
    expect(resultOf(report, 'errors.no-server-errors')).toMatchObject({
      outcome: 'fail',
      message: expect.stringMatching(/^GET \/pets\/not-a-number answered 503: a server error/),
    });
    expect(report.ok).toBe(false);
  });

  it('fails a check whose request gets no answer in time, and goes on', async () => {
    // The listPets group sends that request; the getPet group, run after it, shows the run go on.
    const { report } = await runAgainst(
      { hang: (method, path) => method === 'GET' && path === '/pets?limit=abc' },
      { timeoutMs: 10_000, only: ['listPets', 'getPet'] },
    );
    const result = resultOf(report, 'listPets.limit-out-of-range');
    expect(result.outcome).toBe('fail');
    expect(result.message).toMatch(
      /^GET \/pets\?limit=abc: no answer within 10000 ms\nreplay: curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=abc' -H "Authorization: Bearer \$ANIMAL_STORE_API_KEY"$/,
    );
    expect(resultOf(report, 'getPet.returns-pet').outcome).toBe('pass');
    expect(report.requests.find((r) => r.status === null)).toMatchObject({
      method: 'GET',
      path: '/pets?limit=abc',
    });
  });

  it('fails, not skips, a large body that gets no answer in time', async () => {
    // Only a closed connection is HTTP's way to refuse a body; silence is no answer at all.
    const { report } = await runAgainst(
      { hang: (method, _, bytes) => method === 'POST' && bytes > 1024 * 1024 },
      { timeoutMs: 5_000, only: ['createPet.large-body'] },
    );
    const result = resultOf(report, 'createPet.large-body');
    expect(result.outcome, result.message).toBe('fail');
    expect(result.message).toMatch(/^POST \/pets: no answer within 5000 ms\n/);
  });

  it('stops waiting on a server that no longer answers at all', async () => {
    let answered = 0;
    const { report } = await runAgainst({ hang: () => answered++ > 0 }, { timeoutMs: 2_000 });
    expect(report.requests.filter((r) => r.status === null)).toHaveLength(5);
    expect(report.summary.passed).toBe(0);
    expect(resultOf(report, 'listPets.limit-1').message).toMatch(
      /^(GET|POST) \/pets\S*: not sent: the last 5 requests got no answer\nreplay: curl .+$/,
    );
  });

  it('throws a ConnectionError with one clear line when nothing answers', async () => {
    const baseUrl = await closedBaseUrl();
    const run = runConformance({ baseUrl, apiKey: 'k' });
    await expect(run).rejects.toThrow(ConnectionError);
    await expect(run).rejects.toThrow(new RegExp(`^cannot reach ${baseUrl}: .*ECONNREFUSED`));
  });

  it('refuses options that cannot work', async () => {
    await expect(runConformance({ baseUrl: 'not a url', apiKey: 'k' })).rejects.toThrow(UsageError);
    await expect(runConformance({ baseUrl: 'ftp://x/v1', apiKey: 'k' })).rejects.toThrow(
      UsageError,
    );
    await expect(runConformance({ baseUrl: 'http://x/v1', apiKey: '' })).rejects.toThrow(
      UsageError,
    );
    for (const [options, message] of [
      [{ categoryIds: [] }, '--category-id needs at least one id'],
      [{ categoryIds: ['42x'] }, '--category-id "42x" is not an int64 integer'],
      [{ categoryIds: ['x42'] }, '--category-id "x42" is not an int64 integer'],
      [{ categoryIds: ['9223372036854775808'] }, 'is not an int64 integer'],
      [{ categoryIds: ['-9223372036854775809'] }, 'is not an int64 integer'],
      [{ namePrefix: 'x'.repeat(NAME_PREFIX_MAX + 1) }, '--name-prefix'],
      [{ nameShape: 'fancy' }, '--name-shape "fancy" is none of'],
      [{ settleMs: -1 }, 'settle-ms must be a whole number of 0 or more, not -1'],
      [{ seed: 1.5 }, 'seed must be a whole number of 0 or more, not 1.5'],
      [{ maxPets: CHECK_PETS_MAX - 1 }, `--max-pets must be at least ${CHECK_PETS_MAX}`],
      [{ maxPets: CHECK_PETS_MAX + 0.5 }, `--max-pets must be at least ${CHECK_PETS_MAX}`],
    ] as [Record<string, unknown>, string][]) {
      // As a caller without types would pass them (a name shape the kit does not have).
      const run = runConformance({
        baseUrl: 'http://x/v1',
        apiKey: 'k',
        ...options,
      } as ConformanceOptions);
      await expect(run, JSON.stringify(options)).rejects.toThrow(UsageError);
      await expect(run, JSON.stringify(options)).rejects.toThrow(message);
    }
  });

  it('takes options at their edges: the run goes on to reach the server', async () => {
    const baseUrl = await closedBaseUrl();
    for (const options of [
      { categoryIds: ['9223372036854775807', '-9223372036854775808', ' 7 ', 42] },
      { namePrefix: 'x'.repeat(NAME_PREFIX_MAX) },
      { nameShape: Object.keys(NAME_SHAPES)[0] as NameShape },
      { settleMs: 0, seed: 0 },
      { maxPets: CHECK_PETS_MAX },
    ]) {
      const run = runConformance({ baseUrl, apiKey: 'k', ...options });
      await expect(run, JSON.stringify(options)).rejects.toThrow(ConnectionError);
    }
  });

  it('reports progress: the start, what it creates, and every check', async () => {
    const { events } = await runTwiceOnOneStore();
    expect(events[0]?.type).toBe('start');
    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
    expect(notices.some((m) => /creating \d+ pets named cf[a-p]{8}<n>/.test(m))).toBe(true);
    expect(events.filter((e) => e.type === 'check')).toHaveLength(CHECKS.length);
  });
});

// Only the auth group sends a key outside Authorization: in the query, in other header fields.
describe('the key where servers log it', () => {
  it.each([
    ['key-in-query', 'auth-accepts-real-key-in-query', 'in the query'],
    ['key-in-header', 'auth-accepts-real-key-in-header', 'in other header fields'],
  ] as const)('%s: says the key itself was not sent there without --disposable-key, and passes', async (id, fault, where) => {
    const { report } = await runAgainst({ faults: [fault] }, { only: ['auth'] });
    for (const op of ['listPets', 'createPet', 'getPet']) {
      const result = resultOf(report, `auth.${op}.${id}`);
      expect(result.outcome).toBe('pass');
      expect(result.message).toContain(`with a look-alike key ${where} answered 401`);
      expect(result.message).toContain(
        `the valid key itself was not sent ${where}: it goes there only with --disposable-key`,
      );
    }
    expect(report.verdict).toBe('pass');
  });

  it('tries the key itself after a look-alike key the server took', async () => {
    const server = { faults: ['auth-accepts-key-in-query'] } as const;
    const { report } = await runAgainst(server, { disposableKey: true, only: ['auth'] });
    for (const op of ['listPets', 'createPet', 'getPet']) {
      const result = resultOf(report, `auth.${op}.key-in-query`);
      expect(result.outcome).toBe('fail');
      expect(result.message).toContain('with a look-alike key in the query answered 2');
      expect(result.message).toMatch(/ \(and 1 more\)$/m);
    }
  });

  it('passes the reference with --disposable-key, the key itself tried in both places', async () => {
    const { report } = await runAgainst({}, { disposableKey: true, only: ['auth'] });
    for (const [id, where] of [
      ['key-in-query', 'in the query'],
      ['key-in-header', 'in other header fields'],
    ]) {
      const result = resultOf(report, `auth.getPet.${id}`);
      expect(result.outcome).toBe('pass');
      expect(result.message).toContain(`with the valid key itself ${where} answered 401`);
    }
    expect(report.verdict).toBe('pass');
  });
});

describe('a store that already holds data', () => {
  it('creates at most MAX_CREATED pets a run, and a second run on the same store is complete too', async () => {
    const { first, second, created } = await runTwiceOnOneStore();
    for (const [round, report] of [first, second].entries()) {
      expect(report.created.count, `run ${round + 1}`).toBeLessThanOrEqual(MAX_CREATED);
      expect(report.verdict, `run ${round + 1}: ${notPassed(report).join('\n')}`).toBe('pass');
      expect(report.fullVerdict).toBeUndefined();
    }
    expect(created).toBeLessThanOrEqual(2 * MAX_CREATED);
  });

  it('names what gives a full verdict, and what the server lacks, when its pets are out of reach', async () => {
    const { report } = await runAgainst({ choices: ['preloaded-store', 'no-next-link'] });
    expect(report.verdict).toBe('incomplete');
    for (const way of [
      'an empty store before the run (this one held pets)',
      "lists in newest-first order (no list began with one of the run's pets)",
      'a Link rel="next" on a full page (RFC 8288), below the base URL (this server sent none)',
      '--fixtures with a pet set loaded into the server (none was given)',
    ]) {
      expect(report.fullVerdict).toContain(way);
    }
    expect(renderPretty(report)).toContain(`For a full verdict: ${report.fullVerdict}`);
    expect(renderMarkdown(report)).toContain('For a full verdict:');
  });

  it('names a next-page Link outside the base URL as the reason, not a missing one', async () => {
    // A front that serves the API under a path prefix, as a Link the API wrote for /v1 shows.
    const { report } = await runAgainst({ choices: ['preloaded-store', 'next-link-elsewhere'] });
    expect(report.verdict).toBe('incomplete');
    expect(report.fullVerdict).toMatch(
      /a Link rel="next" on a full page \(RFC 8288\), below the base URL \(this server's lies outside it, where the kit sends no key: http:\/\/localhost:1\/v1\/pets\?/,
    );
    const reasons = report.notRun.map((n) => n.reason).join('\n');
    expect(reasons).toMatch(
      /is a full page whose next-page Link, http:\/\/localhost:1\/v1\/pets\?\S+, lies outside the base URL, where the kit sends no key; pet \d+ may lie beyond it/,
    );
    expect(reasons).not.toMatch(/no next-page Link/);
  });
});
