import { describe, expect, it, vi } from 'vitest';
import {
  type HttpClientOptions,
  type HttpRequest,
  type HttpResponse,
  KEY_VARIABLE,
  RateLimitedError,
  RequestError,
  STOP_WAITING_AFTER,
  sentBytes,
} from '../src/http/client.js';
import { keyBetween } from '../src/http/replay.js';
import { REDACTED, Redactor } from '../src/redact.js';
import { testClient } from './support/client.js';

// What the kit's client puts on the wire for each request shape, and how it reads what comes
// back: its fetch is a fake that keeps every call and answers as told, so no socket is involved.

const BASE = 'http://127.0.0.1:8080/v1';
const KEY = 'secret-key-1';

/** One call the client made to fetch. */
interface FetchCall {
  readonly url: string;
  readonly init: RequestInit & { duplex?: string };
}

/** A client whose fetch answers each call with `answer(call)`, keeping every call. */
function recording(
  answer: (call: FetchCall) => Response = () => new Response('[]', { status: 200 }),
  options: Partial<HttpClientOptions> = {},
) {
  const calls: FetchCall[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    return answer(call);
  }) as unknown as typeof globalThis.fetch;
  return { http: testClient(BASE, fetch, { apiKey: KEY, ...options }), calls };
}

/** The headers of a fetch call, as sent. */
const headersOf = (call: FetchCall | undefined) =>
  Object.fromEntries(new Headers(call?.init.headers).entries());

/** The bytes of a body fetch was handed (a Blob or a stream). */
async function bodyBytes(body: unknown): Promise<Uint8Array> {
  return new Uint8Array(
    await new Response(body as ConstructorParameters<typeof Response>[0]).arrayBuffer(),
  );
}

