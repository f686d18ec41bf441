// A create the server refused (401 without a valid key, 400 to a body that is no NewPet) creates
// nothing (spec §4.2, §5); OPTIONS, none of the spec's operations, shows no pet without a key.
import { describe, expect, it } from 'vitest';
import { resultOf, runAgainst } from './support/run-kit.js';

describe('createPet.refused-stores-nothing', () => {
  it.each([
    'lower',
    'upper',
    'words',
  ] as const)('finds the pet a create refused with 401 stored, whatever the names’ shape (%s)', async (nameShape) => {
    const { report } = await runAgainst(
      { faults: ['create-stores-then-checks-key'] },
      { only: ['auth.createPet.missing-header', 'createPet.refused-stores-nothing'], nameShape },
    );
    const { outcome, message } = resultOf(report, 'createPet.refused-stores-nothing');
    expect(outcome).toBe('fail');
    expect(message).toMatch(
      /^GET \/pets\?limit=100 shows pet \d+ named ".+", sent only in creates refused, as POST \/pets without Authorization answered 401\n/,
    );
  });

  it('passes a server that stores nothing it refused, saying what it looked at', async () => {
    const { report } = await runAgainst(
      {},
      { only: ['auth.createPet.missing-header', 'createPet.refused-stores-nothing'] },
    );
    expect(resultOf(report, 'createPet.refused-stores-nothing')).toMatchObject({
      outcome: 'pass',
      message: expect.stringMatching(
        /^1 name sent only in refused creates: none among \d+ pets listed, nor at \d+ ids between the run's own$/,
      ),
    });
  });

  it('skips, judging nothing, when no create was refused', async () => {
    const { report } = await runAgainst({}, { only: ['createPet.refused-stores-nothing'] });
    expect(resultOf(report, 'createPet.refused-stores-nothing')).toMatchObject({
      outcome: 'skip',
      message: 'no create of the run was refused with 401 or 400: nothing to look for',
    });
  });
});

describe('auth.options-shows-nothing', () => {
  it('passes a server that closes the connection on OPTIONS, unanswered', async () => {
    const { report } = await runAgainst(
      { choices: ['drops-other-methods'] },
      { only: ['auth.options-shows-nothing'] },
    );
    const { outcome, message } = resultOf(report, 'auth.options-shows-nothing');
    expect(outcome).toBe('pass');
    expect(message).toMatch(/^OPTIONS \/pets\?limit=1 without Authorization: no answer \(/);
  });
});
