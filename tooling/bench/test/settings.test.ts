import { describe, expect, it } from 'vitest';
import { HELP, parseSettings } from '../src/settings.js';

describe('the command line', () => {
  it('takes the defaults of a full run when given nothing', () => {
    const settings = parseSettings([]);
    expect(settings).toMatchObject({
      smoke: false,
      endpoints: ['list', 'sold', 'get', 'create'],
      growth: [1000, 100_000, 1_000_000],
      rounds: 5,
      measure: { durationS: 4 },
      warmup: { durationS: 2 },
      connections: 100,
      pipelining: 10,
      createWarmupRequests: 20_000,
      pin: true,
      node: undefined,
      tracing: undefined,
      ref: [],
      out: undefined,
    });
  });

  it('reads lists, numbers and flags, and "off" for no growth runs', () => {
    const argv = ['--endpoints', 'get, list', '--growth', 'off', '--rounds', '9', '--no-pin'];
    expect(parseSettings([...argv, '--duration', '1.5', '--create-warmup', '5000'])).toMatchObject({
      endpoints: ['get', 'list'],
      createWarmupRequests: 5000,
      growth: [],
      rounds: 9,
      measure: { durationS: 1.5 },
      pin: false,
    });
  });

  it('counts responses instead of time in a smoke run', () => {
    expect(parseSettings(['--smoke'])).toMatchObject({
      smoke: true,
      rounds: 1,
      measure: { durationS: 0.5, amount: 100 },
      warmup: { durationS: 0.25, amount: 100 },
    });
  });

  it('answers --help and -h with the usage, which lists every option', () => {
    expect(parseSettings(['--help'])).toBe('help');
    expect(parseSettings(['-h'])).toBe('help');
    for (const option of ['--smoke', '--endpoints LIST', '--no-pin', '--readme FILE']) {
      expect(HELP).toContain(option);
    }
  });

  it('takes the API variants: another Node.js binary, a sampling ratio, a commit', () => {
    const argv = ['--node', '/opt/node24/bin/node', '--tracing', '0.01', '--ref', 'f8ab415'];
    expect(parseSettings(argv)).toMatchObject({
      node: '/opt/node24/bin/node',
      tracing: 0.01,
      ref: ['f8ab415'],
    });
    expect(() => parseSettings(['--tracing', '2'])).toThrow('--tracing must be a ratio');
    expect(() => parseSettings(['--tracing', '0'])).toThrow('--tracing must be a ratio');
  });

  it('takes --ref again for every further commit, in the order given', () => {
    const argv = ['--ref', '31d1d9e', '--ref', '177583c', '--ref', 'main~3'];
    expect(parseSettings(argv)).toMatchObject({ ref: ['31d1d9e', '177583c', 'main~3'] });
  });

  it('names the report by its path without extension, with or without .json or .md', () => {
    expect(parseSettings(['--out', 'results/head-bound'])).toMatchObject({
      out: 'results/head-bound',
    });
    expect(parseSettings(['--out', 'results/head-bound.json'])).toMatchObject({
      out: 'results/head-bound',
    });
    expect(parseSettings(['--out', 'head-bound.md'])).toMatchObject({ out: 'head-bound' });
  });

  it('refuses an unknown endpoint, a bad number and an unknown option', () => {
    expect(() => parseSettings(['--endpoints', 'list,delete'])).toThrow(
      '--endpoints: unknown "delete" (one of list, sold, get, create)',
    );
    expect(() => parseSettings(['--rounds', '2.5'])).toThrow('--rounds must be a positive integer');
    expect(() => parseSettings(['--duration', '0'])).toThrow(
      '--duration must be a positive number',
    );
    expect(() => parseSettings(['--growth', '1000,x'])).toThrow('--growth');
    expect(() => parseSettings(['--store', 'mongo'])).toThrow();
  });
});
