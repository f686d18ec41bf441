import { describe, expect, it } from 'vitest';
import { HELP, runKeysCli } from '../src/keys/keys-cli-main.js';

/** Runs the CLI in process; these cases never reach a database. */
async function run(args: string[], env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const write = (stream: keyof typeof out) => (text: string) => {
    out[stream] += text;
  };
  const exitCode = await runKeysCli(args, {
    stdout: write('stdout'),
    stderr: write('stderr'),
    env,
  });
  return { ...out, exitCode };
}

const WITH_DB = { MONGODB_URI: 'mongodb://127.0.0.1:1/' };

describe('keys CLI usage', () => {
  it.each([
    ['--help'],
    ['-h'],
    ['create', 'x', '--help'],
  ])('prints the help for %s', async (...args) => {
    const result = await run(args);
    expect(result).toEqual({ stdout: HELP, stderr: '', exitCode: 0 });
  });

  it.each([
    [[], /a command is required/],
    [['rotate', 'x'], /unknown command "rotate"/],
    [['create'], /create needs a key name/],
    [['revoke'], /revoke needs a key name/],
    [['create', 'a', 'b'], /create takes one name/],
    [['list', 'x'], /list takes no argument/],
    [['create', 'has space'], /is not a key name/],
    [['create', '-dash-first'], /Unknown option/],
    [['create', 'env:abc'], /is not a key name/],
    [['create', 'x'.repeat(65)], /is not a key name/],
    [['list', '--all'], /Unknown option '--all'/],
  ])('exits 2 with one line on stderr for %j', async (args, message) => {
    const result = await run(args, WITH_DB);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses to run without MONGODB_URI', async () => {
    const result = await run(['list']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/MONGODB_URI is not set/);
  });

  it('refuses a bad MONGODB_DB before connecting', async () => {
    const result = await run(['list'], { ...WITH_DB, MONGODB_DB: 'a b' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/MONGODB_DB must be/);
  });

  it('exits 1 with one line when MongoDB cannot be reached', async () => {
    const result = await run(['list'], WITH_DB);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^animal-store-keys: cannot reach MongoDB: .*\n$/);
  });
});
