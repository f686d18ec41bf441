// The traffic judge on traffic no test wrote by hand: any method, path, query, header, body and
// status a client and a server may exchange. Whatever it is shown, the judge reports on it, and
// never throws: `proxy` judges what clients send through it, and one exchange it cannot read
// must not end it.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { judgeTraffic } from '../src/index.js';
import type { HeaderLine, RecordedExchange } from '../src/traffic/exchange.js';
import { TrafficJudge } from '../src/traffic/judge.js';
import { TRAFFIC_RULES } from '../src/traffic/rules.js';
import { GROUPS } from '../src/types.js';
import { recordedExchange } from './support/recorded-exchange.js';
import { resultOf } from './support/run-kit.js';

const ORIGIN = 'http://127.0.0.1:3000';
const BASE = `${ORIGIN}/v1`;
/** A recorded body: `value` as JSON text, in bytes. */
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** Text built from the characters that URLs, JSON and header values make the most of. */
const oddText = (maxLength: number) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom('%', '%zz', '%E0', '%31', '%2F', '/', '?', '&', '=', '#', '+', ' '),
        fc.constantFrom('limit', 'status', 'sold', 'after', 'api_key', '0', '1', '-', '.', 'e'),
        fc.string({ maxLength: 3, unit: 'grapheme' }),
        fc.constantFrom('\uD800', '\uFFFD', '\u0000', 'é', 'e\u0301', '🐈'),
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));

const url = fc.oneof(
  fc.constantFrom(`${BASE}/pets`, `${BASE}/pets/1`, `${BASE}/pets/`, `${BASE}//pets`),
  oddText(6).map((segment) => `${BASE}/pets/${segment}`),
  oddText(8).map((query) => `${BASE}/pets?${query}`),
  oddText(6).map((path) => `${ORIGIN}/${path}`),
  // What the proxy records of request targets in absolute form and of `*` (`askedUrl`).
  fc.constantFrom('http://elsewhere.example/v1/pets', `${ORIGIN}http://x/v1/pets`, '*'),
);

const headerLine: fc.Arbitrary<HeaderLine> = fc.tuple(
  fc.constantFrom(
    'Authorization',
    'Content-Type',
    'Content-Length',
    'Content-Encoding',
    'Idempotency-Key',
    'Link',
    'Deprecation',
    'Sunset',
    'Location',
    'X-Request-Id',
    ':authority',
  ),
  fc.oneof(
    fc.constantFrom('Bearer key-0123456789', 'application/json', 'application/json; charset=utf-8'),
    fc.constantFrom('0', '12', '<http://127.0.0.1:3000/v1/pets?after=1>; rel="next"', '@1'),
    oddText(6),
  ),
);

/** A Pet, nearly one, or anything a JSON body may hold. */
const petLike = fc.record(
  {
    id: fc.oneof(fc.integer(), fc.constant('1'), fc.constant(2 ** 63), fc.constant(-0)),
    name: fc.oneof(fc.string(), fc.constant('Rex\uD800'), fc.integer()),
    categoryId: fc.oneof(fc.integer(), fc.double(), fc.constant(null)),
    status: fc.oneof(fc.constantFrom('available', 'pending', 'sold', 'lost'), fc.integer()),
  },
  { requiredKeys: [] },
);
const jsonText = fc.oneof(
  petLike.map((pet) => JSON.stringify(pet)),
  fc.array(petLike, { maxLength: 4 }).map((pets) => JSON.stringify(pets)),
  fc.json(),
  oddText(10),
  fc.constant('{"name":"Rex","name":7,"categoryId":1}'),
  fc.constant(' \t\r\n'),
);
const body = fc.oneof(
  jsonText.map((text) => new TextEncoder().encode(text)),
  fc.uint8Array({ maxLength: 16 }),
);

