import { LIMIT_MAX, PET_STATUSES } from '@animal-store/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BULK_PETS,
  CHECK_PETS_MAX,
  counterLetters,
  DEFAULT_NAME_PREFIX,
  FILL_LETTERS,
  FILL_NAME_LENGTHS,
  type FixtureOptions,
  Fixtures,
  MAX_CREATED,
  NAME_MAX,
  NAME_PREFIX_MAX,
  NAME_PREFIX_PATTERN,
  NAME_SHAPES,
  type NameShape,
  newPetJson,
  newRunId,
  SAMPLE_PETS,
  STORE_TARGET,
} from '../src/fixtures.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../src/http/client.js';
import { answer } from './support/answer.js';

// The pets a run creates: their names, their bodies, how the store is filled and what the kit
// learns from every answer to a create. A fake client stands in for the server.

/** How the fake server answers a create of `name`: a status, 201 creating the pet. */
type Policy = (name: string, sent: { status?: string }) => number;

/**
 * A client whose server stores what it creates and lists it, answering creates by `policy`, and
 * the fixtures over it, which observe every answer as the kit's client has them do.
 */
function fakeRun(
  policy: Policy = () => 201,
  {
    stored = 0,
    listStatus = 200,
    listed = [],
    ...options
  }: Partial<FixtureOptions> & { stored?: number; listStatus?: number; listed?: string[] } = {},
) {
  const pets: string[] = [];
  for (let i = 1; i <= stored; i++)
    pets.push(JSON.stringify({ id: i, name: `old${i}`, categoryId: 1 }));
  const sent: HttpRequest[] = [];
  const reply = (request: HttpRequest): HttpResponse => {
    if (request.method === 'GET') {
      const text = `[${[...listed, ...pets].slice(0, LIMIT_MAX).join(',')}]`;
      return answer({ path: request.path, status: listStatus, text });
    }
    const sent = JSON.parse(request.rawBody ?? '{}') as { name: string; status?: string };
    const status = policy(sent.name, sent);
    if (status < 200 || status > 299) {
      const text = JSON.stringify({ code: 'refused', message: 'no', status });
      return answer({ method: 'POST', path: request.path, status, text });
    }
    const text = `{"id":${pets.length + 1},${(request.rawBody ?? '{}').slice(1)}`;
    pets.push(text);
    return answer({ method: 'POST', path: request.path, status, text });
  };
  const http = {
    baseUrl: 'http://127.0.0.1:8080/v1',
    async send(request: HttpRequest): Promise<HttpResponse> {
      sent.push(request);
      const res = reply(request);
      f.observe(res);
      return res;
    },
  } as unknown as HttpClient;
  const f = fixtures(http, options);
  return { f, sent, pets };
}

function fixtures(http: HttpClient, options: Partial<FixtureOptions> = {}): Fixtures {
  return new Fixtures(http, {
    runId: 'abcdefgh',
    readOnly: false,
    categoryIds: ['7', '9007199254740993'],
    namePrefix: 'cf',
    settleMs: 0,
    progress: () => {},
    ...options,
  });
}

/** A client that answers every create with `status` and `text`, storing nothing. */
const answering = (status: number, text: string) =>
  ({
    async send(request: HttpRequest) {
      return answer({ method: 'POST', path: request.path, status, text });
    },
  }) as unknown as HttpClient;

/** The status a create sent. */
const statusOf = (r: HttpRequest) =>
  (JSON.parse(r.rawBody as string) as { status?: string }).status;

