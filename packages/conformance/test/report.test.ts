import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { LONG_NAME_LENGTHS, NON_ASCII_TEXT, TYPED_LOOKING_NAMES } from '../src/cases/names.js';
import { caseLevel, fieldCases, NEW_PET_FIELDS } from '../src/cases/new-pet.js';
import { counterLetters, FILL_LETTERS, NAME_MAX, newRunId } from '../src/fixtures.js';
import { CHECKS, type CheckResult, type ConformanceReport } from '../src/index.js';
import { type FakeServer, type FakeServerOptions, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';
import { resultOf } from './support/run-kit.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A key long and odd enough that any trace of it in a report is found. */
const KEY = 'Kit-Key-7f3a9c2e5b1d';

async function target(options: FakeServerOptions = {}) {
  const server = await startFakeServer({ apiKey: KEY, ...options });
  servers.push(server);
  return { server, args: ['--base-url', server.baseUrl, '--api-key', KEY] };
}

/** The replay line of a failed check's message. */
function replayOf(result: CheckResult): string {
  const line = result.message.split('\n').find((l) => l.startsWith('replay: '));
  if (line === undefined) throw new Error(`no replay line in: ${result.message}`);
  return line.slice('replay: '.length);
}

/** Runs a replay line in bash with the key in the environment; returns the status it got. */
async function replay(line: string): Promise<number> {
  const { stdout } = await promisify(execFile)('bash', ['-c', line], {
    env: { ...process.env, ANIMAL_STORE_API_KEY: KEY },
  });
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(stdout)?.[1]);
}

