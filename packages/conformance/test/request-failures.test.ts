import { describe, expect, it } from 'vitest';
import {
  GIVE_UP_AFTER_TIMEOUTS,
  type HttpClient,
  type HttpRequest,
  RequestError,
} from '../src/http/client.js';
import { TEST_TIMEOUT_MS, testClient } from './support/client.js';

// What the kit says when a request gets no answer: the report's line for it, and whether the
// run goes on. The client is given a fetch that fails as Node's fetch fails, so no socket and
// no clock is involved.

const BASE = 'http://127.0.0.1:8080/v1';
const GET: HttpRequest = { method: 'GET', path: '/pets' };

/** A client whose fetch fails with `failure()` each time, counting its calls. */
function failing(failure: () => unknown) {
  let calls = 0;
  const fetch = (async () => {
    calls += 1;
    throw failure();
  }) as unknown as typeof globalThis.fetch;
  return { http: testClient(BASE, fetch), calls: () => calls };
}

/** The error `request` fails with. */
async function failureOf(http: HttpClient, request: HttpRequest = GET): Promise<RequestError> {
  const error = await http.send(request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

/** A fetch failure as undici gives it: `fetch failed`, the reason in its cause. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

describe('a request that gets no answer', () => {
  const refused = () =>
    fetchFailed(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' }),
    );

  it.each<[string, () => unknown, 'timeout' | 'network', string]>([
    [
      'a timeout when fetch gives up',
      () => new DOMException('gave up', 'TimeoutError'),
      'timeout',
      `GET /pets: no answer within ${TEST_TIMEOUT_MS} ms`,
    ],
    [
      'a timeout when fetch is aborted',
      () => new DOMException('gave up', 'AbortError'),
      'timeout',
      `GET /pets: no answer within ${TEST_TIMEOUT_MS} ms`,
    ],
    [
      'a network failure named by its innermost cause',
      refused,
      'network',
      'GET /pets failed: connect ECONNREFUSED 127.0.0.1:8080',
    ],
  ])('is %s', async (_, failure, kind, message) => {
    expect(await failureOf(failing(failure).http)).toMatchObject({
      kind,
      message,
      reason: message.replace(/^GET \/pets(:| failed:) /, ''),
      sent: { request: GET, url: `${BASE}/pets` },
    });
  });

  it('follows causes and the first of several errors down to the last', async () => {
    const deepest = new Error('connect ETIMEDOUT 127.0.0.1:8080');
    const several = new AggregateError([deepest, new Error('connect EHOSTUNREACH ::1')], 'x');
    const error = await failureOf(
      failing(() => fetchFailed(new Error('outer', { cause: several }))).http,
    );
    expect(error.reason).toBe('connect ETIMEDOUT 127.0.0.1:8080');
    const none = new AggregateError([], 'every address failed');
    expect((await failureOf(failing(() => fetchFailed(none)).http)).reason).toBe(
      'every address failed',
    );
  });

  it('is named by a cause’s code when it has no message, else by what was thrown', async () => {
    const coded = Object.assign(new Error(''), { code: 'EAI_AGAIN' });
    expect((await failureOf(failing(() => fetchFailed(coded)).http)).reason).toBe('EAI_AGAIN');
    expect((await failureOf(failing(() => 'boom').http)).reason).toBe('boom');
    expect((await failureOf(failing(() => null).http)).reason).toBe('null');
  });

  it("says how to read an answer whose header lines exceed Node's limit", async () => {
    const overflow = Object.assign(new Error('Headers Overflow Error'), {
      code: 'UND_ERR_HEADERS_OVERFLOW',
    });
    const error = await failureOf(failing(() => fetchFailed(overflow)).http);
    expect(error.reason).toMatch(
      /^Headers Overflow Error \(the answer's header lines exceed the \d+ bytes Node reads; to read more, run the kit with NODE_OPTIONS=--max-http-header-size=<bytes>\)$/,
    );
  });

  it('says so when fetch refuses the port itself', async () => {
    const error = await failureOf(failing(() => fetchFailed(new Error('bad port'))).http);
    expect(error.reason).toBe('fetch refuses to connect to this port');
    expect(error.message).toBe('GET /pets failed: fetch refuses to connect to this port');
  });

  it('is logged with no status and the failure’s words', async () => {
    const { http } = failing(refused);
    await failureOf(http, { method: 'POST', path: '/pets', json: {} });
    expect(http.log).toEqual([
      {
        method: 'POST',
        path: '/pets',
        status: null,
        ms: expect.any(Number),
        error: 'POST /pets failed: connect ECONNREFUSED 127.0.0.1:8080',
      },
    ]);
  });
});

describe('a server that stopped answering', () => {
  it(`gets no request after ${GIVE_UP_AFTER_TIMEOUTS} timeouts in a row`, async () => {
    const { http, calls } = failing(() => new DOMException('gave up', 'TimeoutError'));
    for (let i = 0; i < GIVE_UP_AFTER_TIMEOUTS; i++) await failureOf(http);
    expect(calls()).toBe(GIVE_UP_AFTER_TIMEOUTS);
    const error = await failureOf(http);
    expect(calls()).toBe(GIVE_UP_AFTER_TIMEOUTS);
    expect(error).toMatchObject({
      kind: 'timeout',
      message: `GET /pets: not sent: the last ${GIVE_UP_AFTER_TIMEOUTS} requests got no answer`,
      sent: { request: GET, url: `${BASE}/pets` },
    });
  });

  it('is asked again while fewer timeouts than that came in a row, or other failures', async () => {
    let timeouts = 0;
    const { http, calls } = failing(() =>
      ++timeouts < GIVE_UP_AFTER_TIMEOUTS
        ? new DOMException('gave up', 'TimeoutError')
        : fetchFailed(new Error('connect ECONNREFUSED 127.0.0.1:8080')),
    );
    for (let i = 0; i < GIVE_UP_AFTER_TIMEOUTS + 3; i++) await failureOf(http);
    expect(calls()).toBe(GIVE_UP_AFTER_TIMEOUTS + 3);
  });

  it('counts timeouts afresh after an answer', async () => {
    let n = 0;
    const fetch = (async () => {
      n += 1;
      if (n === GIVE_UP_AFTER_TIMEOUTS) return new Response('[]', { status: 200 });
      throw new DOMException('gave up', 'TimeoutError');
    }) as unknown as typeof globalThis.fetch;
    const http = testClient(BASE, fetch);
    for (let i = 0; i < 2 * GIVE_UP_AFTER_TIMEOUTS - 1; i++) {
      await http.send(GET).catch(() => undefined);
    }
    expect(n).toBe(2 * GIVE_UP_AFTER_TIMEOUTS - 1);
  });
});