describe('the names of the pets a run creates', () => {
  it('count in letters, bijective base 26: no digit, each number its own name', () => {
    expect([1, 2, 26, 27, 52, 53, 702, 703, 18278, 18279].map(counterLetters)).toEqual([
      'a',
      'b',
      'z',
      'aa',
      'az',
      'ba',
      'zz',
      'aaa',
      'zzz',
      'aaaa',
    ]);
    expect(counterLetters(475254)).toBe('zzzz');
    const names = new Set<string>();
    for (let n = 1; n <= 2000; n++) names.add(counterLetters(n));
    expect(names.size).toBe(2000);
  });

  it('carry a run id of 8 letters a to p, new each run', () => {
    const ids = new Set(Array.from({ length: 50 }, newRunId));
    for (const id of ids) expect(id).toMatch(/^[a-p]{8}$/);
    expect(ids.size).toBeGreaterThan(45);
  });

  it('stay within NAME_MAX with the longest prefix, up to the counter’s last name', () => {
    expect(NAME_PREFIX_MAX).toBe(4);
    const longest = `${'p'.repeat(NAME_PREFIX_MAX)}${'a'.repeat(8)}${counterLetters(475254)}`;
    expect(longest.length).toBe(NAME_MAX);
  });

  it('take a prefix of lower-case letters, digits and dashes, cf by default', () => {
    for (const prefix of ['', 'ab-1', DEFAULT_NAME_PREFIX]) {
      expect(NAME_PREFIX_PATTERN.test(prefix), prefix).toBe(true);
    }
    for (const prefix of ['A', 'a_b', 'é', 'a b', '-x!', 'x\n']) {
      expect(NAME_PREFIX_PATTERN.test(prefix), prefix).toBe(false);
    }
    expect(DEFAULT_NAME_PREFIX).toBe('cf');
    expect(DEFAULT_NAME_PREFIX.length).toBeLessThanOrEqual(NAME_PREFIX_MAX);
  });

  it('take each shape in turn, from the same tag', () => {
    const shaped = Object.fromEntries(
      Object.entries(NAME_SHAPES).map(([shape, make]) => [shape, make('cfabcdefgha')]),
    );
    expect(shaped).toEqual({
      lower: 'cfabcdefgha',
      capitalised: 'Cfabcdefgha',
      upper: 'CFABCDEFGHA',
      'lower-digits': 'cfabcdefgha1',
      'capitalised-digits': 'Cfabcdefgha1',
      words: 'Cfabcdefg Ha',
    });
  });

  it('are the prefix, the run id and a counter, categoryIds taken in turn', () => {
    const { f } = fakeRun();
    expect(f.namePrefix).toBe('cfabcdefgh');
    expect([f.nextPet('sold'), f.nextPet(), f.nextPet('pending')]).toEqual([
      { name: 'cfabcdefgha', categoryId: '7', status: 'sold' },
      { name: 'cfabcdefghb', categoryId: '9007199254740993' },
      { name: 'cfabcdefghc', categoryId: '7', status: 'pending' },
    ]);
  });

  it('padded with letters beyond ASCII are exactly as long as asked, in every shape', () => {
    for (const shape of Object.keys(NAME_SHAPES) as NameShape[]) {
      for (const length of FILL_NAME_LENGTHS) {
        const { f } = fakeRun(undefined, { nameShape: shape });
        const name = f.nextLongName(length);
        expect(name.length, `${shape} ${length}`).toBe(length);
        expect(name).toContain(NAME_SHAPES[shape]('cfabcdefgha').slice(0, 9));
        expect(
          [...name].filter((c) => FILL_LETTERS.includes(c.toLowerCase())).length,
        ).toBeGreaterThan(length - 20);
      }
    }
  });

  it('write a NewPet with its categoryId as exact integer text', () => {
    expect(newPetJson({ name: 'a"b', categoryId: '9007199254740993', status: 'sold' })).toBe(
      '{"name":"a\\"b","categoryId":9007199254740993,"status":"sold"}',
    );
    expect(newPetJson({ name: 'x', categoryId: '1' })).toBe('{"name":"x","categoryId":1}');
  });
});

