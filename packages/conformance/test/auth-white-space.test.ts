import { describe, expect, it } from 'vitest';
import { keyCredential } from '../src/http/replay.js';
import { writtenFor } from './support/recording-server.js';
import { rawAnswer, runBehindRefusingFront } from './support/refusing-front.js';
import { notPassed, resultOf, runAgainst } from './support/run-kit.js';

// `auth.white-space-around-value`: the valid Authorization with spaces and tabs around it, which
// RFC 9112 §5.1 makes no part of the value. fetch takes such white space off, so the kit writes
// these requests itself, and never sends them again another way.

const CHECK = 'auth.white-space-around-value';
const KEY = 'secret-key-1';

/** An Authorization line with white space beyond the one space after the colon, at either end. */
const PADDED = /\r\nauthorization:( [ \t]|\t)|\r\nauthorization:[^\r\n]*[ \t]\r\n/i;

describe('white space around Authorization, on the wire', () => {
  it('goes as written, after the colon and its space', async () => {
    const { bytes } = await writtenFor(
      {
        method: 'GET',
        path: '/pets?limit=1',
        authorization: keyCredential('\tBearer ', KEY, ' \t'),
      },
      { raw: true, apiKey: KEY },
    );
    expect(bytes.toString('latin1')).toContain(`\r\nauthorization: \tBearer ${KEY} \t\r\n`);
  });
});

const runBehind = (refuse: (text: string) => string | undefined) =>
  runBehindRefusingFront([CHECK], refuse);

describe('the check of white space around Authorization', () => {
  it('passes a server whose HTTP layer takes it off', async () => {
    const { report } = await runAgainst({}, { only: [CHECK] });
    expect(resultOf(report, CHECK)).toMatchObject({ level: 'should', outcome: 'pass' });
  });

  it('advises a server that reads it as part of the key, which the checks of every answer leave alone', async () => {
    const refusal = { code: 'unauthorized', message: 'bad key', status: 401 };
    const { report, refused } = await runBehind((text) =>
      PADDED.test(text) ? rawAnswer(401, refusal) : undefined,
    );
    expect(refused).toBe(2);
    expect(resultOf(report, CHECK)).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^GET \/pets\?limit=1 with spaces before "Bearer" and a space and a tab after the valid key answered 401, expected 200 \(and 1 more\)/,
      ),
    });
    expect(notPassed(report)).toEqual([expect.stringMatching(/^auth\.white-space-around-value/)]);
  });

  it('advises a server that closes the connection unanswered, never sending the read again without it', async () => {
    const { report, refused } = await runBehind((text) => (PADDED.test(text) ? '' : undefined));
    // Sent again by fetch, which takes the white space off, the read would pass.
    expect(refused).toBe(2);
    expect(resultOf(report, CHECK)).toMatchObject({
      outcome: 'advisory',
      message: expect.stringMatching(
        /^GET \/pets\?limit=1 failed: .+ \(with spaces before "Bearer" and a space and a tab after the valid key\) \(and 1 more\)\nreplay: curl /,
      ),
    });
  });
});
