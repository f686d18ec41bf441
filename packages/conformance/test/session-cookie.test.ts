// A session the key opened is no key (spec §5): the cookies a server set on answers to the key,
// sent back without Authorization, get 401. The cookie is the server's secret as the key is the
// run's: no report shows it.
import { describe, expect, it } from 'vitest';
import { renderJson } from '../src/index.js';
import { resultOf, runAgainst } from './support/run-kit.js';

const only = ['auth.session-cookie'];

describe('auth.session-cookie', () => {
  it('fails a server that serves the session cookie alone, and shows no cookie in the report', async () => {
    const { report } = await runAgainst({ faults: ['auth-session-cookie'] }, { only });
    const { outcome, message } = resultOf(report, 'auth.session-cookie');
    expect(outcome).toBe('fail');
    expect(message).toMatch(
      /^GET \/pets\?limit=1 without Authorization, with the cookie the server set answered 200, expected 401\n/,
    );
    expect(message).toMatch(/-H 'Cookie: \[redacted key\]'/);
    const written = renderJson(report);
    expect(written).not.toMatch(/sid=[0-9a-f]{24}/);
    expect(written).not.toMatch(/[0-9a-f]{24}/);
  });

  it('passes a server whose cookie opens nothing, sending it back on each read', async () => {
    const { report } = await runAgainst({ choices: ['sets-affinity-cookie'] }, { only });
    const { outcome, message } = resultOf(report, 'auth.session-cookie');
    expect(outcome).toBe('pass');
    // One cookie of each name (the last set), on the list and on a listed pet when there is one.
    expect(message).toMatch(
      /^GET \/pets\?limit=1 without Authorization, with the cookie the server set answered 401(; GET \/pets\/\d+ .+ answered 401)?$/,
    );
  });

  it('passes a server that sets no cookie, with nothing to send back', async () => {
    const { report } = await runAgainst({}, { only });
    expect(resultOf(report, 'auth.session-cookie')).toMatchObject({
      outcome: 'pass',
      message: 'the server set no cookie on an answer to the key',
    });
  });
});