const exchange: fc.Arbitrary<RecordedExchange> = fc.record(
  {
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'get'),
    url,
    requestHeaders: fc.array(headerLine, { maxLength: 4 }),
    requestBody: jsonText,
    requestBodyWhole: fc.boolean(),
    status: fc.constantFrom(0, 200, 201, 204, 301, 400, 401, 404, 405, 413, 415, 422, 429, 500),
    responseHeaders: fc.array(headerLine, { maxLength: 4 }),
    responseBody: body,
    fromCache: fc.boolean(),
    sentAt: fc.nat({ max: 1000 }),
    receivedAt: fc.nat({ max: 1000 }),
  },
  {
    requiredKeys: [
      'method',
      'url',
      'requestHeaders',
      'status',
      'responseHeaders',
      'sentAt',
      'receivedAt',
    ],
  },
);

describe('the traffic judge on any traffic', () => {
  it('reports on every exchange it is given, and never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchange, { minLength: 1, maxLength: 8 }), async (recorded) => {
        const { report } = await judgeTraffic(recorded, { base: BASE, source: 'generated' });
        expect(report.traffic?.exchanges).toBe(recorded.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a rule that throws on an exchange', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('fails as a check the kit could not complete, and every other rule judges on', async () => {
    const [broken] = TRAFFIC_RULES;
    if (broken === undefined) throw new Error('the kit has no traffic rules');
    vi.spyOn(broken, 'judge').mockRejectedValue(new Error('boom'));
    const list = recordedExchange({ url: `${BASE}/pets` });
    const { report } = await judgeTraffic([list, list], { base: BASE, source: 'generated' });
    const result = report.results.find((r) => r.id === broken.id);
    expect(result?.outcome).toBe(broken.level === 'must' ? 'fail' : 'advisory');
    expect(result?.message).toContain('the kit could not judge this exchange: Error: boom');
    expect(result?.message).toContain('(and 1 more)');
    expect(report.traffic?.judged).toBe(2);
    const others = report.results.filter((r) => r.id !== broken.id);
    expect(others.some((r) => r.outcome === 'pass')).toBe(true);
  });
});

describe('an exchange the kit fails to judge', () => {
  it('holds up no exchange after it, and the report names it instead of leaving it out', async () => {
    const heard: string[] = [];
    const judge = new TrafficJudge({
      base: BASE,
      source: 'generated',
      onViolation: (violation) => {
        heard.push(violation.id);
        if (heard.length === 1) throw new Error('stderr is gone');
      },
    });
    // A list answered with a bare object breaks a rule; the key in its URL is a secret.
    const broken = (key: string) =>
      recordedExchange({
        url: `${BASE}/pets?api_key=${key}`,
        responseBody: json({}),
      });
    await expect(judge.add(broken('first-secret-0123'))).resolves.toBeUndefined();
    await expect(judge.add(broken('second-secret-0123'))).resolves.toBeUndefined();
    expect(heard.length).toBeGreaterThan(1);
    expect(judge.judged).toBe(2);
    const failure = judge.report();
    await expect(failure).rejects.toMatchObject({ name: 'ConformanceError', exitCode: 2 });
    const { message } = (await failure.catch((error: Error) => error)) as Error;
    expect(message).toContain(`the kit could not judge GET ${BASE}/pets?api_key=`);
    expect(message).toContain('Error: stderr is gone');
    expect(message).not.toContain('first-secret-0123');
  });
});

