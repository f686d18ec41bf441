import { LIMIT_DEFAULT, LIMIT_MAX } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { PetModel } from '../src/oracles.js';
import { type AnswerParts, answer, petText } from './support/answer.js';

// The model of the pets a run created, fed answers in the order they arrived, as the runner does.

const SENT = { name: 'Rex', categoryId: 7, status: 'available' };

/** The 201 of a create that sent `sent`, at `at` ms, showing `shown` over what was sent. */
function created(
  sent: Record<string, unknown> = SENT,
  shown: Record<string, unknown> = {},
  at = 0,
): AnswerParts {
  return {
    method: 'POST',
    path: '/pets',
    status: 201,
    text: petText({ ...sent, ...shown }),
    request: { json: sent },
    sentAt: at,
    receivedAt: at + 1,
  };
}

const read = (path: string, status: number, text: string, at = 10): AnswerParts => ({
  path,
  status,
  text,
  sentAt: at,
  receivedAt: at + 1,
});

/** A model that has seen `first` (answers' parts), and what it says of `then`. */
function judge(first: AnswerParts[], then: AnswerParts, settleMs = 0): string | undefined {
  const model = new PetModel(settleMs);
  for (const parts of first) expect(model.judge(answer(parts))).toBeUndefined();
  return model.judge(answer(then));
}

describe('a created pet', () => {
  it('shows in its 201 the name and categoryId sent', () => {
    expect(judge([], created())).toBeUndefined();
    expect(judge([], created(SENT, { name: 'Max' }))).toBe(
      'the 201 body of pet 1 has name "Max", sent "Rex"',
    );
    expect(judge([], created(SENT, { categoryId: 8 }))).toBe(
      'the 201 body of pet 1 has categoryId 8, sent 7',
    );
    expect(judge([], created(SENT, { status: 'sold' }))).toBe(
      'the 201 body of pet 1 has status "sold", not "available" (sent)',
    );
  });

  it('is not held to a name holding an unpaired surrogate (RFC 8259 §8.2), but to the rest', () => {
    const sent = { ...SENT, name: 'Rex\uD800' };
    expect(judge([], created(sent, { name: 'Rex\uFFFD' }))).toBeUndefined();
    expect(judge([], created(sent, { name: 'Rex\uFFFD', categoryId: 8 }))).toBe(
      'the 201 body of pet 1 has categoryId 8, sent 7',
    );
    // A pair of surrogates is one character beyond the BMP: held exactly.
    const paired = { ...SENT, name: 'Rex\uD83D\uDC08' };
    expect(judge([], created(paired, { name: 'Rex\uFFFD\uFFFD' }))).toBe(
      'the 201 body of pet 1 has name "Rex\uFFFD\uFFFD", sent "Rex🐈"',
    );
  });

  it('is known from a body sent as text, its categoryId as a double holds it', () => {
    const sent = '{"name":"Rex","categoryId":9007199254740993}';
    const parts = {
      ...created(),
      text: petText().replace('"categoryId":7', '"categoryId":9007199254740993'),
      request: { rawBody: sent },
    };
    expect(judge([parts], read('/pets/1', 200, parts.text))).toBeUndefined();
    const other = petText({ categoryId: 7 });
    expect(judge([parts], read('/pets/1', 200, other))).toBe(
      'getPet of pet 1 has categoryId 7, sent 9007199254740992',
    );
  });

  it('shows the name sent, or what NFC or NFKC normalisation makes of it, and nothing else', () => {
    const sent = { ...SENT, name: 'Rene\u0301 \uFB01' };
    for (const name of ['Rene\u0301 \uFB01', 'Ren\u00E9 \uFB01', 'Ren\u00E9 fi']) {
      expect(judge([], created(sent, { name })), name).toBeUndefined();
    }
    expect(judge([], created(sent, { name: 'Rene \uFB01' }))).toBe(
      'the 201 body of pet 1 has name "Rene \uFB01", sent "Rene\u0301 \uFB01"',
    );
  });

  it('is held to no field sent in a body that repeats a member name (RFC 8259 §4)', () => {
    // Which of two members of one name wins is each receiver's own: the first here.
    const sent = '{"name":"Rex","name":"Max","categoryId":7,"categoryId":8,"status":"available"}';
    const parts = { ...created(), request: { rawBody: sent } };
    expect(judge([], parts)).toBeUndefined();
    const other = petText({ name: 'Max', categoryId: 8 });
    expect(judge([parts], read('/pets/1', 200, other))).toBeUndefined();
    // Still known: a later read that does not find it fails.
    expect(judge([parts], read('/pets/1', 404, '{}'))).toBe(
      'pet 1, created by this run, is not found',
    );
  });

  it('is not known from an answer that is no 2xx, no Pet, or to a body that is no object', () => {
    const notFound = read('/pets/1', 404, '{}');
    for (const parts of [
      { ...created(), status: 400 },
      { ...created(), status: 300 },
      { ...created(), text: '{"id":1}' },
      { ...created(), request: { rawBody: '{"name":' } },
      { ...created(), status: 199 },
      { ...created(), request: { json: ['Rex'] } },
      { ...created(), request: { json: 'Rex' } },
      { ...created(), request: { json: null } },
    ]) {
      expect(judge([parts], notFound), JSON.stringify(parts)).toBeUndefined();
    }
    for (const status of [200, 299]) {
      expect(judge([{ ...created(), status }], notFound)).toBe(
        'pet 1, created by this run, is not found',
      );
    }
  });

  it('is held only to the name and categoryId it was sent, when they were a string and a number', () => {
    const readBack = read('/pets/1', 200, petText());
    for (const sent of [
      { name: 5, categoryId: 7 },
      { name: 'Rex', categoryId: '7x' },
      { name: 'Rex' },
    ]) {
      expect(judge([created(sent, { name: 'Rex', categoryId: 7 })], readBack)).toBeUndefined();
    }
  });

  it('arrived when it was sent and its time had passed, when its arrival is not known', () => {
    const { receivedAt: _, ...unknownArrival } = created(SENT, {}, 10);
    // Sent at 10 and answered in 1 ms (the answer's `ms`).
    expect(judge([unknownArrival], read('/pets/1', 404, '{}', 10.5))).toBeUndefined();
    expect(judge([unknownArrival], read('/pets/1', 404, '{}', 11))).toBe(
      'pet 1, created by this run, is not found',
    );
  });

  it('keeps what its first 201 showed when a second 201 has its id', () => {
    const first = created();
    const second = created({ ...SENT, name: 'Max' }, {}, 5);
    expect(judge([first], second)).toBe('the 201 body of pet 1 has name "Max", sent "Rex"');
  });
});

