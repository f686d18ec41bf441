import { METHODS } from 'node:http';
import { startProxy, TrafficJudge } from '@animal-store/conformance';
import { LIST_PETS_PARAMS, validatePet, validatePetList } from '@animal-store/contract';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type PetBody, parseErrorBody, startTestApi, TEST_KEY } from '../helpers/api.js';
import { exchange, parseResponses } from '../helpers/raw-http.js';

// Thousands of generated requests at a real server. Whatever arrives, the server answers below
// 500, every answer from 300 up is an Error body whose `status` is the HTTP status, and no pet
// exists that a 201 did not report. A failure prints fast-check's seed and the shrunk request.
// The same requests go again through the conformance kit's proxy: traffic the kit did not write,
// on which its judge, strict, finds nothing wrong with this API.

const api = await startTestApi({ rateLimit: { requests: 1_000_000, windowSeconds: 3600 } });
const host = new URL(api.origin).host;
const judge = new TrafficJudge({
  base: `${api.origin}/v1`,
  source: 'the fuzz requests through the proxy',
  strict: true,
});
const proxy = await startProxy({
  target: `${api.origin}/v1`,
  onExchange: (exchange) => void judge.add(exchange),
});
afterAll(() => proxy.close());

/**
 * What the proxy answers itself, to what it cannot forward (unreadable HTTP, a missing Host,
 * CONNECT): plain text that names it.
 */
const proxyOwn = (origin: string, answer: Answer) =>
  origin === proxy.origin &&
  [400, 431, 501].includes(answer.status) &&
  (answer.method === 'HEAD' || answer.text.startsWith('animal-store-conformance proxy:'));

/** Every pet a 201 reported, by id, as reported. */
const reported = new Map<number, PetBody>();

/** What every answer is checked for, however the request was sent. */
interface Answer {
  method: string;
  status: number;
  contentType: string | undefined;
  text: string;
}

type Expect = 'list' | 'pet' | 'any';

/**
 * Whether the head of `request` names a transfer coding other than `chunked` (`gzip, chunked`),
 * which the API answers `501` (RFC 9112 §6.1): the one 5xx a request can rightly get.
 */
function namesUnsupportedCoding(request: string): boolean {
  const head = request.split('\r\n\r\n', 1)[0] ?? '';
  return head
    .split('\r\n')
    .filter((line) => /^transfer-encoding:/i.test(line))
    .some((line) =>
      line
        .slice('transfer-encoding:'.length)
        .split(',')
        .some((coding) => coding.trim().toLowerCase() !== 'chunked'),
    );
}

function check(origin: string, answer: Answer, expecting: Expect, request: string): void {
  if (proxyOwn(origin, answer)) return;
  const where = `${JSON.stringify(request).slice(0, 300)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  const rightful501 = answer.status === 501 && namesUnsupportedCoding(request);
  if (answer.status >= 500 && !rightful501) throw new Error(`server error: ${where}`);
  if (answer.status >= 300 && answer.method !== 'HEAD') {
    try {
      parseErrorBody(answer.contentType, answer.text, answer.status);
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${where}`);
    }
  }
  if (answer.status === 201) {
    const pet = JSON.parse(answer.text) as PetBody;
    if (!validatePet(pet).ok || reported.has(pet.id)) throw new Error(`bad 201: ${where}`);
    reported.set(pet.id, pet);
  }
  if (answer.status === 200 && answer.method === 'GET' && expecting !== 'any') {
    const body = JSON.parse(answer.text) as unknown;
    const pets = (expecting === 'list' ? body : [body]) as PetBody[];
    if (!validatePetList(pets).ok) throw new Error(`not pets: ${where}`);
    for (const pet of pets) {
      expect(pet, `a pet no 201 reported: ${where}`).toEqual(reported.get(pet.id));
    }
  }
}

async function viaFetch(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  expecting: Expect,
): Promise<void> {
  const res = await fetch(`${origin}${path}`, { method, headers, body });
  const answer = {
    method,
    status: res.status,
    contentType: res.headers.get('content-type') ?? undefined,
    text: await res.text(),
  };
  check(origin, answer, expecting, `${method} ${path} ${JSON.stringify(headers)} ${String(body)}`);
}