describe('the search for a name shape the server takes', () => {
  it('keeps the first shape the server creates a pet with, and what it sent for it', async () => {
    const server = fakeRun((name) => (/^[A-Z]+$/.test(name) ? 201 : 400));
    const { f } = server;
    const { found, tried } = await f.findNameShape();
    expect(found).toBe(true);
    expect(f.nameShape).toBe('upper');
    expect(tried).toEqual([
      'lower ("cfabcdefgha"): 400 "no"',
      'capitalised ("Cfabcdefghb"): 400 "no"',
      'upper ("CFABCDEFGHC")',
    ]);
    expect([...f.sentById.values()].map((p) => p.name)).toEqual(['CFABCDEFGHC']);
    expect(server.sent.map((r) => [r.method, r.path, statusOf(r)])).toEqual([
      ['POST', '/pets', 'available'],
      ['POST', '/pets', 'available'],
      ['POST', '/pets', 'available'],
    ]);
  });

  it('falls back to lower case when every shape is refused', async () => {
    const { f } = fakeRun(() => 422);
    const { found, tried } = await f.findNameShape();
    expect(found).toBe(false);
    expect(tried.length).toBe(Object.keys(NAME_SHAPES).length);
    expect(f.nameShape).toBe('lower');
  });

  it('stops without a verdict at an answer that cannot tell: no key, a server error', async () => {
    for (const status of [401, 403, 500]) {
      const { f } = fakeRun(() => status);
      const { found, tried } = await f.findNameShape();
      expect(found, String(status)).toBe(true);
      expect(tried.length).toBe(1);
      expect(f.nameShape).toBe('lower');
      expect(f.sentById.size).toBe(0);
    }
  });
});

describe('what the kit learns from each answer', () => {
  const created = (path: string, id: number | string, status = 201) =>
    answer({ method: 'POST', path, status, text: `{"id":${id},"name":"a","categoryId":1}` });

  it('counts every pet a create reports, at any spelling of /pets, and a repeated id', () => {
    const { f } = fakeRun();
    f.observe(created('/pets', 1));
    f.observe(created('/PETS', 2));
    f.observe(created('//pets/', 3, 200));
    f.observe(created('/pets', 4, 299));
    f.observe(created('/pets', 2));
    f.observe(created('/pets', 1));
    expect(f.creations).toBe(6);
    expect([...f.createdIds]).toEqual(['1', '2', '3', '4']);
    expect(f.duplicateId).toBe('2');
  });

  it('counts no answer that created nothing', () => {
    const { f } = fakeRun();
    f.observe(created('/pets', 1, 400));
    f.observe(created('/pets', 1, 302));
    f.observe(created('/pets', 1, 300));
    f.observe(created('/pets', 1, 199));
    f.observe(created('/other', 1));
    f.observe(created('/v2/pets', 1));
    f.observe(answer({ method: 'POST', path: '/pets', status: 201, text: '{}' }));
    f.observe(answer({ path: '/pets', status: 200, text: '{"id":1}' }));
    expect(f.creations).toBe(0);
    expect(f.createdIds.size).toBe(0);
  });

  it('learns whether the store was empty from the first plain list before any write', () => {
    const posted = fakeRun().f;
    posted.observe(answer({ method: 'POST', path: '/pets', status: 200, text: '[]' }));
    expect(posted.emptyAtStart).toBeUndefined();
    const empty = fakeRun().f;
    const later = fakeRun().f;
    later.observe(answer({ path: '/pets?limit=20', status: 200, text: '[]' }));
    expect(later.emptyAtStart).toBe(true);
    empty.observe(answer({ path: '/pets?limit=5', status: 200, text: '[]' }));
    expect(empty.emptyAtStart).toBe(true);
    empty.observe(answer({ path: '/pets', status: 200, text: '[{"id":1}]' }));
    expect(empty.emptyAtStart).toBe(true);

    const full = fakeRun().f;
    full.observe(answer({ path: '/pets?status=sold', status: 200, text: '[]' }));
    full.observe(answer({ path: '/v2/pets', status: 200, text: '[]' }));
    full.observe(answer({ path: '/pets', status: 500, text: '[]' }));
    expect(full.emptyAtStart).toBeUndefined();
    full.observe(answer({ path: '/pets', status: 200, text: '[{"id":1}]' }));
    expect(full.emptyAtStart).toBe(false);

    const written = fakeRun().f;
    written.observe(created('/pets', 1, 400));
    written.observe(answer({ path: '/pets', status: 200, text: '[]' }));
    expect(written.emptyAtStart).toBeUndefined();
  });
});

