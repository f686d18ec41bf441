import { describe, expect, it } from 'vitest';
import { HELP, parseSettings } from '../src/settings.js';

describe('the command line', () => {
  it('takes the defaults of a full run when given nothing', () => {
    expect(parseSettings([])).toMatchObject({
      smoke: false,
      endpoints: ['list', 'sold', 'get', 'create'],
      rounds: 8,
      pets: 1000,
      measure: { durationS: 2.5 },
      warmup: { durationS: 1 },
      createWarmup: 5000,
      connections: 100,
      pipelining: 10,
      tracing: 0.01,
      recordedWarmup: 1000,
      rssPets: 50_000,
      settle: true,
      pin: true,
      out: undefined,
      writeReadme: false,
      control: false,
    });
  });

  it('reads lists, numbers and flags, and runs the creates last', () => {
    const argv = ['--endpoints', 'create, get', '--rounds', '4', '--no-pin', '--duration', '1.5'];
    expect(parseSettings([...argv, '--tracing', 'off', '--rss-pets', '0'])).toMatchObject({
      endpoints: ['get', 'create'],
      rounds: 4,
      measure: { durationS: 1.5 },
      tracing: undefined,
      rssPets: 0,
      pin: false,
    });
  });

  it('counts requests and waits for no idle server in a smoke run; runs longer with --long', () => {
    expect(parseSettings(['--smoke'])).toMatchObject({
      smoke: true,
      rounds: 1,
      measure: { amount: 20 },
      warmup: { amount: 10 },
      recordedWarmup: 1,
      settle: false,
    });
    expect(parseSettings(['--long'])).toMatchObject({ rounds: 16, measure: { durationS: 5 } });
  });

  it('answers --help and -h with the usage, which lists every option', () => {
    expect(parseSettings(['--help'])).toBe('help');
    expect(parseSettings(['-h'])).toBe('help');
    for (const option of [
      '--smoke',
      '--endpoints LIST',
      '--no-pin',
      '--write-readme',
      '--from FILE',
    ]) {
      expect(HELP).toContain(option);
    }
  });

  it('names the report by its path without extension, with or without .json or .md', () => {
    expect(parseSettings(['--out', 'results/x'])).toMatchObject({ out: 'results/x' });
    expect(parseSettings(['--out', 'results/x.json'])).toMatchObject({ out: 'results/x' });
    expect(parseSettings(['--out', 'x.md'])).toMatchObject({ out: 'x' });
  });

  it('refuses an unknown endpoint, a bad number or ratio, a lone --from and an unknown option', () => {
    expect(() => parseSettings(['--endpoints', 'list,delete'])).toThrow(
      '--endpoints: unknown "delete" (one of list, sold, get, create)',
    );
    expect(() => parseSettings(['--rounds', '2.5'])).toThrow('--rounds must be a positive integer');
    expect(() => parseSettings(['--rounds', '0'])).toThrow('--rounds must be a positive integer');
    expect(() => parseSettings(['--duration', '0'])).toThrow(
      '--duration must be a positive number',
    );
    expect(() => parseSettings(['--tracing', '2'])).toThrow('--tracing must be a ratio');
    expect(() => parseSettings(['--control', '--tracing', 'off'])).toThrow(
      '--control runs beside the untraced API of the tracing group: it needs --tracing',
    );
    expect(parseSettings(['--control'])).toMatchObject({ control: true, tracing: 0.01 });
    expect(() => parseSettings(['--from', 'r.json'])).toThrow(
      '--from only goes with --write-readme',
    );
    expect(() => parseSettings(['--store', 'mongo'])).toThrow();
  });
});
