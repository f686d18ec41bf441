import { describe, expect, it } from 'vitest';
import { resultOf, runAgainst } from './support/run-kit.js';

// HEAD on listPets and getPet, sent then GET on one connection: the spec names GET alone, so
// what HTTP asks of HEAD is advised, never failed. The store holds pets of others: getPet's
// HEAD goes to one it lists.
const ONLY = { only: ['listPets.head', 'getPet.head'] };
const STORE = 'preloaded-store';

describe('HEAD on the reads', () => {
  it('passes a server that answers HEAD as GET, sending HEAD then GET on one connection', async () => {
    const { report, server } = await runAgainst({ choices: [STORE] }, ONLY);
    for (const id of ['listPets.head', 'getPet.head']) {
      expect(resultOf(report, id)).toMatchObject({ level: 'should', outcome: 'pass' });
    }
    expect(resultOf(report, 'getPet.head').message).toMatch(
      /^HEAD answered as GET: \/pets\/\d+: 200, \/pets\/9007199254740991: 404, \/pets\/\d+: 401$/,
    );
    const heads = server.requests.filter((r) => r.method === 'HEAD').map((r) => r.path);
    expect(heads).toEqual([
      '/pets?limit=1',
      '/pets?limit=1',
      expect.stringMatching(/^\/pets\/\d+$/),
      '/pets/9007199254740991',
      expect.stringMatching(/^\/pets\/\d+$/),
    ]);
  });

  it('sends no listed pet on an empty store: the missing one and the keyless read of it', async () => {
    const { report, server } = await runAgainst({}, ONLY);
    expect(resultOf(report, 'getPet.head').message).toBe(
      'HEAD answered as GET: /pets/9007199254740991: 404, /pets/9007199254740991: 401',
    );
    expect(server.requests.filter((r) => r.method === 'HEAD').map((r) => r.path)).toEqual([
      '/pets?limit=1',
      '/pets?limit=1',
      '/pets/9007199254740991',
      '/pets/9007199254740991',
    ]);
  });

  it('fails, naming no body, a GET after HEAD that gets no answer in time', async () => {
    // The preflight's reads are answered; a GET that follows a HEAD is not.
    let headSeen = false;
    const hang = (method: string, path: string) => {
      if (method === 'HEAD') headSeen = true;
      return headSeen && method === 'GET' && path === '/pets?limit=1';
    };
    const only = { only: ['listPets.head'], timeoutMs: 1_000 };
    const { report } = await runAgainst({ hang }, only);
    const { outcome, message } = resultOf(report, 'listPets.head');
    expect(outcome).toBe('advisory');
    expect(message).toMatch(/^GET \/pets\?limit=1: no answer within 1000 ms/);
    expect(message).not.toMatch(/read as the GET's answer/);
  });

  it('advises a HEAD answered without the key check its GET has, naming both statuses', async () => {
    const { report } = await runAgainst({ choices: [STORE, 'head-skips-auth'] }, ONLY);
    const { outcome, message } = resultOf(report, 'listPets.head');
    expect(outcome).toBe('advisory');
    expect(message).toMatch(
      /^HEAD \/pets\?limit=1 without a key answered 200 where GET answered 401/,
    );
    expect(report.verdict).toBe('pass');
  });

  it('advises a HEAD refused with 405', async () => {
    const { report } = await runAgainst({ choices: [STORE, 'head-405'] }, ONLY);
    expect(resultOf(report, 'getPet.head').message).toMatch(
      /^HEAD \/pets\/\d+ with the key answered 405 where GET answered 200/,
    );
  });

  it('advises a body written after the head, read as the start of the next answer', async () => {
    const { report } = await runAgainst({ choices: [STORE, 'head-with-body'] }, ONLY);
    const { outcome, message } = resultOf(report, 'listPets.head');
    expect(outcome).toBe('advisory');
    expect(message).toMatch(
      /^HEAD \/pets\?limit=1 with the key answered 200, and what followed on its connection was read as the GET's answer: not an HTTP answer: "\{\\"code\\":\\"head\\"/,
    );
  });
});