describe('a create', () => {
  it('records what was sent for the pet the server returns, and tallies it', async () => {
    const { f } = fakeRun();
    const c = await f.create('sold');
    expect(c.id).toBe('1');
    expect(c.pet).toMatchObject({ id: 1, name: 'cfabcdefgha', status: 'sold' });
    expect(f.sentById.get('1')).toEqual(c.sent);
    expect(f.tally).toEqual({ sent: 1, accepted: 1 });
  });

  it('tallies a refusal, except a probe’s below 500', async () => {
    const refused = fakeRun(() => 400).f;
    await refused.create('sold');
    await refused.create('sold', 64, true);
    expect(refused.tally).toEqual({ sent: 1, accepted: 0 });
    const failing = fakeRun(() => 500).f;
    const probe = await failing.create('sold', 64, true);
    expect(probe.id).toBeUndefined();
    expect(failing.tally).toEqual({ sent: 1, accepted: 0 });
  });

  it('keeps no pet from a 2xx whose body is no Pet', async () => {
    const f = fixtures(answering(201, '{"id":1}'));
    const c = await f.create('sold');
    expect(c.pet).toBeUndefined();
    expect(f.sentById.size).toBe(0);
    expect(f.tally).toEqual({ sent: 1, accepted: 1 });
  });
});

describe('the data a run needs', () => {
  /** Counts of the names sent, by length. */
  const lengths = (sent: HttpRequest[]) =>
    sent
      .filter((r) => r.method === 'POST')
      .map((r) => (JSON.parse(r.rawBody as string) as { name: string }).name.length);

  it('fills an empty store to STORE_TARGET, with the longest names the server takes', async () => {
    const server = fakeRun();
    const { f } = server;
    await f.ensureBulk();
    // One more pet than the largest limit: `limit=100` can be judged exactly.
    expect(server.pets.length).toBe(LIMIT_MAX + 1);
    expect(f.knownAtLeast).toBe(STORE_TARGET);
    expect(f.fillNameLength).toBe(FILL_NAME_LENGTHS[0]);
    expect(server.sent.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      `/pets?limit=${LIMIT_MAX}`,
    ]);
    expect(f.filled).toBe(STORE_TARGET - SAMPLE_PETS - BULK_PETS);
    expect(f.longNamesRefused).toBe(false);
    expect(f.shortOfTarget).toBeUndefined();
    const sentLengths = lengths(server.sent);
    expect(sentLengths.filter((n) => n === 200).length).toBe(f.filled);
    // Samples first, one per status then one without.
    const samples = await f.samples();
    expect([...samples.byStatus.keys()]).toEqual([...PET_STATUSES]);
    expect(samples.withoutStatus?.sent.status).toBeUndefined();
    expect(samples.pets.length).toBe(SAMPLE_PETS);
  });

  it('falls back to shorter names, then to plain ones, as the server refuses long ones', async () => {
    const upTo = (max: number) => fakeRun((name) => (name.length <= max ? 201 : 400));
    const sixtyFour = upTo(64);
    const { f } = sixtyFour;
    await f.ensureBulk();
    expect(f.fillNameLength).toBe(64);
    expect(sixtyFour.pets.length).toBe(STORE_TARGET);
    // The refused probe of 200 letters is no refused write.
    expect(f.tally.sent).toBe(f.tally.accepted);

    const plain = upTo(NAME_MAX);
    const g = plain.f;
    await g.ensureBulk();
    expect(g.fillNameLength).toBe(0);
    expect(g.longNamesRefused).toBe(true);
    expect(g.filled).toBe(0);
    expect(plain.pets.length).toBe(STORE_TARGET);
    expect(g.tally.accepted).toBe(STORE_TARGET);
  });

  it('creates only the samples and bulk pets on a store that holds enough', async () => {
    const server = fakeRun(() => 201, { stored: STORE_TARGET });
    const { f } = server;
    await f.ensureBulk();
    expect(server.pets.length).toBe(STORE_TARGET + SAMPLE_PETS + BULK_PETS);
    expect(f.filled).toBe(0);
    expect(f.knownAtLeast).toBeGreaterThanOrEqual(STORE_TARGET);
  });

  it('stops at --max-pets, leaving the checks theirs, and says why the store is short', async () => {
    const maxPets = CHECK_PETS_MAX + SAMPLE_PETS + BULK_PETS + 10;
    const server = fakeRun(undefined, { maxPets });
    const { f } = server;
    await f.ensureBulk();
    expect(server.pets.length).toBe(SAMPLE_PETS + BULK_PETS + 10);
    expect(f.shortOfTarget).toBe(
      `--max-pets ${maxPets} leaves the run 10 of the ${STORE_TARGET - SAMPLE_PETS - BULK_PETS} pets that would bring the store (${SAMPLE_PETS + BULK_PETS} pets) to ${STORE_TARGET}`,
    );
  });

  it('creates nothing in a read-only run, and says why the store is short', async () => {
    const server = fakeRun(() => 201, { stored: 5, readOnly: true });
    const { f } = server;
    await f.ensureBulk();
    expect(server.sent.filter((r) => r.method === 'POST')).toEqual([]);
    expect(f.knownAtLeast).toBe(5);
    expect(f.shortOfTarget).toBe('the store shows 5 pets and a read-only run creates none');
    expect(f.longNamesRefused).toBe(false);
  });

  it('creates the data once however many checks ask', async () => {
    const server = fakeRun();
    const { f } = server;
    await Promise.all([f.ensureBulk(), f.ensureBulk(), f.samples()]);
    expect(server.pets.length).toBe(STORE_TARGET);
  });
});