describe('getPet of a created pet', () => {
  it('finds it, as it was created', () => {
    expect(judge([created()], read('/pets/1', 200, petText()))).toBeUndefined();
    expect(judge([created()], read('/pets/1', 200, petText({ name: 'Max' })))).toBe(
      'getPet of pet 1 has name "Max", sent "Rex"',
    );
    expect(judge([created()], read('/pets/1', 404, '{}'))).toBe(
      'pet 1, created by this run, is not found',
    );
  });

  it('is not held to a pet whose 201 had not arrived when it was sent', () => {
    // The 201 was sent first and arrived last.
    const late = { ...created(), receivedAt: 100 };
    expect(judge([late], read('/pets/1', 404, '{}', 50))).toBeUndefined();
    expect(judge([late], read('/pets/1', 404, '{}', 100))).toBe(
      'pet 1, created by this run, is not found',
    );
  });

  it('is not held to a pet sent sooner than the settling time after its 201', () => {
    expect(judge([created()], read('/pets/1', 404, '{}', 50), 100)).toBeUndefined();
    expect(judge([created()], read('/pets/1', 404, '{}', 101), 100)).toBe(
      'pet 1, created by this run, is not found',
    );
  });

  it('leaves other answers to the other oracles', () => {
    expect(judge([created()], read('/pets/2', 404, '{}'))).toBeUndefined();
    expect(judge([created()], read('/pets/1', 500, '{}'))).toBeUndefined();
    expect(judge([created()], read('/pets/1', 203, petText({ name: 'Max' })))).toBeUndefined();
    expect(judge([created()], read('/nowhere', 200, `[${petText({ name: 'Max' })}]`))).toBe(
      undefined,
    );
    expect(judge([created()], read('/pets/1', 200, '{"id":1}'))).toBeUndefined();
    // A Pet without a status (the spec's is optional) says nothing of the one sent.
    expect(judge([created()], read('/pets/1', 200, petText({ status: undefined })))).toBe(
      undefined,
    );
    expect(judge([created()], read('/pets/1', 200, petText({ id: 2, name: 'Max' })))).toBe(
      undefined,
    );
  });

  it('names a categoryId shown as its JSON text has it', () => {
    const big = petText().replace('"categoryId":7', '"categoryId":9007199254740993');
    expect(judge([created()], read('/pets/1', 200, big))).toBe(
      'getPet of pet 1 has categoryId 9007199254740993, sent 7',
    );
  });

  it('learns the status a pet created without one has, and holds later answers to it', () => {
    const { status: _, ...noStatus } = SENT;
    const first = created(noStatus, { status: 'pending' });
    expect(judge([first], read('/pets/1', 200, petText({ status: 'sold' })))).toBe(
      'getPet of pet 1 has status "sold", not "pending" (shown by the 201 body of pet 1)',
    );
    const none = created(noStatus);
    const shown = { ...none, text: petText({ status: undefined }) };
    expect(judge([shown], read('/pets/1', 200, petText({ status: undefined })))).toBe(undefined);
    expect(
      judge([shown, read('/pets/1', 200, petText({ status: 'sold' }))], read('/pets', 200, '[]')),
    ).toBe(
      'pet 1, of status "sold" (shown by getPet of pet 1), is missing from a list of 0 (fewer than limit 20)',
    );
  });
});