describe('the URL a request goes to', () => {
  it.each<[string, string, string]>([
    ['below the base URL', '/pets?limit=1', `${BASE}/pets?limit=1`],
    ['the base URL itself', '', BASE],
    [
      'an absolute http URL, as a Link names one',
      'http://other:9/v1/pets',
      'http://other:9/v1/pets',
    ],
    ['an absolute https URL', 'https://other/v1/pets?x=1', 'https://other/v1/pets?x=1'],
    ['a query that holds a URL', '/pets?next=http://other/', `${BASE}/pets?next=http://other/`],
  ])('%s', async (_, path, url) => {
    const { http, calls } = recording();
    const response = await http.send({ method: 'GET', path });
    expect(calls.map((c) => c.url)).toEqual([url]);
    expect(response.url).toBe(url);
  });

  it('is relative to the base URL without its trailing slashes', async () => {
    const { http, calls } = recording(undefined, { baseUrl: `${BASE}//` });
    expect(http.baseUrl).toBe(BASE);
    await http.send({ method: 'GET', path: '/pets' });
    expect(calls[0]?.url).toBe(`${BASE}/pets`);
  });

  it('is logged and answered with its path below the base URL, or whole outside it', async () => {
    const { http } = recording();
    const below = await http.send({ method: 'GET', path: '/pets?limit=1' });
    const base = await http.send({ method: 'GET', path: '' });
    const outside = await http.send({ method: 'GET', path: 'http://other/v1/pets' });
    expect([below.path, base.path, outside.path]).toEqual([
      '/pets?limit=1',
      '/',
      'http://other/v1/pets',
    ]);
    expect(http.log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/pets?limit=1', status: 200 },
      { method: 'GET', path: '/', status: 200 },
      { method: 'GET', path: 'http://other/v1/pets', status: 200 },
    ]);
  });

  it('carries a look-alike of the key in each query parameter named, never the key', async () => {
    const { http, calls } = recording();
    await http.send({ method: 'GET', path: '/pets', keyInQuery: ['api_key', 'key'] });
    await http.send({ method: 'GET', path: '/pets?limit=1', keyInQuery: ['api_key'] });
    const [first, second] = calls.map((c) => new URL(c.url));
    const lookAlike = first?.searchParams.get('api_key') as string;
    expect(lookAlike).toMatch(/^[a-z]{6}-[a-z]{3}-\d$/);
    expect(lookAlike).not.toBe(KEY);
    expect(first?.search).toBe(`?api_key=${lookAlike}&key=${lookAlike}`);
    expect(second?.search).toBe(`?limit=1&api_key=${lookAlike}`);
    expect(calls.every((c) => !c.url.includes(KEY))).toBe(true);
  });

  it('carries the key itself only when asked, encoded', async () => {
    const { http, calls } = recording(undefined, { apiKey: 'k&y=1' });
    await http.send({
      method: 'GET',
      path: '/pets',
      keyInQuery: ['api_key'],
      realKeyInQuery: true,
    });
    expect(calls[0]?.url).toBe(`${BASE}/pets?api_key=k%26y%3D1`);
  });

  it('carries the key itself in the header fields named, beside the headers given', async () => {
    const { http, calls } = recording();
    await http.send({
      method: 'GET',
      path: '/pets',
      authorization: null,
      headers: { 'X-API-Key': http.lookAlikeKey },
      keyHeaders: {
        'Api-Key': keyBetween(['', ''], KEY),
        Cookie: keyBetween(['token=', '; a=1'], KEY),
      },
    });
    expect(headersOf(calls[0])).toMatchObject({
      'x-api-key': http.lookAlikeKey,
      'api-key': KEY,
      cookie: `token=${KEY}; a=1`,
    });
    expect(headersOf(calls[0])).not.toHaveProperty('authorization');
    expect(calls[0]?.url).toBe(`${BASE}/pets`);
  });

  it('carries a body made from the key itself in place of rawBody, as JSON', async () => {
    const { http, calls } = recording();
    await http.send({
      method: 'POST',
      path: '/pets',
      authorization: null,
      rawBody: '{}',
      keyBody: keyBetween(['{"access_token":"', '"}'], KEY),
    });
    const body = new TextDecoder().decode(await bodyBytes(calls[0]?.init.body));
    expect(body).toBe(`{"access_token":"${KEY}"}`);
    expect(headersOf(calls[0])['content-type']).toBe('application/json');
    expect(headersOf(calls[0])).not.toHaveProperty('authorization');
  });

  it('uses one look-alike of the key, in the query as in lookAlikeKey', async () => {
    const { http, calls } = recording();
    await http.send({ method: 'GET', path: '/pets', keyInQuery: ['key'] });
    await http.send({ method: 'GET', path: '/pets', keyInQuery: ['key'] });
    const sent = calls.map((c) => new URL(c.url).searchParams.get('key'));
    expect(sent).toEqual([http.lookAlikeKey, http.lookAlikeKey]);
    expect(http.lookAlikeKey).not.toBe(KEY);
  });
});

