// How the kit reads a HAR file into exchanges: what each field becomes, what a recorder may leave
// out, and the clear error a file that is no HAR gets (recorders differ; none may crash the judge).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHar, readHar } from '../src/index.js';
import { UsageError } from '../src/run.js';
import { scratch } from './support/traffic.js';

const files = scratch();
afterAll(() => files.remove());

const URL_ = 'http://127.0.0.1:9/v1/pets';

/** A HAR document of `entries`, as text. */
const harOf = (...entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });
/** The same, as the recorder `name` writes it. */
const harBy = (name: string, ...entries: unknown[]) =>
  JSON.stringify({ log: { version: '1.2', creator: { name, version: '1' }, entries } });

/** An entry with `request` and `response` fields over a GET with a 200 and no headers. */
function entry(fields: Record<string, unknown> = {}, request = {}, response = {}) {
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 5,
    request: { method: 'GET', url: URL_, headers: [], ...request },
    response: { status: 200, headers: [], content: { size: 2, text: '[]' }, ...response },
    ...fields,
  };
}

const only = (...entries: unknown[]) => {
  const exchanges = parseHar(harOf(...entries));
  expect(exchanges).toHaveLength(entries.length);
  return exchanges[0];
};

describe('reading a HAR entry', () => {
  it('keeps its method (in upper case), URL, status, headers and times', () => {
    const got = only(
      entry(
        { startedDateTime: '2026-01-01T00:00:01.000Z', time: 7.5 },
        { method: 'post', headers: [{ name: 'Authorization', value: 'Bearer k' }] },
        { status: 201, headers: [{ name: 'Content-Type', value: 'application/json' }] },
      ),
    );
    expect(got).toMatchObject({
      method: 'POST',
      url: URL_,
      status: 201,
      requestHeaders: [['Authorization', 'Bearer k']],
      responseHeaders: [['Content-Type', 'application/json']],
      sentAt: Date.parse('2026-01-01T00:00:01.000Z'),
      receivedAt: Date.parse('2026-01-01T00:00:01.000Z') + 7.5,
    });
    expect(got?.fromCache).toBeUndefined();
  });

  it('skips header lines without a string name and value, and headers that are no list', () => {
    const got = only(
      entry(
        {},
        {
          headers: [
            null,
            { name: 'X-A', value: 1 },
            { name: 2, value: 'b' },
            { value: 'c' },
            { name: 'X-D' },
            { name: 'X-E', value: 'e' },
          ],
        },
        { headers: { 'Content-Type': 'application/json' } },
      ),
    );
    expect(got?.requestHeaders).toEqual([['X-E', 'e']]);
    expect(got?.responseHeaders).toEqual([]);
  });

  it('reads an entry without an answer, a start time or a duration as unanswered at time 0', () => {
    const got = only({ request: { method: 'GET', url: URL_ } });
    expect(got).toMatchObject({
      status: 0,
      sentAt: 0,
      receivedAt: 0,
      requestHeaders: [],
      responseHeaders: [],
    });
    expect(got?.responseBody).toBeUndefined();
    expect(got).not.toHaveProperty('requestBody');
  });

  it('takes a start time that is no date as 0, and a duration that is no positive number as 0', () => {
    for (const [fields, sentAt, receivedAt] of [
      [{ startedDateTime: 'yesterday', time: 3 }, 0, 3],
      [{ startedDateTime: 17, time: 3 }, 0, 3],
      [{ startedDateTime: ['2026-01-01T00:00:00.000Z'], time: 3 }, 0, 3],
      [
        { time: -1 },
        Date.parse('2026-01-01T00:00:00.000Z'),
        Date.parse('2026-01-01T00:00:00.000Z'),
      ],
      [{ time: 0 }, Date.parse('2026-01-01T00:00:00.000Z'), Date.parse('2026-01-01T00:00:00.000Z')],
      [
        { time: '9' },
        Date.parse('2026-01-01T00:00:00.000Z'),
        Date.parse('2026-01-01T00:00:00.000Z'),
      ],
    ] as const) {
      expect(only(entry(fields)), JSON.stringify(fields)).toMatchObject({ sentAt, receivedAt });
    }
  });

  it('takes a status that is no number as no answer', () => {
    expect(only(entry({}, {}, { status: '200' }))?.status).toBe(0);
  });

  it('marks an answer a service worker gave the page as one from the browser', () => {
    expect(only(entry({}, {}, { _fetchedViaServiceWorker: true }))?.fromCache).toBe(true);
    expect(only(entry({}, {}, { _fetchedViaServiceWorker: false }))).not.toHaveProperty(
      'fromCache',
    );
  });

  it("marks an answer chrome-har's DevTools marks say came from a cache or a service worker", () => {
    for (const mark of ['fromDiskCache', 'fromPrefetchCache', 'fromServiceWorker']) {
      expect(only(entry({}, {}, { [mark]: true }))?.fromCache, mark).toBe(true);
      expect(only(entry({}, {}, { [mark]: false })), mark).not.toHaveProperty('fromCache');
    }
    // An answer a page took from a 103's hints came from the server all the same: chrome-har
    // marks it fromDiskCache too.
    const hinted = { fromDiskCache: true, fromEarlyHints: true };
    expect(only(entry({}, {}, hinted))).not.toHaveProperty('fromCache');
    // chrome-har marks a memory cache's answer only with HAR's cache.beforeRequest.
    const cached = entry({ cache: { beforeRequest: { hitCount: 0 } } });
    expect(parseHar(harBy('chrome-har', cached))[0]?.fromCache).toBe(true);
    expect(parseHar(harBy('chrome-har', entry({ cache: {} })))[0]).not.toHaveProperty('fromCache');
    expect(
      parseHar(harBy('chrome-har', entry({ cache: { beforeRequest: null } })))[0],
    ).not.toHaveProperty('fromCache');
    expect(
      parseHar(harBy('chrome-har', entry({ cache: { beforeRequest: {} } }, {}, hinted)))[0],
    ).not.toHaveProperty('fromCache');
    // Other recorders fill cache.beforeRequest for answers of the server's.
    expect(parseHar(harBy('WebInspector', cached))[0]).not.toHaveProperty('fromCache');
  });

  it("marks an answer WebKit took from a cache or a service worker, and a Playwright test's mock", () => {
    for (const local of ['Memory Cache', 'Disk Cache', 'Service Worker']) {
      expect(only(entry({ _fetchType: local }))?.fromCache, local).toBe(true);
    }
    expect(only(entry({ _fetchType: 'Network Load' }))).not.toHaveProperty('fromCache');
    expect(only(entry({ _wasFulfilled: true }))?.fromCache).toBe(true);
    expect(only(entry({ _wasFulfilled: false }))).not.toHaveProperty('fromCache');
  });

  it("marks a page's answer with no server's address in a Playwright recording where a service worker sent requests", () => {
    const worker = entry({
      _serviceWorkerRef: 'sw@1',
      _serverPort: 9,
      serverIPAddress: '127.0.0.1',
    });
    const addressed = entry({ _frameref: 'frame@1', serverIPAddress: '127.0.0.1', _serverPort: 9 });
    const page = entry({ _frameref: 'frame@1' });
    const [, , pageSide] = parseHar(harOf(worker, addressed, page));
    expect(pageSide?.fromCache).toBe(true);
    // The worker's own request reached the server; so did a page's with an address.
    const [workerSide, pageWithAddress] = parseHar(harOf(worker, addressed));
    expect(workerSide).not.toHaveProperty('fromCache');
    expect(pageWithAddress).not.toHaveProperty('fromCache');
    // A test's own request (page.request) carries no address, nor does any entry recorded in
    // Playwright's minimal mode: neither is a worker's answer.
    const apiRequest = entry({ _apiRequest: {} });
    expect(parseHar(harOf(worker, addressed, apiRequest))[2]).not.toHaveProperty('fromCache');
    const apiRequestRef = entry({ _apiRequestRef: 'request@1' });
    expect(parseHar(harOf(worker, addressed, apiRequestRef))[2]).not.toHaveProperty('fromCache');
    // Either of Playwright's address fields names the server; an empty address names none.
    for (const [fields, marked] of [
      [{ _serverPort: 9 }, false],
      [{ serverIPAddress: '127.0.0.1' }, false],
      [{ serverIPAddress: '' }, true],
    ] as const) {
      const pageEntry = entry({ _frameref: 'frame@1', ...fields });
      expect(
        parseHar(harOf(worker, addressed, pageEntry))[2]?.fromCache === true,
        `${JSON.stringify(fields)}`,
      ).toBe(marked);
    }
    expect(parseHar(harOf(worker, page))[1]).not.toHaveProperty('fromCache');
    // Without a worker, a page's entry without an address is the server's answer.
    expect(only(page)).not.toHaveProperty('fromCache');
  });

  it("marks a repeat of an earlier answer to the same URL, Date and all, as the browser cache's", () => {
    const date = { name: 'Date', value: 'Mon, 07 Dec 2026 15:40:47 GMT' };
    const stored = [
      { name: 'Cache-Control', value: 'private, max-age=60' },
      { name: 'Content-Type', value: 'application/json' },
      date,
    ];
    const keyed = { headers: [{ name: 'Authorization', value: 'Bearer k' }] };
    const first = entry({}, keyed, {
      headers: [...stored, { name: 'Connection', value: 'keep-alive' }],
    });
    // The cache gives the stored lines in its own order, without the connection's.
    const again = (headers: unknown[], request = {}, content = { size: 2, text: '[]' }) =>
      entry({ startedDateTime: '2026-01-01T00:00:01.000Z' }, request, { headers, content });
    const repeat = (...args: Parameters<typeof again>) =>
      parseHar(harBy('Playwright', first, again(...args)))[1]?.fromCache;
    expect(repeat([...stored].reverse())).toBe(true);
    expect(parseHar(harBy('Firefox', first, again(stored)))[1]?.fromCache).toBe(true);
    // Chrome and WebKit mark their cache's answers: an unmarked entry of theirs is the server's.
    expect(parseHar(harBy('WebInspector', first, again(stored)))[1]).not.toHaveProperty(
      'fromCache',
    );
    // To another key, only an answer the cache holds fresh: without Cache-Control, or with
    // no-cache, a keyless repeat is the server's own (a broken server may give it in one second).
    const plain = [{ name: 'Content-Type', value: 'application/json' }, date];
    const keyedPlain = entry({}, keyed, { headers: plain });
    expect(parseHar(harBy('Playwright', keyedPlain, again(plain)))[1]?.fromCache).toBeUndefined();
    expect(parseHar(harBy('Playwright', keyedPlain, again(plain, keyed)))[1]?.fromCache).toBe(true);
    const noCache = [{ name: 'Cache-Control', value: 'private, no-cache' }, date];
    const keyedNoCache = entry({}, keyed, { headers: noCache });
    expect(
      parseHar(harBy('Playwright', keyedNoCache, again(noCache)))[1]?.fromCache,
    ).toBeUndefined();
    // Another Date, another line, another body: the server's own answer.
    expect(
      repeat([stored[0], stored[1], { ...date, value: 'Mon, 07 Dec 2026 15:40:48 GMT' }]),
    ).toBeUndefined();
    expect(repeat([...stored, { name: 'ETag', value: '"2"' }])).toBeUndefined();
    expect(repeat(stored, {}, { size: 4, text: '[{}]' })).toBeUndefined();
    // An answer no cache stores, or one whose Vary names a field the requests differ in.
    const unstored = entry({}, keyed, {
      headers: [{ name: 'Cache-Control', value: 'no-store' }, date],
    });
    const unstoredAgain = again([{ name: 'Cache-Control', value: 'no-store' }, date]);
    expect(parseHar(harBy('Playwright', unstored, unstoredAgain))[1]?.fromCache).toBeUndefined();
    const varied = [...stored, { name: 'Vary', value: 'Authorization' }];
    const byKey = entry({}, keyed, { headers: varied });
    expect(parseHar(harBy('Playwright', byKey, again(varied)))[1]?.fromCache).toBeUndefined();
    expect(parseHar(harBy('Playwright', byKey, again(varied, keyed)))[1]?.fromCache).toBe(true);
  });

  it("reads a repeat's Cache-Control, Vary and credentials as a browser's cache does", () => {
    const date = { name: 'Date', value: 'Mon, 07 Dec 2026 15:40:47 GMT' };
    const keyed = { headers: [{ name: 'Authorization', value: 'Bearer k' }] };
    const json = { name: 'Content-Type', value: 'application/json' };
    /** Whether the second of two answers with `lines` counts as the cache's. */
    const repeated = (lines: unknown[], second = keyed, first = keyed, again = lines) =>
      parseHar(
        harBy(
          'Playwright',
          entry({}, first, { headers: [json, date, ...lines] }),
          entry({ startedDateTime: '2026-01-01T00:00:01.000Z' }, second, {
            headers: [json, date, ...again],
          }),
        ),
      )[1]?.fromCache === true;
    const control = (value: string) => ({ name: 'Cache-Control', value });
    // With the same key: any answer a cache may store, never one it may not.
    expect(repeated([])).toBe(true);
    expect(repeated([control('no-store')])).toBe(false);
    expect(repeated([control('private'), control('no-store')])).toBe(false);
    // To a request with other credentials, only one the cache holds fresh.
    const keyless = { headers: [] };
    expect(repeated([control('max-age=60')], keyless)).toBe(true);
    expect(repeated([control('max-age=05')], keyless)).toBe(true);
    expect(repeated([control('max-age=0')], keyless)).toBe(false);
    expect(repeated([control('no-cache, max-age=60')], keyless)).toBe(false);
    expect(repeated([control('max-age=60,no-cache')], keyless)).toBe(false);
    expect(repeated([{ name: 'Expires', value: 'Mon, 07 Dec 2026 16:40:47 GMT' }], keyless)).toBe(
      true,
    );
    expect(
      repeated([{ name: 'Last-Modified', value: 'Mon, 07 Dec 2026 14:40:47 GMT' }], keyless),
    ).toBe(true);
    const cookie = (value: string) => ({ headers: [...keyed.headers, { name: 'Cookie', value }] });
    expect(repeated([], cookie('s=2'), cookie('s=1'))).toBe(false);
    expect(repeated([], cookie('s=1'), cookie('s=1'))).toBe(true);
    // Across a Vary, only when the field it names is the same; `*` never.
    const accept = (value: string) => ({ headers: [...keyed.headers, { name: 'Accept', value }] });
    const vary = (value: string) => [{ name: 'Vary', value }];
    expect(repeated(vary('Accept'), accept('text/plain'), accept('application/json'))).toBe(false);
    expect(repeated(vary(' , Accept'), accept('*/*'), accept('*/*'))).toBe(true);
    expect(repeated(vary('Accept-Language, Accept'), accept('text/plain'), accept('*/*'))).toBe(
      false,
    );
    expect(repeated(vary('*'))).toBe(false);
    // A cache adds Age and keeps no connection's lines; it keeps the stored values as they were.
    expect(repeated([], keyed, keyed, [{ name: 'Age', value: '1' }])).toBe(true);
    expect(repeated([control('private')], keyed, keyed, [control('private ')])).toBe(true);
    expect(repeated([control('private')], keyed, keyed, [control('public')])).toBe(false);
  });

  it('marks no repeat of an answer that is no 200 to a GET, nor of one without a Date', () => {
    const twice = (request: object, response: object) =>
      parseHar(
        harBy(
          'Playwright',
          entry({}, request, response),
          entry({ startedDateTime: '2026-01-01T00:00:01.000Z' }, request, response),
        ),
      )[1]?.fromCache;
    const date = { name: 'Date', value: 'Mon, 07 Dec 2026 15:40:47 GMT' };
    expect(twice({}, { headers: [date] })).toBe(true);
    expect(twice({}, { headers: [] })).toBeUndefined();
    expect(twice({}, { status: 404, headers: [date] })).toBeUndefined();
    expect(twice({ method: 'HEAD' }, { headers: [date] })).toBeUndefined();
  });

  it('marks an answer from the browser cache, and only a named one', () => {
    expect(only(entry({ _fromCache: 'memory' }))?.fromCache).toBe(true);
    expect(only(entry({ _fromCache: 'disk' }))?.fromCache).toBe(true);
    expect(only(entry({ _fromCache: '' }))).not.toHaveProperty('fromCache');
    expect(only(entry({ _fromCache: true }))).not.toHaveProperty('fromCache');
  });
});