/** Sends raw bytes on a fresh connection; every response that comes back is checked. */
async function viaSocket(
  origin: string,
  raw: Buffer,
  method: string,
  expecting: Expect,
): Promise<void> {
  const { data } = await exchange(origin, raw, { end: true, waitMs: 120_000 });
  const request = raw.toString('latin1');
  // Only a request that never started (blank lines) may go unanswered.
  if (data.length === 0 && /\S/.test(request)) {
    throw new Error(`no answer: ${JSON.stringify(request).slice(0, 300)}`);
  }
  for (const response of parseResponses(data, { head: method === 'HEAD' })) {
    const answer = {
      method,
      status: response.status,
      contentType: response.headers['content-type'],
      text: response.body,
    };
    check(origin, answer, expecting, request);
  }
}

// --- values -------------------------------------------------------------------------------

/** Percent-encodes any string's UTF-8 bytes (a lone surrogate becomes U+FFFD's) but unreserved. */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Code units that break naive string handling: lone surrogates, BOM, NUL, controls, RTL. */
const oddUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  fc.constantFrom('\uFEFF', '\u0000', '\u001F', '\u007F', '\u202E', '\u00A0', ' ', '\t', '"', '\\'),
);
const oddString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: oddUnit, maxLength: 30 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
  fc.constantFrom('', ' ', 'Rex', ' Rex', 'Rex ', 'x'.repeat(200), 'x'.repeat(201)),
);
const oddNumber = fc.oneof(
  fc.integer(),
  fc.integer({ min: 1, max: 10 }),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, 2 ** 53 - 1, 2 ** 53, 2 ** 64, -0, 1e308),
);
const oddValue = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 3, arbitrary: oddNumber },
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
const status = fc.oneof(
  fc.constantFrom('available', 'pending', 'sold'),
  fc.constantFrom('AVAILABLE', 'Sold', 'unknown', ''),
  oddValue,
);

/** Objects around a NewPet: fields present or not, right or wrong, plus unexpected ones. */
const nearPet = fc
  .record(
    {
      name: fc.oneof({ weight: 3, arbitrary: oddString }, oddValue),
      categoryId: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }) }, oddValue),
      status,
      extra: fc.dictionary(
        fc.oneof(fc.constantFrom('id', '__proto__', 'constructor'), oddString),
        oddValue,
        {
          maxKeys: 2,
        },
      ),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...fields }) => ({ ...(extra ?? {}), ...fields }));

/** NewPets the API should take, with names from anywhere in Unicode (lone surrogates too). */
const validPet = fc.record(
  {
    name: fc.string({ unit: oddUnit, minLength: 1, maxLength: 30 }),
    categoryId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    status: fc.constantFrom('available', 'pending', 'sold'),
  },
  { requiredKeys: ['name', 'categoryId'] },
);

/** JSON text with the edges the parser and validator meet: BOM, whitespace, huge literals. */
const jsonText = fc
  .tuple(
    fc.oneof(validPet, nearPet),
    fc.constantFrom('plain', 'bom', 'spaced', 'huge-number', 'huge-id', 'duplicate-key'),
  )
  .map(([value, variant]) => {
    const text = JSON.stringify(value);
    switch (variant) {
      case 'bom':
        return `\uFEFF${text}`;
      case 'spaced':
        return `\r\n\t ${text} \n`;
      case 'huge-number':
        return text.replace(/^\{/, '{"categoryId":123456789012345678901234567890e300,');
      case 'huge-id':
        return text.replace(/^\{/, '{"categoryId":9007199254740993,');
      case 'duplicate-key':
        return text.replace(/^\{/, '{"name":"First","name":"Second",');
      default:
        return text;
    }
  });

/** Deeply nested arrays or objects, up to the body limit and beyond. */
const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":'), fc.boolean())
  .map(([depth, open, closed]) => {
    const close = open === '[' ? ']' : '}';
    return `${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}`;
  });

const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json;charset=UTF-8',
    'application/json; charset=latin1',
    'application/json; charset="utf-8"',
    'application/json; charset=',
    'application/json;;',
    'application/problem+json',
    'application/merge-patch+json',
    'text/json',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    '*/*',
    'json',
    ';',
    '',
  ),
);

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant(`Bearer ${TEST_KEY}`) },
  fc
    .constantFrom('bearer', 'BEARER', 'BeArEr', 'Basic', 'Token', '')
    .map((s) => `${s} ${TEST_KEY}`),
  fc.constantFrom(
    `Bearer  ${TEST_KEY}`,
    `Bearer ${TEST_KEY} `,
    `Bearer ${TEST_KEY}=`,
    `Bearer ${TEST_KEY.toUpperCase()}`,
    'Bearer',
    'Bearer ',
    TEST_KEY,
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((s) => `Bearer ${s}`),
);