describe('the headers a request carries', () => {
  it('asks for JSON, names the kit and carries the bearer key by default', async () => {
    const { http, calls } = recording();
    await http.send({ method: 'GET', path: '/pets' });
    expect(headersOf(calls[0])).toEqual({
      accept: 'application/json',
      'user-agent': 'test',
      authorization: `Bearer ${KEY}`,
    });
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('carries no Authorization when told none, and a given one as it is', async () => {
    const { http, calls } = recording();
    await http.send({ method: 'GET', path: '/pets', authorization: null });
    await http.send({
      method: 'GET',
      path: '/pets',
      authorization: { value: 'Basic abc', shell: 'Basic abc' },
    });
    expect(headersOf(calls[0])).not.toHaveProperty('authorization');
    expect(headersOf(calls[1]).authorization).toBe('Basic abc');
  });

  it('takes the extra headers given, in lower case, over its own', async () => {
    const { http, calls } = recording();
    await http.send({
      method: 'GET',
      path: '/pets',
      headers: { 'Cache-Control': 'no-cache', Accept: '*/*' },
    });
    expect(headersOf(calls[0])).toMatchObject({ 'cache-control': 'no-cache', accept: '*/*' });
  });

  it('hides a value built from the key, and the key part of it, from what the kit writes', async () => {
    const redactor = new Redactor();
    const { http } = recording(undefined, { redactor });
    const changedCase = `Bearer  ${KEY.toUpperCase()}`;
    await http.send({
      method: 'GET',
      path: '/pets',
      authorization: { value: changedCase, shell: `Bearer  \${${KEY_VARIABLE}^^}` },
    });
    await http.send({
      method: 'GET',
      path: '/pets',
      authorization: { value: 'Bearer wrong-key-2', shell: 'Bearer wrong-key-2' },
    });
    expect(redactor.text(`sent ${changedCase}`)).toBe(`sent ${REDACTED}`);
    expect(redactor.text(`a ${KEY.toUpperCase()} b`)).toBe(`a ${REDACTED} b`);
    expect(redactor.text(`a ${KEY} b`)).toBe(`a ${REDACTED} b`);
    // A value that is not the key is no secret.
    expect(redactor.text('Bearer wrong-key-2')).toBe('Bearer wrong-key-2');
  });

  it('carries a value built from the key when nothing hides what the kit writes', async () => {
    const { http, calls } = recording();
    const value = `Bearer ${KEY.toUpperCase()}`;
    await http.send({
      method: 'GET',
      path: '/pets',
      authorization: { value, shell: `Bearer \${${KEY_VARIABLE}^^}` },
    });
    expect(headersOf(calls[0]).authorization).toBe(value);
  });
});

describe('the body a request carries', () => {
  const pet = { name: 'Rex', status: 'available' };

  it('goes as JSON bytes with Content-Type application/json', async () => {
    const { http, calls } = recording();
    await http.send({ method: 'POST', path: '/pets', json: pet });
    expect(headersOf(calls[0])['content-type']).toBe('application/json');
    expect(new TextDecoder().decode(await bodyBytes(calls[0]?.init.body))).toBe(
      JSON.stringify(pet),
    );
    expect(calls[0]?.init.duplex).toBeUndefined();
  });

  it('goes without Content-Type when asked', async () => {
    const { http, calls } = recording();
    await http.send({ method: 'POST', path: '/pets', json: pet, withoutContentType: true });
    expect(headersOf(calls[0])).not.toHaveProperty('content-type');
    expect(await bodyBytes(calls[0]?.init.body)).toEqual(
      sentBytes({ method: 'POST', path: '/', json: pet }),
    );
  });

  it('goes chunked as a stream of its two halves', async () => {
    const { http, calls } = recording();
    const request: HttpRequest = { method: 'POST', path: '/pets', json: pet, chunked: true };
    await http.send(request);
    const body = calls[0]?.init.body;
    expect(body).toBeInstanceOf(ReadableStream);
    expect(calls[0]?.init.duplex).toBe('half');
    const chunks: Uint8Array[] = [];
    for await (const chunk of body as ReadableStream<Uint8Array>) chunks.push(chunk);
    const bytes = sentBytes(request) as Uint8Array;
    const half = Math.floor(bytes.length / 2);
    expect(chunks).toEqual([bytes.slice(0, half), bytes.slice(half)]);
  });

  it('is padded with spaces after its first comma', () => {
    const bytes = sentBytes({ method: 'POST', path: '/', rawBody: '{"a":1,"b":2}', padding: 3 });
    expect(new TextDecoder().decode(bytes)).toBe('{"a":1,   "b":2}');
  });
});

describe('the answer', () => {
  it('keeps the bytes of every chunk, in order, and the times it was sent and received', async () => {
    const parts = ['{"a":', '[1,2', ']}'];
    const { http } = recording(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'Application/JSON ; charset=utf-8' } },
        ),
    );
    const before = performance.now();
    const response = await http.send({ method: 'GET', path: '/pets' });
    const after = performance.now();
    expect(response.text).toBe('{"a":[1,2]}');
    expect(response.body).toEqual({ a: [1, 2] });
    expect(response.mediaType).toBe('application/json');
    expect(response.sentAt).toBeGreaterThanOrEqual(before);
    expect(response.receivedAt).toBeGreaterThanOrEqual(response.sentAt as number);
    expect(response.receivedAt).toBeLessThanOrEqual(after);
    expect(response.ms).toBeGreaterThanOrEqual(0);
    expect(response.ms).toBeLessThanOrEqual(Math.ceil(after - before));
    expect(http.log[0]?.ms).toBe(response.ms);
  });

  it.each<[string, () => Response, string, string]>([
    ['no body', () => new Response(null, { status: 204 }), '', 'the body is empty'],
    [
      'a body of white space',
      () => new Response(new TextEncoder().encode(' \n'), { status: 200 }),
      '',
      'the body is empty',
    ],
    [
      'a body that is not JSON',
      () => new Response('oops', { status: 200, headers: { 'content-type': 'text/plain' } }),
      'text/plain',
      'the body is not JSON',
    ],
  ])('with %s has no parsed body, and says why', async (_, answer, mediaType, why) => {
    const { http } = recording(answer);
    const response = await http.send({ method: 'GET', path: '/pets' });
    expect(response.body).toBeUndefined();
    expect(response.mediaType).toBe(mediaType);
    expect(response.jsonError).toContain(why);
    expect(response.bytes?.length).toBe(response.status === 204 ? 0 : response.text.length);
  });

  describe('cut short by the connection', () => {
    /** An answer whose body stream fails after `sent` bytes, declaring `length`. */
    const cut = (sent: string, length?: string) => () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(sent));
          },
          pull(controller) {
            controller.error(new TypeError('terminated', { cause: new Error('the stream broke') }));
          },
        }),
        { headers: length === undefined ? {} : { 'content-length': length } },
      );

    it('names a Content-Length larger than the body, and is not sent again', async () => {
      const { http, calls } = recording(cut('[1,2', ' 12 '));
      const error = await http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect(error).toMatchObject({
        name: 'RequestError',
        kind: 'network',
        message:
          'GET /pets: the server declared Content-Length: 12 but sent 4 bytes of body and closed the connection',
      });
      expect(calls).toHaveLength(1);
    });

    it.each([
      ['no Content-Length', undefined],
      ['the length all sent', '4'],
      ['a length that is no number', '12x'],
      ['a signed length', '+12'],
      ['a length with an exponent', '1e3'],
    ])('says only what was seen with %s', async (_, length) => {
      const { http } = recording(cut('[1,2', length));
      const error = await http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect(error).toMatchObject({
        kind: 'network',
        message: 'GET /pets failed: the stream broke',
      });
    });
  });
});

