import { describe, expect, it } from 'vitest';
import { BROWSER_NAVIGATION_ACCEPT } from '../src/cases/headers.js';
import { ANSWER_ORACLES } from '../src/oracles.js';
import { ordinaryAcceptCopies } from '../src/sections/every-answer.js';
import { answer } from './support/answer.js';
import { resultOf, runAgainst } from './support/run-kit.js';

// The oracles judge every answer of the run: the preflight, the name-shape probe and the reads
// before the first pet as much as the checks' own requests.
describe.concurrent('the oracles', () => {
  it.each([
    // A lenient server redirects other spellings of a path: it gets two requests for one answer.
    // It closes idle connections unanswered, and the kit sends those requests again. It also
    // leaves its Errors' code and message blank, which the `should` oracle advises on.
    ['the reference', {}, true, 'pass'],
    ['a lenient server', { lenient: true }, false, 'advisory'],
  ] as const)('judge every answer %s gives, one per request sent', async (_, server, reference, advised) => {
    const { report, server: fake } = await runAgainst(server);
    const sent = report.requests.filter((r) => r.status !== null).length;
    expect(sent).toBeGreaterThan(0);
    if (reference) {
      expect(sent).toBe(report.requests.length);
      expect(fake.requests.length).toBe(sent);
    }
    for (const oracle of ANSWER_ORACLES) {
      const result = resultOf(report, oracle.id);
      const outcome = oracle.rule === undefined ? 'pass' : advised;
      expect(result.outcome, `${oracle.id}: ${result.message}`).toBe(outcome);
      if (outcome === 'advisory') continue;
      const judged = Number(/^(\d+) answers judged/.exec(result.message)?.[1]);
      expect(judged, oracle.id).toBe(sent);
    }
  });

  it('judge the preflight: an empty list answered 204 fails the run, whatever the checks sent', async () => {
    const { report, server } = await runAgainst(
      { faults: ['list-204-when-empty'] },
      { only: ['errors'] },
    );
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/pets?limit=1' });
    const result = resultOf(report, 'errors.success-status');
    expect(result.outcome).toBe('fail');
    expect(result.message).toContain('GET /pets?limit=1 answered 204');
  });
});

describe('the requests sent again with the Accept of ordinary clients', () => {
  it('are the first error request of each operation and status that named no Accept of its own, a read also as a browser sends it, and with no Accept, but for answers asking to come back later', () => {
    const connection = { name: 'kept-alive' } as never;
    const copies = ordinaryAcceptCopies([
      answer({ path: '/pets?limit=0', status: 400, request: { connection } }),
      answer({ path: '/pets?limit=101', status: 400 }),
      answer({ path: '/pets?limit=5', status: 200 }),
      answer({ path: '/pets/abc', status: 400, request: { headers: { ACCEPT: 'text/html' } } }),
      answer({ path: '/pets/0', status: 400, request: { headers: { 'X-Probe': '1' } } }),
      answer({ path: '/pets/9', status: 404 }),
      answer({ path: '/pets/8', status: 429 }),
      answer({ path: '/pets/7', status: 503, headers: { 'Retry-After': '1' }, retried: true }),
      answer({ path: '/pets/6', status: 503, headers: { 'Retry-After': '1' } }),
      answer({ path: '/pets/5', status: 503 }),
      answer({ path: '//pets', status: 404 }),
      answer({ method: 'POST', path: '/pets', status: 401, request: { rawBody: '{}' } }),
    ]);
    expect(copies.map(({ request }) => request)).toEqual([
      { method: 'GET', path: '/pets?limit=0', headers: { Accept: '*/*' } },
      { method: 'GET', path: '/pets?limit=0', headers: { Accept: BROWSER_NAVIGATION_ACCEPT } },
      { method: 'GET', path: '/pets?limit=0', withoutAccept: true },
      { method: 'GET', path: '/pets/0', headers: { 'X-Probe': '1', Accept: '*/*' } },
      {
        method: 'GET',
        path: '/pets/0',
        headers: { 'X-Probe': '1', Accept: BROWSER_NAVIGATION_ACCEPT },
      },
      { method: 'GET', path: '/pets/0', headers: { 'X-Probe': '1' }, withoutAccept: true },
      { method: 'GET', path: '/pets/9', headers: { Accept: '*/*' } },
      { method: 'GET', path: '/pets/9', headers: { Accept: BROWSER_NAVIGATION_ACCEPT } },
      { method: 'GET', path: '/pets/9', withoutAccept: true },
      { method: 'POST', path: '/pets', rawBody: '{}', headers: { Accept: '*/*' } },
      { method: 'POST', path: '/pets', rawBody: '{}', withoutAccept: true },
    ]);
  });

  it('have their answers judged: an HTML error page for */* fails the run', async () => {
    const { report } = await runAgainst(
      { faults: ['errors-html-unless-json-accepted'] },
      { only: ['errors'] },
    );
    const result = resultOf(report, 'errors.json-body');
    expect(result.outcome).toBe('fail');
    expect(result.message).toMatch(
      /answered 40[14]: Content-Type is "text\/html"[\s\S]*'Accept: \*\/\*'/,
    );
  });

  it('leave out a copy of a body refused unread whose connection closed before any answer, and judge the others', async () => {
    // A refused create's copies (Accept: */* and none) are closed unanswered, as a front may
    // drop the answer to a body the server refused unread; a read's copy so closed still fails.
    const closing = (reads: boolean, refusing = 'auth.createPet.missing-header') =>
      runAgainst(
        {
          closeUnanswered: (req) =>
            req.headers.accept !== 'application/json' && (reads || req.method === 'POST'),
        },
        { only: ['errors', refusing] },
      );
    const { report } = await closing(false);
    const closed = report.requests.filter((r) => r.status === null);
    expect(closed.map((r) => r.method)).toContain('POST');
    expect(closed.every((r) => r.method === 'POST')).toBe(true);
    expect(resultOf(report, 'errors.json-body').outcome).toBe('pass');
    const reads = await closing(true);
    expect(resultOf(reads.report, 'errors.json-body').outcome).toBe('fail');
    expect(resultOf(reads.report, 'errors.json-body').message).toMatch(/^GET \/pets/);
    // A 400 to a body the server read whole (malformed JSON) is no refusal of it unread.
    const read = await closing(false, 'createPet.malformed-json');
    expect(resultOf(read.report, 'errors.json-body').outcome).toBe('fail');
    expect(resultOf(read.report, 'errors.json-body').message).toMatch(/^POST \/pets/);
  });

  it('fail errors.json-body when one gets no answer, and leave the others judged', async () => {
    // The first getPet answered 404 (the preflight's) is answered once, then never: each of its
    // copies times out.
    let sent = 0;
    const { report } = await runAgainst(
      { hang: (_, path) => path === '/pets/1' && sent++ > 0 },
      { timeoutMs: 2_000, only: ['errors'] },
    );
    expect(report.requests.filter((r) => r.status === null)).toMatchObject([
      { path: '/pets/1' },
      { path: '/pets/1' },
      { path: '/pets/1' },
    ]);
    for (const oracle of ANSWER_ORACLES) {
      const result = resultOf(report, oracle.id);
      if (oracle.id === 'errors.json-body') {
        expect(result.outcome).toBe('fail');
        expect(result.message).toMatch(
          /^GET \/pets\/1: no answer within 2000 ms\nreplay: curl .*-H 'Accept: \*\/\*'$/,
        );
      } else expect(result.outcome, `${oracle.id}: ${result.message}`).toBe('pass');
    }
  });
});