/** One query-string piece: a name, maybe `=value`, from names the API knows and odd ones. */
const queryPair = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...LIST_PETS_PARAMS, 'LIMIT', 'Limit', 'limit[]', 'limit[0]', ''),
      fc.constantFrom('%6C%69%6D%69%74', 'st%61tus', '%', '%zz', '%E0%A4%A', '%ED%A0%80', 'a+b'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }).map(percentEncode),
    ),
    fc.option(
      fc.oneof(
        fc.integer({ min: -5, max: 150 }).map(String),
        fc.constantFrom('available', 'pending', 'sold', 'Sold', '', ' 1', '1 ', '+1', '0x10'),
        fc.constantFrom('1e2', '1.0', '９', '00001', '9007199254740993', '-0', '%31', '%', '%%'),
        fc.constant('x'.repeat(9000)),
        fc.string({ unit: oddUnit, maxLength: 6 }).map(percentEncode),
      ),
      { nil: undefined },
    ),
  )
  .map(([name, value]) => (value === undefined ? name : `${name}=${value}`));

const query = fc
  .tuple(fc.array(queryPair, { maxLength: 6 }), fc.constantFrom('&', '&&', ';'))
  .map(([pairs, separator]) => pairs.join(separator));

const petIdSegment = fc.oneof(
  fc.integer({ min: -10, max: 1000 }).map(String),
  fc.constantFrom('0', '00', '1.0', '1e3', '9007199254740991', '9007199254740992', '+1', '0x1'),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%ED%A0%80', '%FF', '%00', '%2F', '..', '%2e%2e', 'ａ'),
  fc.string({ unit: oddUnit, minLength: 1, maxLength: 10 }).map(percentEncode),
);

// --- properties ---------------------------------------------------------------------------

// The test command makes a quick pass: every property, on a few hundred inputs in all.
// FUZZ_SCALE=N tries N times as many (locally, to search further than the test command does).
const scale = Number(process.env.FUZZ_SCALE ?? 1);

/** Bounded in count and in time: on a slow machine a property stops early rather than hang. */
const runs = (numRuns: number) => ({
  numRuns: numRuns * scale,
  interruptAfterTimeLimit: 15_000 * scale,
});

const json = (type = 'application/json') => ({
  Authorization: `Bearer ${TEST_KEY}`,
  'Content-Type': type,
});

const ways = [
  { way: 'straight', origin: api.origin },
  { way: "through the kit's proxy", origin: proxy.origin },
];