describe('a request whose connection broke', () => {
  it('is not sent again when it is a POST without a body', async () => {
    const { http, calls } = recording(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
      });
    });
    const error = await http.send({ method: 'POST', path: '/pets' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', message: 'POST /pets failed: write EPIPE' });
    expect(calls).toHaveLength(1);
    expect(http.log).toHaveLength(1);
  });
});

describe('a certificate the kit does not trust', () => {
  /** The reason the client gives when fetch fails on a TLS error with `code`. */
  async function reasonFor(code: string): Promise<string> {
    const { http } = recording(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error(`tls said ${code}`), { code }),
      });
    });
    const error = await http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    return (error as RequestError).reason;
  }
  const remedy =
    "(to trust the server's CA, set NODE_EXTRA_CA_CERTS to the file of its certificate (PEM))";

  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'CERT_UNTRUSTED',
  ])('names NODE_EXTRA_CA_CERTS after the reason for %s: a CA of its own', async (code) => {
    expect(await reasonFor(code)).toBe(`tls said ${code} ${remedy}`);
  });

  it.each([
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'CERT_HAS_EXPIRED',
    'ECONNREFUSED',
  ])('gives the reason alone for %s, which no CA mends', async (code) => {
    expect(await reasonFor(code)).toBe(`tls said ${code}`);
  });
});

/**
 * A client whose fetch answers `status` (with `headers`) to the first `times` calls, then 200,
 * and the answers it reported.
 */
function answeringFor(
  status: number,
  times: number,
  maxRetries: number,
  headers: Record<string, string>,
) {
  const seen: HttpResponse[] = [];
  const client = recording(
    () => new Response('{}', { status: client.calls.length <= times ? status : 200, headers }),
    { maxRetries, onResponse: (response) => seen.push(response) },
  );
  return { ...client, seen };
}