describe('a traffic judge given only its base and source, as the proxy makes it', () => {
  const judged = async (recorded: RecordedExchange[], strict?: boolean) => {
    const judge = new TrafficJudge({ base: BASE, source: 'test', ...(strict ? { strict } : {}) });
    for (const exchange of recorded) await judge.add(exchange);
    return judge.report();
  };

  it('holds a request without Authorization to 401: keys are taken as recorded', async () => {
    const report = await judged([recordedExchange({ url: `${BASE}/pets`, requestHeaders: [] })]);
    expect(report.traffic?.keysRecorded).toBe(true);
    expect(resultOf(report, 'auth.listPets.missing-header').outcome).toBe('fail');
  });

  it('reports a should rule broken as advisory, and as a failure only when strict', async () => {
    const deprecatedList = recordedExchange({
      url: `${BASE}/pets`,
      responseHeaders: [
        ['Content-Type', 'application/json'],
        ['Deprecation', '@1767225600'],
      ],
    });
    const lenient = await judged([deprecatedList]);
    expect(resultOf(lenient, 'getPet.deprecation-only-on-get-pet').outcome).toBe('advisory');
    expect(lenient.verdict).toBe('pass');
    const strict = await judged([deprecatedList], true);
    expect(resultOf(strict, 'getPet.deprecation-only-on-get-pet').outcome).toBe('fail');
    expect(strict.verdict).toBe('fail');
  });

  it('hides a key however the white space around it is recorded', async () => {
    const keys = ['spaced-key-0123456789', 'trailing-key-0123456789'];
    const failing = (authorization: string) =>
      recordedExchange({
        url: `${BASE}/pets`,
        requestHeaders: [['Authorization', authorization]],
        status: 500,
        responseBody: json({
          code: 'internal_error',
          message: `broke on ${keys.join(' ')}`,
          status: 500,
        }),
      });
    const report = await judged([failing(`Bearer   ${keys[0]}`), failing(`Basic ${keys[1]} `)]);
    const text = JSON.stringify(report);
    expect(text).toContain('broke on [redacted key] [redacted key]');
    for (const key of keys) expect(text).not.toContain(key);
  });

  it("names its run, lists only its results' groups, and says what no exchange exercised", async () => {
    const report = await judged([recordedExchange({ url: `${BASE}/pets` })]);
    expect(report.runId).toBe('traffic');
    expect(report.groups).toEqual(GROUPS.filter((g) => report.results.some((r) => r.group === g)));
    expect(resultOf(report, 'getPet.deprecation-headers')).toMatchObject({
      outcome: 'skip',
      message: 'not exercised: the traffic holds no getPet answer that found its pet (200)',
    });
  });
});

describe('which answers the traffic rules speak of', () => {
  const rex = { id: 5, name: 'Rex', categoryId: 1, status: 'available' };
  const resultFor = async (recorded: RecordedExchange[], id: string) => {
    const { report } = await judgeTraffic(recorded, { base: BASE, source: 'test' });
    return resultOf(report, id);
  };
  const outcomeOf = async (recorded: RecordedExchange[], id: string) =>
    (await resultFor(recorded, id)).outcome;
  const createdWith = (status: number, body: unknown) =>
    recordedExchange({
      method: 'POST',
      url: `${BASE}/pets`,
      requestHeaders: [
        ['Authorization', 'Bearer key-0123456789'],
        ['Content-Type', 'application/json'],
      ],
      requestBody: '{"name":"Rex","categoryId":1}',
      status,
      responseBody: json(body),
    });
  const getPet = (status: number, body: unknown, headers: [string, string][] = []) =>
    recordedExchange({
      url: `${BASE}/pets/5`,
      status,
      responseHeaders: [['Content-Type', 'application/json'], ...headers],
      responseBody: json(body),
    });
  const notFound = { code: 'not_found', message: 'no pet with id 5', status: 404 };

  it('takes a createPet answered 200, as frameworks answer by default, as a creation', async () => {
    // Sent after the create was answered: held to what it created.
    const renamed = { ...getPet(200, { ...rex, name: 'Max' }), sentAt: 2_000, receivedAt: 2_010 };
    expect(await outcomeOf([createdWith(200, rex), renamed], 'errors.same-pet')).toBe('advisory');
    const altered = createdWith(200, { ...rex, name: 'Max' });
    expect(await outcomeOf([altered], 'errors.created-pets-agree')).toBe('fail');
    const badId = createdWith(200, { ...rex, id: '5' });
    expect(await outcomeOf([badId], 'errors.pet-fields')).toBe('fail');
  });

  it("holds getPet's 200 answers to the deprecation headers, as the run does, and no other answer", async () => {
    const { outcome, message } = await resultFor([getPet(200, rex)], 'getPet.deprecation-headers');
    expect(outcome).toBe('advisory');
    expect(message.split('\n')[0]).toBe('GET /pets/5 answered without Deprecation or Sunset');
    const refused = getPet(401, { code: 'unauthorized', message: 'invalid API key', status: 401 });
    const list = recordedExchange({ url: `${BASE}/pets` });
    // A server may announce the deprecation on its pets alone (the gap deprecation-only-on-found).
    for (const answer of [getPet(404, notFound), refused, list]) {
      expect(await outcomeOf([answer], 'getPet.deprecation-headers')).toBe('skip');
    }
  });
});