describe('a list', () => {
  const list = (query: string, items: string[], at = 10) =>
    read(`/pets${query}`, 200, `[${items.join(',')}]`, at);

  it('shows each created pet as it was created, under its own status only', () => {
    expect(judge([created()], list('', [petText()]))).toBeUndefined();
    expect(judge([created()], list('?status=available', [petText()]))).toBeUndefined();
    expect(judge([created()], list('', [petText({ name: 'Max' })]))).toBe(
      'the list entry of pet 1 has name "Max", sent "Rex"',
    );
    expect(judge([created()], list('?status=sold', [petText({ status: 'available' })]))).toBe(
      'pet 1, whose status is "available" (sent), is listed under status=sold',
    );
    // Items that are no Pets, and pets the run did not create, are others' to judge.
    const others = ['{"id":1}', petText(), petText({ id: 9, status: 'sold' })];
    expect(judge([created()], list('', others))).toBeUndefined();
    expect(judge([created()], list('?status=sold', [petText({ id: 9, status: 'sold' })]))).toBe(
      undefined,
    );
  });

  it('shorter than its limit holds every created pet that matches', () => {
    const missing =
      'pet 1, of status "available" (sent), is missing from a list of 0 (fewer than limit';
    expect(judge([created()], list('', []))).toBe(`${missing} ${LIMIT_DEFAULT})`);
    expect(judge([created()], list('?limit=5', []))).toBe(`${missing} 5)`);
    expect(judge([created()], list(`?limit=${LIMIT_MAX}`, []))).toBe(`${missing} ${LIMIT_MAX})`);
    expect(judge([created()], list('?status=available&limit=1', []))).toBe(`${missing} 1)`);
    expect(judge([created()], list('?status=sold', []))).toBeUndefined();
    const other = petText({ id: 2, name: 'Max' });
    expect(judge([created()], list('?limit=2', [other]))).toBe(
      'pet 1, of status "available" (sent), is missing from a list of 1 (fewer than limit 2)',
    );
  });

  it('given status twice, holds its pets to no filter (a server may read either, or neither)', () => {
    const sold = petText({ status: 'sold' });
    const soldPet = { ...created({ ...SENT, status: 'sold' }), text: sold };
    for (const query of ['?status=available&status=sold', '?status=sold&status=available']) {
      expect(judge([soldPet], list(query, [sold])), query).toBeUndefined();
    }
    // Given once, the filter still holds.
    expect(judge([soldPet], list('?status=available', [sold]))).toBe(
      'pet 1, whose status is "sold" (sent), is listed under status=available',
    );
  });

  it('names a pet created without a status as created', () => {
    const { status: _, ...noStatus } = SENT;
    const bare = { ...created(noStatus), text: petText({ status: undefined }) };
    expect(judge([bare], list('', []))).toBe(
      'pet 1, created, is missing from a list of 0 (fewer than limit 20)',
    );
    expect(judge([bare], list('?status=available', []))).toBeUndefined();
    // Listed without a status under a filter: nothing known to set against it.
    const entry = petText({ status: undefined });
    expect(judge([bare], list('?status=sold', [entry]))).toBeUndefined();
  });

  it('asks nothing of a full page, a later page, or a query the spec does not define', () => {
    for (const query of [
      '?limit=1',
      '?cursor=abc',
      '?limit=5&limit=6',
      '?status=available&status=available',
      '?limit=0',
      `?limit=${LIMIT_MAX + 1}`,
      '?limit=-1',
      '?limit=5.0',
      '?limit=',
      '?status=lost',
    ]) {
      const items = query === '?limit=1' ? [petText({ id: 2, name: 'Max' })] : [];
      expect(judge([created()], list(query, items)), query).toBeUndefined();
    }
  });

  it('holds no list to a limit written other than plainly: a server may use the default', () => {
    const pets = Array.from({ length: LIMIT_DEFAULT + 1 }, (_, i) => ({
      ...created({ ...SENT, name: `Pet${i + 1}` }),
      text: petText({ id: i + 1, name: `Pet${i + 1}` }),
    }));
    const page = pets.slice(0, LIMIT_DEFAULT).map((pet) => pet.text);
    const missing = `pet ${LIMIT_DEFAULT + 1}, of status "available" (sent), is missing from a list of ${LIMIT_DEFAULT}`;
    expect(judge(pets, list('?limit=50', page))).toBe(`${missing} (fewer than limit 50)`);
    for (const query of [
      '?limit=050',
      '?limit=+50',
      '?limit=50.0',
      '?status=available&limit=050',
    ]) {
      expect(judge(pets, list(query, page)), query).toBeUndefined();
    }
  });

  it('asked for before a pet settled need not hold it', () => {
    expect(judge([created({ ...SENT }, {}, 100)], list('', [], 50), 0)).toBeUndefined();
    expect(judge([created()], list('', [], 50), 100)).toBeUndefined();
    expect(judge([created()], list('', [], 150), 100)).toMatch(/is missing from a list/);
    // The 201 arrived at 1: a list sent at that moment holds the pet.
    expect(judge([created()], list('', [], 1))).toMatch(/is missing from a list/);
  });

  it('leaves an answer other than a 200 array alone', () => {
    expect(judge([created()], read('/pets', 500, '[]'))).toBeUndefined();
    expect(judge([created()], read('/pets', 200, petText()))).toBeUndefined();
  });
});