describe('a failure in the report', () => {
  it('carries a curl line that replays the request, with the key only as $ANIMAL_STORE_API_KEY', async () => {
    // Each key variant is sent in its own shell form: the line must reproduce the server's answer.
    const { args } = await target({
      faults: ['auth-key-prefix-match', 'auth-accepts-key-prefix'],
      choices: ['key-case-insensitive'],
    });
    // The auth group sends every key variant (the other letter case an advisory's).
    const { stdout } = await runCli([...args, '--only', 'auth', '--reporter', 'json']);
    const report = JSON.parse(stdout) as ConformanceReport;
    const ids = ['auth.getPet.key-case-changed', 'auth.listPets.key-appended'];
    ids.push('auth.listPets.key-truncated', 'auth.createPet.key-case-changed');
    for (const id of ids) {
      const result = resultOf(report, id);
      expect(result.outcome, id).toBe(/key-case-changed/.test(id) ? 'advisory' : 'fail');
      const line = replayOf(result);
      expect(line).toMatch(/\$\{?ANIMAL_STORE_API_KEY/);
      expect(await replay(line), line).toBe(/createPet/.test(id) ? 201 : 200);
    }
    expect(stdout).not.toContain(KEY);
  });

  it('quotes the Error code and message the server answered with', async () => {
    const { args } = await target({ faults: ['get-400-for-absent'] });
    const report = JSON.parse(
      (await runCli([...args, '--only', 'getPet', '--reporter', 'json'])).stdout,
    );
    const result = resultOf(report, 'getPet.not-found');
    expect(result.message).toContain(
      'server said: code "validation_failed", message "no such pet"',
    );
    expect(await replay(replayOf(result))).toBe(400);
  });

  it('never lets a server’s control characters reach the terminal, and cuts long text', async () => {
    const hostile = `\u001b[2J\u001b]0;owned\u0007${'x'.repeat(500)}`;
    const { args } = await target({ faults: ['get-400-for-absent'], errorMessage: hostile });
    const { stdout, stderr } = await runCli(args);
    for (const text of [stdout, stderr]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    }
    expect(stdout).toContain('\\u001b[2J');
    expect(stdout).not.toContain('x'.repeat(201));
    expect(stdout).not.toContain(KEY);
  });
});

describe('the inputs the kit sends', () => {
  it('writes the run id and the counter of its names in letters', () => {
    expect(newRunId()).toMatch(/^[a-p]{8}$/);
    expect([1, 2, 26, 27, 52, 702, 703].map(counterLetters)).toEqual([
      'a',
      'b',
      'z',
      'aa',
      'az',
      'zz',
      'aaa',
    ]);
  });

  it('names its pets with at most 16 of [a-z0-9-] (but for the name checks), carrying the run id, and uses the categories given', async () => {
    const { args, server } = await target();
    const { stdout } = await runCli([
      ...args,
      '--reporter',
      'json',
      '--category-id',
      '5, 9007199254740993',
      '--name-prefix',
      'x-',
    ]);
    const { runId } = JSON.parse(stdout);
    // Every body with a string name and an integer categoryId: the pets meant to be created.
    const created = server.requests
      .filter((r) => r.method === 'POST')
      .flatMap((r) => {
        const name = /"name":("(?:[^"\\]|\\.)*")/.exec(r.body)?.[1];
        const categoryId = /"categoryId":(-?\d+)[,}]/.exec(r.body)?.[1];
        return name === undefined || categoryId === undefined
          ? []
          : [{ name: JSON.parse(name) as string, categoryId }];
      });
    // The name checks send longer names and names beyond ASCII, tagged the same way.
    const probes = new Set([...LONG_NAME_LENGTHS.map(String), 'non-ASCII', 'fill']);
    const unusual = new Set<string>();
    for (const { name: sent } of created) {
      // The string boundaries: blank names, and tagged names padded or followed by " \ / markup
      // or controls (NUL before an n); names followed by bytes that are no UTF-8 (read here as U+FFFD); and names
      // ending in surrogates without their pair (one before a letter).
      const name = sent
        .trim()
        .replace(/("q|\\b|\/s|&<b>'s|\0n|[\p{Cc}]+|\ufffd+\(?|\p{Cs}+x?)$/u, '');
      // And names that read as another type, whose look is the whole string.
      if (name === '' || TYPED_LOOKING_NAMES.some((c) => c.name === sent)) continue;
      // The pets that fill the store: long names, their letters beyond ASCII.
      expect(name).toMatch(
        new RegExp(`^x-${runId}[a-z]+(${NON_ASCII_TEXT}|[${FILL_LETTERS}]+)?$`, 'u'),
      );
      if (name.endsWith(NON_ASCII_TEXT)) unusual.add('non-ASCII');
      else if (new RegExp(`[${FILL_LETTERS}]$`, 'u').test(name)) unusual.add('fill');
      else if (name.length > NAME_MAX) unusual.add(String(name.length));
    }
    expect(unusual).toEqual(probes);
    // Besides the checks that try large or invalid categoryIds, only the ones given are used.
    const given = created.filter((c) => ['5', '9007199254740993'].includes(c.categoryId));
    expect(given.length).toBeGreaterThan(10);
    expect(given.length).toBeGreaterThan(created.length - 20);
  });

  it.each([
    [['--category-id', 'abc'], /--category-id "abc" is not an int64 integer/],
    [['--category-id', '9223372036854775808'], /is not an int64 integer/],
    [['--name-prefix', 'toolong'], /--name-prefix "toolong" must be at most 4/],
    [['--name-prefix', 'A'], /--name-prefix "A"/],
    [['--settle-ms=-1'], /--settle-ms must be a whole number/],
    [['--seed', '1.5'], /--seed must be a whole number/],
  ])('refuses %j with exit status 2', async (extra, message) => {
    const { args } = await target();
    const { stderr, exitCode } = await runCli([...args, ...extra]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('draws the generated cases from the seed: the same seed sends the same values', async () => {
    // The createPet group's checks send every generated case.
    const bodies = async (seed: string) => {
      const { args, server } = await target();
      const only = ['--only', 'createPet'];
      const { stdout } = await runCli([...args, ...only, '--seed', seed, '--reporter', 'json']);
      expect(JSON.parse(stdout).seed).toBe(Number(seed));
      // Names carry the run id, which differs from run to run: compare everything else (a name
      // written in \u escapes too).
      const nameless = (body: string) => {
        try {
          const value = JSON.parse(body);
          if (value !== null && typeof value === 'object' && 'name' in value) value.name = '';
          return JSON.stringify(value);
        } catch {
          return body;
        }
      };
      return server.requests
        .filter((r) => r.method === 'POST')
        .map((r) =>
          nameless(r.body)
            .replace(/"name":\s*"[^"]*"/, '"name":""')
            .replace(/cf[a-p]{8}/g, 'cf'),
        );
    };
    const first = await bodies('12345');
    expect(await bodies('12345')).toEqual(first);
    expect(await bodies('54321')).not.toEqual(first);
  });

  it('generates, per field, every other JSON type and the field’s near-misses', () => {
    const byName = new Map(NEW_PET_FIELDS.map((f) => [f.name, f]));
    expect([...byName.keys()]).toEqual(['name', 'categoryId', 'status']);
    const status = fieldCases(byName.get('status') as never, 7);
    const literals = status.map((c) => c.literal);
    expect(literals).toEqual(expect.arrayContaining(['null']));
    expect(status.find((c) => c.literal === 'null')?.kind).toBe('null');
    expect(literals).toEqual(expect.arrayContaining(['"reserved"', '"adopted"', '"archived"']));
    expect(literals.some((l) => /^" \w+"$/.test(l))).toBe(true);
    expect(literals.some((l) => /^"[A-Z]+"$/.test(l))).toBe(true);
    const categoryId = fieldCases(byName.get('categoryId') as never, 7).map((c) => c.literal);
    expect(categoryId).toEqual(expect.arrayContaining(['null', expect.stringMatching(/^"\d+"$/)]));
    expect(categoryId.some((l) => /^\d+\.0000000000000001$/.test(l))).toBe(true);
    const integers = categoryId.filter((l) => /^-?\d+$/.test(l)).map(BigInt);
    expect(integers.some((n) => n >= 2n ** 63n)).toBe(true);
    expect(integers.some((n) => n < -(2n ** 63n))).toBe(true);
    for (const field of NEW_PET_FIELDS) {
      expect(fieldCases(field, 1)).toEqual(fieldCases(field, 1));
      expect(fieldCases(field, 1).every((c) => c.kind !== 'null' || c.literal === 'null')).toBe(
        true,
      );
    }
  });
});

describe('the registry', () => {
  it('sends as a must case only numbers a parser that holds doubles sees as no int64 integer', () => {
    for (let seed = 0; seed < 50; seed++) {
      for (const field of NEW_PET_FIELDS.filter((f) => f.schema.type === 'integer')) {
        for (const c of fieldCases(field, seed)) {
          const value: unknown = JSON.parse(c.literal);
          if (typeof value !== 'number') continue;
          const seenAsInt64 = Number.isInteger(value) && Math.abs(value) <= 2 ** 63;
          expect(caseLevel(c.kind), `${field.name} ${c.literal}`).toBe(
            seenAsInt64 ? 'should' : 'must',
          );
        }
      }
    }
  });

  it('never requires what the spec leaves open: categoryId 0 or a negative id is never sent as invalid', () => {
    const categoryId = NEW_PET_FIELDS.find((f) => f.name === 'categoryId');
    for (let seed = 0; seed < 50; seed++) {
      for (const c of fieldCases(categoryId as never, seed)) {
        if (/^-?\d+$/.test(c.literal)) {
          const value = BigInt(c.literal);
          expect(value < -(2n ** 63n) || value >= 2n ** 63n, c.literal).toBe(true);
        }
      }
    }
    expect(CHECKS.length).toBeGreaterThan(70);
  });
});