describe.each(ways)('fuzzing a real server, $way', ({ origin }) => {
  it('answers POST bodies built around a NewPet', async () => {
    await fc.assert(
      fc.asyncProperty(jsonText, contentType, async (text, type) => {
        await viaFetch(origin, 'POST', '/v1/pets', json(type), text, 'any');
      }),
      runs(150),
    );
  });

  it('answers arbitrary and deeply nested JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json({ depthSize: 'large' }), deepJson), async (text) => {
        await viaFetch(origin, 'POST', '/v1/pets', json(), text, 'any');
      }),
      runs(75),
    );
  });

  it('answers raw byte bodies of any content type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), contentType, async (bytes, type) => {
        await viaFetch(origin, 'POST', '/v1/pets', json(type), bytes, 'any');
      }),
      runs(75),
    );
  });

  it('answers listPets with odd, repeated and malformed query parameters', async () => {
    const path = fc.constantFrom('/v1/pets', '/v1/pets/', '/v1//pets', '/v1/PETS', '/v1/pets%2F');
    await fc.assert(
      fc.asyncProperty(path, query, authorization, async (route, q, auth) => {
        const expecting = route === '/v1/pets' ? 'list' : 'any';
        await viaFetch(
          origin,
          'GET',
          `${route}?${q}`,
          { Authorization: auth },
          undefined,
          expecting,
        );
      }),
      runs(125),
    );
  });

  it('answers getPet with odd path segments', async () => {
    await fc.assert(
      fc.asyncProperty(petIdSegment, authorization, async (segment, auth) => {
        await viaFetch(
          origin,
          'GET',
          `/v1/pets/${segment}`,
          { Authorization: auth },
          undefined,
          'pet',
        );
      }),
      runs(75),
    );
  });

  it('answers raw requests with odd, duplicate, missing and huge headers', async () => {
    // Every method Node parses, the served ones more often.
    const method = fc.oneof(fc.constantFrom('GET', 'POST', 'HEAD'), fc.constantFrom(...METHODS));
    const target = fc.constantFrom(
      '/v1/pets',
      '/v1/pets?limit=2',
      '/v1/pets/1',
      '/v1/nowhere',
      '/healthz',
      '*',
    );
    const headerLine = fc.oneof(
      authorization.map((value) => `Authorization: ${value}`),
      contentType.map((value) => `Content-Type: ${value}`),
      fc.constantFrom(
        `Host: ${host}`,
        'Host:',
        'Content-Length: 5',
        'Content-Length: abc',
        'Content-Length: -1',
        'Transfer-Encoding: chunked',
        'Transfer-Encoding: gzip',
        'Expect: 100-continue',
        'Expect: the-unexpected',
        'Connection: keep-alive',
        'Connection: upgrade',
        'Upgrade: websocket',
        'X-Request-Id: a b"<script>',
        'authorization: bearer test-key-0123456789',
        'CONTENT-TYPE: application/json',
        ' Folded: header',
        'Bad Name: x',
        'X-Nul: a\u0000b',
        'Content-Encoding: gzip',
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((value) => `X-Odd: ${value}`),
      fc.integer({ min: 100, max: 20_000 }).map((size) => `X-Long: ${'v'.repeat(size)}`),
    );
    const request = fc.record({
      method,
      target,
      version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'),
      host: fc.constantFrom('one', 'one', 'none', 'two'),
      headers: fc.array(headerLine, { maxLength: 8 }),
      body: fc.option(jsonText, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const hosts = { one: [`Host: ${host}`], none: [], two: [`Host: ${host}`, 'Host: other'] };
        const bodyLines =
          r.body === undefined ? [] : [`Content-Length: ${Buffer.byteLength(r.body)}`];
        const head = [`${r.method} ${r.target} ${r.version}`, ...hosts[r.host], ...r.headers];
        const raw = `${[...head, ...bodyLines].join('\r\n')}\r\n\r\n${r.body ?? ''}`;
        await viaSocket(origin, Buffer.from(raw), r.method, 'any');
      }),
      runs(75),
    );
  });

  it('answers malformed HTTP', async () => {
    const valid = `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 31\r\n\r\n{"name":"Mutant","categoryId":1}`;
    const mutated = fc
      .tuple(
        fc.integer({ min: 0, max: valid.length }),
        fc.integer({ min: 0, max: 5 }),
        fc.string({ unit: 'binary-ascii', maxLength: 5 }),
      )
      .map(([at, removed, inserted]) => valid.slice(0, at) + inserted + valid.slice(at + removed));
    const bytes = fc.oneof(
      mutated.map((text) => Buffer.from(text, 'latin1')),
      fc.uint8Array({ minLength: 1, maxLength: 512 }).map((array) => Buffer.from(array)),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (raw) => {
        await viaSocket(
          origin,
          raw,
          raw.toString('latin1').startsWith('HEAD') ? 'HEAD' : 'GET',
          'any',
        );
      }),
      runs(50),
    );
  });
});

describe('after the fuzz requests', () => {
  it('lists exactly the pets that 201s reported, as reported', async () => {
    const listed: PetBody[] = [];
    let next: string | undefined = '/v1/pets?limit=100';
    while (next) {
      const res = await fetch(`${api.origin}${next}`, { headers: json() });
      expect(res.status).toBe(200);
      listed.push(...((await res.json()) as PetBody[]));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    expect(reported.size).toBeGreaterThan(0);
    expect(listed.map((pet) => pet.id)).toEqual([...reported.keys()].sort((a, b) => a - b));
    for (const pet of listed) expect(pet).toEqual(reported.get(pet.id));
  });

  it("leaves the kit's traffic judge, strict, nothing to fault in the answers", async () => {
    await proxy.close();
    const report = await judge.report();
    expect(report.traffic?.judged).toBeGreaterThan(0);
    const faults = report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'advisory');
    expect(faults.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});