describe('an answer asking to come back later', () => {
  it.each([
    429, 503,
  ])('(%i with Retry-After) is waited out, each reported as retried', async (status) => {
    const { http, calls, seen } = answeringFor(status, 2, 2, { 'retry-after': '0' });
    const response = await http.send({ method: 'POST', path: '/pets', rawBody: '{}' });
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(3);
    expect(seen.map((r) => [r.status, r.retried])).toEqual([
      [status, true],
      [status, true],
      [200, undefined],
    ]);
  });

  it('still a 503 after every retry is neither a pass nor a failure', async () => {
    const { http, seen } = answeringFor(503, 3, 2, { 'retry-after': '0' });
    const error = await http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as Error).message).toBe('GET /pets still answered 503 after 2 retries');
    expect(seen.map((r) => r.retried)).toEqual([true, true, undefined]);
  });

  it('is a 503 without Retry-After too, waited out a second', async () => {
    vi.useFakeTimers();
    try {
      const { http, calls } = recording(
        () => new Response('{}', { status: calls.length === 1 ? 503 : 200 }),
        { maxRetries: 1, maxRetryWaitMs: 5_000 },
      );
      const answered = http.send({ method: 'GET', path: '/pets' });
      await vi.advanceTimersByTimeAsync(999);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect((await answered).status).toBe(200);
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it(`is no longer waited out after ${STOP_WAITING_AFTER} requests in a row still so answered, until one is served`, async () => {
    let serving = false;
    const { http, calls } = recording(
      () => new Response('{}', { status: serving ? 200 : 503, headers: { 'retry-after': '0' } }),
      { maxRetries: 1 },
    );
    const unserved = () => http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
    for (let i = 0; i < STOP_WAITING_AFTER; i++) await unserved();
    expect(calls).toHaveLength(2 * STOP_WAITING_AFTER);
    const error = await unserved();
    expect(calls).toHaveLength(2 * STOP_WAITING_AFTER + 1);
    expect((error as Error).message).toBe(
      `GET /pets still answered 503 (not waited out: ${STOP_WAITING_AFTER} requests in a row were still answered so after every retry)`,
    );
    serving = true;
    expect((await http.send({ method: 'GET', path: '/pets' })).status).toBe(200);
    serving = false;
    const before = calls.length;
    await unserved();
    expect(calls.length - before).toBe(2);
  });
});

describe('a 429', () => {
  const limitedFor = (limited: number, maxRetries: number) =>
    answeringFor(429, limited, maxRetries, { 'retry-after': '0' });

  it('still there after every retry is neither a pass nor a failure', async () => {
    const { http, calls, seen } = limitedFor(3, 2);
    const error = await http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({
      name: 'RateLimitedError',
      message: 'GET /pets still answered 429 after 2 retries',
    });
    expect(calls).toHaveLength(3);
    expect(seen.map((r) => [r.status, r.retried])).toEqual([
      [429, true],
      [429, true],
      [429, undefined],
    ]);
  });

  it('is waited out for as long as Retry-After asks, within the cap', async () => {
    vi.useFakeTimers();
    try {
      const { http, calls } = recording(
        () =>
          new Response('{}', {
            status: calls.length === 1 ? 429 : 200,
            headers: { 'retry-after': '2' },
          }),
        { maxRetries: 1, maxRetryWaitMs: 5_000 },
      );
      const answered = http.send({ method: 'GET', path: '/pets' });
      await vi.advanceTimersByTimeAsync(1_999);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      expect((await answered).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is waited out when nothing listens for answers', async () => {
    const { http, calls } = recording(
      () => new Response('{}', { status: calls.length === 1 ? 429 : 200 }),
      { maxRetries: 1 },
    );
    expect((await http.send({ method: 'GET', path: '/pets' })).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('is final at once when no retry is allowed', async () => {
    const { http, calls, seen } = limitedFor(1, 0);
    const error = await http.send({ method: 'GET', path: '/pets' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as Error).message).toBe('GET /pets still answered 429 after 0 retries');
    expect(calls).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });
});