describe('the fixtures’ finer points', () => {
  it('say what they create, as they create it', async () => {
    const progress: string[] = [];
    const { f } = fakeRun(undefined, { stored: 50, progress: (m) => progress.push(m) });
    await f.ensureBulk();
    expect(progress).toEqual([
      'creating 4 sample pets named cfabcdefgh<n>',
      `creating ${BULK_PETS} pets named cfabcdefgh<n>, to read back and to list`,
      `creating up to ${STORE_TARGET - 50 - SAMPLE_PETS - BULK_PETS} pets named cfabcdefgh<n>..., to bring the store to ${STORE_TARGET} pets`,
    ]);
  });

  it('count the pets a list shows beside the ones they created', async () => {
    const server = fakeRun(undefined, { stored: 50, listed: ['{"name":"no id"}'] });
    await server.f.ensureBulk();
    expect(server.pets.length).toBe(STORE_TARGET);
    expect(server.f.knownAtLeast).toBe(STORE_TARGET);
    // A list that fails shows nothing: only the pets the run created are known.
    const blind = fakeRun(undefined, { stored: 50, listStatus: 500 });
    await blind.f.ensureBulk();
    expect(blind.pets.length).toBe(50 + STORE_TARGET);
  });

  it('give every pet that fills the store a status', async () => {
    const server = fakeRun();
    await server.f.ensureBulk();
    const statuses = server.sent.filter((r) => r.method === 'POST').map(statusOf);
    expect(statuses.slice(SAMPLE_PETS).every((s) => PET_STATUSES.some((p) => p === s))).toBe(true);
  });

  it('spread statuses over the pets they create in bulk, in turn', async () => {
    const server = fakeRun(undefined, { stored: STORE_TARGET });
    await server.f.ensureBulk();
    const sent = server.sent.filter((r) => r.method === 'POST').map(statusOf);
    expect(sent).toEqual([
      ...PET_STATUSES,
      undefined,
      ...Array.from({ length: BULK_PETS }, (_, i) => PET_STATUSES[i % PET_STATUSES.length]),
    ]);
  });

  it('keep as samples only the pets the server created', async () => {
    const server = fakeRun((_, sent) => (sent.status === 'pending' ? 422 : 201));
    const samples = await server.f.samples();
    expect(samples.byStatus.get('pending')?.id).toBeUndefined();
    expect(samples.pets.map((c) => c.sent.status)).toEqual(['available', 'sold', undefined]);
    const readOnly = fakeRun(undefined, { readOnly: true });
    expect(await readOnly.f.samples()).toEqual({ byStatus: new Map(), pets: [] });
    expect(readOnly.sent).toEqual([]);
  });

  it('count as filled only the long-named pets the server created', async () => {
    let n = 0;
    const server = fakeRun((name) => (name.length > 16 && ++n % 5 === 0 ? 400 : 201));
    await server.f.ensureBulk();
    const long = server.pets.filter(
      (text) => (JSON.parse(text) as { name: string }).name.length > 16,
    );
    expect(server.f.filled).toBe(long.length);
    expect(server.f.filled).toBeLessThan(STORE_TARGET - SAMPLE_PETS - BULK_PETS);
  });

  it('fill nothing when --max-pets leaves nothing beyond the checks’ own pets', async () => {
    const maxPets = CHECK_PETS_MAX + SAMPLE_PETS + BULK_PETS;
    const server = fakeRun(undefined, { maxPets });
    await server.f.ensureBulk();
    expect(server.pets.length).toBe(SAMPLE_PETS + BULK_PETS);
    expect(server.f.fillNameLength).toBe(0);
    expect(server.f.shortOfTarget).toMatch(/^--max-pets \d+ leaves the run 0 of the /);
    expect(server.f.longNamesRefused).toBe(false);
    const exact = fakeRun(undefined, { maxPets: MAX_CREATED });
    await exact.f.ensureBulk();
    expect(exact.pets.length).toBe(STORE_TARGET);
    expect(exact.f.shortOfTarget).toBeUndefined();
  });

  it('say why a store is short when the server refuses the pets that fill it', async () => {
    let creates = 0;
    const server = fakeRun(() => (++creates <= SAMPLE_PETS + BULK_PETS ? 201 : 400));
    await server.f.ensureBulk();
    expect(server.pets.length).toBe(SAMPLE_PETS + BULK_PETS);
    expect(server.f.shortOfTarget).toBe(
      `the store shows ${server.pets.length} pets and the run could create no more`,
    );
  });

  it('judge a name shape’s answer at the bounds of 2xx and 4xx', async () => {
    // The first shape is refused; the second's answer decides.
    for (const [status, found, shape, recorded] of [
      [499, false, 'lower', 0],
      [400, false, 'lower', 0],
      [300, true, 'lower', 0],
      [302, true, 'lower', 0],
      [299, true, 'capitalised', 1],
      [200, true, 'capitalised', 1],
    ] as const) {
      let calls = 0;
      const { f } = fakeRun(() => (++calls === 1 ? 400 : status));
      expect((await f.findNameShape()).found, String(status)).toBe(found);
      expect(f.nameShape, String(status)).toBe(shape);
      expect(f.sentById.size, String(status)).toBe(recorded);
    }
    // A 2xx keeps the shape it answered; one without an id records no pet.
    const pet = '{"id":5,"name":"a","categoryId":1}';
    for (const status of [302, 503]) {
      const h = fixtures(answering(status, pet));
      expect((await h.findNameShape()).found).toBe(true);
      expect(h.sentById.size, `${status} with a pet`).toBe(0);
    }
    const g = fixtures(answering(200, '{}'), { nameShape: 'words' });
    expect(await g.findNameShape()).toEqual({ found: true, tried: ['lower ("cfabcdefgha")'] });
    expect(g.sentById.size).toBe(0);
  });

  it('accept a create answered 200 to 299, and no other', async () => {
    for (const [status, accepted] of [
      [200, 1],
      [299, 1],
      [300, 0],
      [199, 0],
    ] as const) {
      const { f } = fakeRun(() => status);
      await f.create('sold');
      expect(f.tally.accepted, String(status)).toBe(accepted);
    }
  });
});

describe('reads after a write', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wait settleMs after the last create the kit saw, and no longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const { f } = fakeRun(undefined, { settleMs: 1000 });
    let settled = false;
    void f.settled().then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);

    await f.create('sold');
    settled = false;
    void f.settled().then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it('do not wait after an answer that created nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const { f } = fakeRun(() => 400, { settleMs: 1000 });
    await f.create('sold');
    let settled = false;
    void f.settled().then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });
});
