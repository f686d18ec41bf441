// How the traffic judge places an exchange it did not send: which base URL the spec's operations
// sit below, where each exchange stands towards them (only the spec's are judged), and the
// request and answer the oracles then read.
import { describe, expect, it } from 'vitest';
import {
  baseOfSpecUrl,
  exchangeOf,
  inferBase,
  type RecordedExchange,
} from '../src/traffic/exchange.js';
import { recordedExchange } from './support/recorded-exchange.js';

const BASE = 'http://127.0.0.1:9/v1';

describe('the base URL of the spec operations in a recording', () => {
  it('is the path above /pets or /pets/{petId}, and nothing for any other path', () => {
    expect(baseOfSpecUrl(`${BASE}/pets`)).toBe(BASE);
    expect(baseOfSpecUrl(`${BASE}/pets/7?x=1`)).toBe(BASE);
    expect(baseOfSpecUrl('http://127.0.0.1:9/pets')).toBe('http://127.0.0.1:9');
    expect(baseOfSpecUrl(`${BASE}/pets/7/photos`)).toBeUndefined();
    expect(baseOfSpecUrl(`${BASE}/petshop`)).toBeUndefined();
    expect(baseOfSpecUrl('not a url')).toBeUndefined();
  });

  it('is the one most exchanges go below; other paths do not count, and a tie keeps the first', () => {
    const other = 'http://127.0.0.1:10/v1';
    const urls = (...list: string[]) => list.map((url) => recordedExchange({ url }));
    expect(
      inferBase(
        urls(`${other}/pets`, `${BASE}/pets`, `${BASE}/pets/1`, `${other}/pets/2`, `${BASE}/pets`),
      ),
    ).toBe(BASE);
    expect(inferBase(urls(`${other}/pets`, `${BASE}/pets`))).toBe(other);
    expect(inferBase(urls(`${BASE}/pets`, `${other}/pets`))).toBe(BASE);
    // Pages and assets outnumber the API calls in a browser's recording.
    expect(
      inferBase(urls('http://127.0.0.1:9/', 'http://127.0.0.1:9/app.js', `${BASE}/pets`)),
    ).toBe(BASE);
    expect(
      inferBase(urls(`${BASE}/pets`, 'http://127.0.0.1:9/app.js', 'http://127.0.0.1:9/app.css')),
    ).toBe(BASE);
    expect(inferBase(urls('http://127.0.0.1:9/', 'http://127.0.0.1:9/app.js'))).toBeUndefined();
  });

  it('is one that ends with /v1 when any does, however many exchanges go below another', () => {
    const urls = (...list: string[]) => list.map((url) => recordedExchange({ url }));
    // A catalogue page's images, and its own route for a pet, outnumber the API's one call.
    const page = 'http://shop.test';
    const images = [1, 2, 3].map((id) => `${page}/images/pets/${id}.jpg`);
    expect(inferBase(urls(...images, `${page}/pets/7`, `${BASE}/pets`))).toBe(BASE);
    expect(inferBase(urls(...images, `${page}/pets/7`, `${BASE}/pets/1`))).toBe(BASE);
    // Without a /v1 base, the one most go below (a server of one's own at another prefix).
    expect(inferBase(urls(...images, 'http://127.0.0.1:9/api/pets'))).toBe(`${page}/images`);
    expect(inferBase(urls('http://127.0.0.1:9/api/pets'))).toBe('http://127.0.0.1:9/api');
  });
});

