import { describe, expect, it } from 'vitest';
import { ANSWER_ORACLES } from '../src/oracles.js';
import { resultOf, runAgainst } from './support/run-kit.js';

// The oracles judge every answer of the run: the preflight, the name-shape probe and the reads
// before the first pet as much as the checks' own requests.
describe.concurrent('the oracles', () => {
  it.each([
    // A lenient server redirects other spellings of a path: it gets two requests for one answer.
    // It also leaves its Errors' code and message blank, which the `should` oracle advises on.
    ['the reference', {}, true, 'pass'],
    ['a lenient server', { lenient: true }, false, 'advisory'],
  ] as const)('judge every answer %s gives, one per request sent', async (_, server, noRedirects, advised) => {
    const { report, server: fake } = await runAgainst(server);
    const sent = report.requests.length;
    expect(sent).toBeGreaterThan(0);
    expect(report.requests.every((r) => r.status !== null)).toBe(true);
    if (noRedirects) expect(fake.requests.length).toBe(sent);
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