describe('reading bodies', () => {
  it("reads an empty text as no body recorded where the answer's sizes say it had one", () => {
    const empty = (response: Record<string, unknown>) =>
      only(entry({}, {}, { content: { size: 0, text: '' }, ...response }))?.responseBody;
    expect(empty({ bodySize: 57 })).toBeUndefined();
    expect(empty({ headers: [{ name: 'Content-Length', value: '57' }] })).toBeUndefined();
    expect(empty({ bodySize: 0, headers: [{ name: 'Content-Length', value: '0' }] })).toHaveLength(
      0,
    );
    // An answer to HEAD has a Content-Length and no body.
    const head = only(
      entry(
        {},
        { method: 'HEAD' },
        {
          content: { size: 0, text: '' },
          headers: [{ name: 'Content-Length', value: '57' }],
        },
      ),
    );
    expect(head?.responseBody).toHaveLength(0);
  });

  const body = '{"name":"Rex","categoryId":1}';

  it('reads a request body as text, whole when its bodySize is its length in bytes', () => {
    const sent = '{"name":"Réx","categoryId":1}';
    const bytes = Buffer.byteLength(sent);
    expect(only(entry({}, { postData: { text: sent }, bodySize: bytes }))).toMatchObject({
      requestBody: sent,
      requestBodyWhole: true,
    });
    expect(only(entry({}, { postData: { text: sent }, bodySize: sent.length }))).toMatchObject({
      requestBody: sent,
      requestBodyWhole: false,
    });
    expect(only(entry({}, { postData: { text: sent } }))).toMatchObject({
      requestBodyWhole: false,
    });
  });

  it('decodes a base64 request body and answer', () => {
    const got = only(
      entry(
        {},
        { postData: { text: Buffer.from(body).toString('base64'), encoding: 'base64' } },
        { content: { size: 2, text: Buffer.from('{}').toString('base64'), encoding: 'base64' } },
      ),
    );
    expect(got?.requestBody).toBe(body);
    expect(Buffer.from(got?.responseBody ?? []).toString()).toBe('{}');
  });

  it('keeps no request body that is no UTF-8, nor one whose text is not a string', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0x7d]).toString('base64');
    expect(only(entry({}, { postData: { text: bytes, encoding: 'base64' } }))).not.toHaveProperty(
      'requestBody',
    );
    expect(only(entry({}, { postData: { text: 12 } }))).not.toHaveProperty('requestBody');
    expect(only(entry({}, { postData: {} }))).not.toHaveProperty('requestBody');
  });

  it('keeps an empty request body as empty text', () => {
    expect(only(entry({}, { method: 'POST', postData: { text: '' }, bodySize: 0 }))).toMatchObject({
      requestBody: '',
      requestBodyWhole: true,
    });
  });

  it('reads an answer as its bytes, utf-8 text byte for byte', () => {
    const text = '{"name":"Réx"}';
    const got = only(entry({}, {}, { content: { size: Buffer.byteLength(text), text } }));
    expect(Buffer.from(got?.responseBody ?? []).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('takes an empty answer text whose size says it had bytes as an answer not kept', () => {
    expect(only(entry({}, {}, { content: { size: 120, text: '' } }))?.responseBody).toBeUndefined();
    for (const size of [0, -1, '120', undefined]) {
      expect(only(entry({}, {}, { content: { size, text: '' } }))?.responseBody).toHaveLength(0);
    }
    expect(only(entry({}, {}, { content: { size: 120 } }))?.responseBody).toBeUndefined();
    expect(only(entry({}, {}, { content: undefined }))?.responseBody).toBeUndefined();
  });
});

describe('the order of the exchanges', () => {
  it('is the order their answers arrived in, file order among answers that arrived together; one of unknown duration arrives as the recording ends', () => {
    const at = (second: number, time: number, path: string) =>
      entry(
        { startedDateTime: `2026-01-01T00:00:0${second}.000Z`, time },
        { url: `${URL_}/${path}` },
      );
    const urls = parseHar(
      harOf(at(1, 5000, 'slow'), at(2, 1000, 'a'), at(3, 0, 'b'), at(2, 1000, 'c')),
    ).map((e) => e.url.slice(URL_.length + 1));
    expect(urls).toEqual(['a', 'c', 'slow', 'b']);
  });
});

describe('a file that is no HAR', () => {
  const fails = (text: string, message: RegExp) => {
    expect(() => parseHar(text, 'traffic.har')).toThrow(UsageError);
    expect(() => parseHar(text, 'traffic.har')).toThrow(message);
  };

  it('is refused with the reason, naming the file', () => {
    fails('{"log":', /^traffic\.har is not JSON: /);
    fails('null', /^traffic\.har is not a HAR file: it has no log\.entries array$/);
    fails('{"log":{}}', /^traffic\.har is not a HAR file: it has no log\.entries array$/);
    fails('{"log":{"entries":{}}}', /no log\.entries array/);
  });

  it('names the first entry without a method and an absolute URL', () => {
    for (const bad of [
      { request: { url: URL_ } },
      { request: { method: 'GET' } },
      { request: { method: 'GET', url: '/v1/pets' } },
      { request: { method: 7, url: URL_ } },
      { request: { method: 'GET', url: [URL_] } },
      {},
      null,
    ]) {
      fails(harOf(entry(), bad), /^traffic\.har: entry 1 has no request method and absolute URL$/);
    }
  });

  it('names the file it was read from, or "the HAR file"', () => {
    expect(() => parseHar('[')).toThrow(/^the HAR file is not JSON/);
    const path = join(files.path, 'broken.har');
    writeFileSync(path, '{"log":{"entries":[{}]}}');
    expect(() => readHar(path)).toThrow(`${path}: entry 0 has no request method and absolute URL`);
  });

  it('that cannot be read is refused with the reason', () => {
    const missing = join(files.path, 'missing.har');
    expect(() => readHar(missing)).toThrow(UsageError);
    expect(() => readHar(missing)).toThrow(`cannot read --har ${missing}: ENOENT`);
  });
});