describe('where an exchange stands towards the spec operations', () => {
  const standing = (over: Partial<RecordedExchange> & { url: string }, base = BASE) =>
    exchangeOf(recordedExchange(over), base).standing;

  it("judges the spec's operations below the base, and only those", () => {
    expect(standing({ url: `${BASE}/pets?limit=2` })).toBe('spec');
    expect(standing({ url: `${BASE}/pets/3` }, `${BASE}//`)).toBe('spec');
    expect(standing({ url: 'http://elsewhere.example/v1/pets' })).toBe('other-host');
    expect(standing({ url: 'http://127.0.0.1:9/v2/pets' })).toBe('other-path');
    expect(standing({ url: `${BASE}/health` })).toBe('other-path');
    expect(standing({ url: `${BASE}/pets/3/photos`, method: 'POST' })).toBe('other-path');
    // Nothing between the base and /pets: routes of the server's own are not the spec's.
    expect(standing({ url: `${BASE}/admin/pets/3` })).toBe('other-path');
    expect(standing({ url: `${BASE}/shops/7/pets`, method: 'POST' })).toBe('other-path');
    // A base that names no /v1 holds no operation of the spec at /v1/pets.
    expect(standing({ url: `${BASE}/pets` }, 'http://127.0.0.1:9')).toBe('other-path');
  });

  it('places a request target that is no URL (`*`) at no path of the spec, and reads it as written', () => {
    expect(standing({ url: '*', method: 'OPTIONS' })).toBe('other-path');
    expect(exchangeOf(recordedExchange({ url: '*', method: 'OPTIONS' }), BASE).res.path).toBe('*');
  });

  it('leaves alone an exchange without an answer, a 429, a 503 and a cached answer of the spec', () => {
    expect(standing({ url: `${BASE}/pets`, status: 0 })).toBe('not-answered');
    expect(standing({ url: 'http://elsewhere.example/v1/pets', status: 0 })).toBe('not-answered');
    expect(standing({ url: `${BASE}/pets`, status: 429 })).toBe('rate-limited');
    expect(standing({ url: `${BASE}/pets`, method: 'POST', status: 503 })).toBe('unavailable');
    expect(standing({ url: `${BASE}/pets/1`, status: 500 })).toBe('spec');
    expect(standing({ url: `${BASE}/pets`, fromCache: true })).toBe('from-cache');
  });

  it('counts what is outside the spec as such, whatever its answer', () => {
    const elsewhere = 'http://elsewhere.example/v1/pets';
    expect(standing({ url: elsewhere, status: 429 })).toBe('other-host');
    expect(standing({ url: elsewhere, fromCache: true })).toBe('other-host');
    expect(standing({ url: 'http://127.0.0.1:9/v2/pets', status: 429 })).toBe('other-path');
    expect(standing({ url: 'http://127.0.0.1:9/v2/pets', fromCache: true })).toBe('other-path');
  });
});

describe('the exchange as the oracles read it', () => {
  it('names the path below the base for the spec, and the whole path elsewhere', () => {
    expect(exchangeOf(recordedExchange({ url: `${BASE}/pets?limit=2` }), BASE).res.path).toBe(
      '/pets?limit=2',
    );
    expect(exchangeOf(recordedExchange({ url: `${BASE}/pets/4` }), `${BASE}//`).res.path).toBe(
      '/pets/4',
    );
    expect(
      exchangeOf(recordedExchange({ url: 'http://127.0.0.1:9/v2/pets?a=1' }), BASE).res.path,
    ).toBe('/v2/pets?a=1');
  });

  it('marks a request sent without Authorization, so its replay line sends none either', () => {
    const keyless = exchangeOf(recordedExchange({ url: `${BASE}/pets`, requestHeaders: [] }), BASE);
    expect(keyless.authorization).toBeUndefined();
    expect(keyless.res.request.authorization).toBeNull();
    const keyed = exchangeOf(recordedExchange({ url: `${BASE}/pets` }), BASE);
    expect(keyed.authorization).toBe('Bearer key-0123456789');
    // Undefined: the replay line reads the key from $ANIMAL_STORE_API_KEY.
    expect('authorization' in keyed.res.request).toBe(false);
  });

  it('carries the request body as sent, and reads the answer without a leading BOM', () => {
    const body = '{"name":"Rex","categoryId":1}';
    const ex = exchangeOf(
      recordedExchange({
        url: `${BASE}/pets`,
        method: 'POST',
        requestBody: body,
        status: 201,
        responseBody: new TextEncoder().encode('\uFEFF{"id":1}'),
      }),
      BASE,
    );
    expect(ex.res.request).toMatchObject({ method: 'POST', path: '/pets', rawBody: body });
    expect(ex.res.text).toBe('{"id":1}');
    expect(ex.res.body).toEqual({ id: 1 });
    expect(ex.bodyRecorded).toBe(true);
    const get = exchangeOf(recordedExchange({ url: `${BASE}/pets` }), BASE);
    expect('rawBody' in get.res.request).toBe(false);
    const bare = exchangeOf(
      recordedExchange({ url: `${BASE}/pets`, responseBody: undefined }),
      BASE,
    );
    expect(bare.bodyRecorded).toBe(false);
  });

  it('times the exchange in whole milliseconds, never below zero', () => {
    expect(exchangeOf(recordedExchange({ url: `${BASE}/pets` }), BASE).res.ms).toBe(12);
    const skewed = recordedExchange({ url: `${BASE}/pets`, sentAt: 2_000, receivedAt: 1_990 });
    expect(exchangeOf(skewed, BASE).res.ms).toBe(0);
  });

  it('skips header lines no HTTP message may carry, such as HTTP/2 pseudo-headers', () => {
    const ex = exchangeOf(
      recordedExchange({
        url: `${BASE}/pets`,
        requestHeaders: [
          [':authority', '127.0.0.1:9'],
          ['Authorization', 'Bearer key-0123456789'],
          ['X-Bad', 'a\u0000b'],
        ],
      }),
      BASE,
    );
    expect([...ex.requestHeaders.keys()]).toEqual(['authorization']);
  });
});
