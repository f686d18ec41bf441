import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../src/context.js';
import type { HttpResponse } from '../src/http/client.js';
import { Redactor } from '../src/redact.js';
import {
  CheckFailed,
  CheckSkipped,
  declarer,
  described,
  difference,
  errorBodyProblem,
  everyCase,
  expectCreatedOrRefused,
  expectError,
  expectJson,
  expectPet,
  expectPetList,
  expectStatus,
  fail,
  idOf,
  inStage,
  notApplicable,
  pass,
  petFields,
  sameAsDouble,
  sentFields,
  skip,
} from '../src/sections/support.js';
import { answer, petText } from './support/answer.js';

// The helpers every check judges answers with: a false alarm here is one in every check that
// uses them, and a defect let through here is let through by all of them.

/** The failure `judge` ends with, or undefined when it passes. */
function failure(judge: () => unknown): CheckFailed | undefined {
  try {
    judge();
    return undefined;
  } catch (error) {
    if (error instanceof CheckFailed) return error;
    throw error;
  }
}

const errorText = (status: number, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ code: 'bad_request', message: 'no', status, ...fields });

const refused = (status: number, text = errorText(status)): HttpResponse =>
  answer({ method: 'POST', path: '/pets', status, text });

describe('a section’s check declarer', () => {
  const declare = declarer('§4.1');
  const run = async () => pass('ok');

  it('takes the group from the id’s first part and refuses an id of no group', () => {
    expect(declare({ id: 'listPets.limit', title: 't', run }).group).toBe('listPets');
    expect(declare({ id: 'errors.x', title: 't', run }).group).toBe('errors');
    expect(() => declare({ id: 'pets.limit', title: 't', run })).toThrow(
      /check id pets\.limit names no group \(auth, listPets, createPet, getPet, errors\)/,
    );
  });

  it('rests a check on its section unless it names another', () => {
    expect(declare({ id: 'getPet.a', title: 't', run }).section).toBe('§4.1');
    expect(declare({ id: 'getPet.a', title: 't', section: '§8', run }).section).toBe('§8');
  });

  it('makes a check with a rule a should, keeping the rule, and one without a must', () => {
    const should = declare({ id: 'getPet.a', title: 't', rule: 'RFC 9110', run });
    expect(should).toMatchObject({ level: 'should', rule: 'RFC 9110' });
    const must = declare({ id: 'getPet.a', title: 't', run });
    expect(must.level).toBe('must');
    expect(Object.hasOwn(must, 'rule')).toBe(false);
  });

  it('has a check write when its id names createPet in its first two parts', () => {
    const writes = (id: string, declared?: boolean) =>
      declare({ id, title: 't', run, ...(declared === undefined ? {} : { writes: declared }) })
        .writes;
    expect(writes('createPet.body')).toBe(true);
    expect(writes('auth.createPet.missing-header')).toBe(true);
    expect(writes('errors.every-answer.createPet')).toBe(false);
    expect(writes('listPets.limit')).toBe(false);
    expect(writes('listPets.limit', true)).toBe(true);
    expect(writes('createPet.body', false)).toBe(false);
  });

  it('runs the errors group’s checks last, and gives the others no stage', () => {
    expect(declare({ id: 'errors.every-answer', title: 't', run }).stage).toBe('last');
    expect(Object.hasOwn(declare({ id: 'getPet.a', title: 't', run }), 'stage')).toBe(false);
  });

  it('keeps the title and run as declared', () => {
    const check = declare({ id: 'getPet.a', title: 'the title', run });
    expect(check.title).toBe('the title');
    expect(check.run).toBe(run);
  });

  it('puts checks in a stage without changing the declared ones', () => {
    const checks = [declare({ id: 'getPet.a', title: 't', run })];
    expect(inStage('late', checks).map((c) => c.stage)).toEqual(['late']);
    expect(checks[0]?.stage).toBeUndefined();
  });
});

describe('the verdict helpers', () => {
  it('pass with the message, and fail, skip or are not applicable by throwing', () => {
    expect(pass('seen')).toEqual({ outcome: 'pass', message: 'seen' });
    const res = refused(400);
    expect(failure(() => fail('bad', res))).toMatchObject({ message: 'bad', response: res });
    expect(() => skip('cannot')).toThrow(CheckSkipped);
    let skipped: unknown;
    try {
      skip('cannot');
    } catch (error) {
      skipped = error;
    }
    expect(skipped).toMatchObject({ message: 'cannot', notApplicable: false });
    try {
      notApplicable('none');
    } catch (error) {
      skipped = error;
    }
    expect(skipped).toMatchObject({ name: 'CheckSkipped', message: 'none', notApplicable: true });
    expect(new CheckFailed('x').name).toBe('CheckFailed');
  });

  it('describe an answer by its request, and how it was sent', () => {
    const res = answer({ path: '/pets?limit=1', status: 200, text: '[]' });
    expect(described(res)).toBe('GET /pets?limit=1');
    expect(described(res, 'without a key')).toBe('GET /pets?limit=1 without a key');
  });
});

describe('expectStatus', () => {
  it('passes the status asked for and fails any other, naming both', () => {
    const res = answer({ path: '/pets/1', status: 404, text: errorText(404) });
    expect(failure(() => expectStatus(res, 404))).toBeUndefined();
    const failed = failure(() => expectStatus(res, 200, 'twice'));
    expect(failed?.message).toBe('GET /pets/1 twice answered 404, expected 200');
    expect(failed?.response).toBe(res);
  });

  it('passes any of several statuses, and names them all when it fails', () => {
    const res = answer({ path: '/pets', status: 500, type: 'text/plain', text: '' });
    expect(failure(() => expectStatus(res, [201, 500]))).toBeUndefined();
    expect(failure(() => expectStatus(res, [201, 400]))?.message).toBe(
      'GET /pets answered 500, expected 201 or 400',
    );
    expect(failure(() => expectStatus(res, [201, 400, 413], 'with a name'))?.message).toBe(
      'GET /pets with a name answered 500, expected 201, 400 or 413',
    );
  });

  it('quotes a body that is no Error, white space collapsed, cut after 59 characters with …', () => {
    const short = answer({ path: '/p', status: 500, type: 'text/plain', text: ' oops\n\tnow ' });
    expect(failure(() => expectStatus(short, 200))?.message).toBe(
      'GET /p answered 500 ("oops now"), expected 200',
    );
    const sixty = 'a'.repeat(60);
    const exact = answer({ path: '/p', status: 500, type: 'text/plain', text: sixty });
    expect(failure(() => expectStatus(exact, 200))?.message).toContain(`("${sixty}")`);
    const long = answer({ path: '/p', status: 500, type: 'text/plain', text: 'b'.repeat(61) });
    expect(failure(() => expectStatus(long, 200))?.message).toContain(`("${'b'.repeat(59)}…")`);
    // The cut is one the redactor knows: a key echoed across it is hidden, its start too.
    const key = 'Sk3yAbCdEfGhIjKlMnOp';
    const echoed = `Malformed Authorization header value: Bearer x ${key}`;
    const cut = answer({ path: '/p', status: 400, type: 'text/plain', text: echoed });
    const message = failure(() => expectStatus(cut, 401))?.message ?? '';
    expect(message).toContain(key.slice(0, 8));
    expect(new Redactor([key]).text(message)).not.toContain(key.slice(0, 4));
    const blank = answer({ path: '/p', status: 500, type: 'text/plain', text: ' \n' });
    expect(failure(() => expectStatus(blank, 200))?.message).toBe(
      'GET /p answered 500, expected 200',
    );
  });

  it('quotes no Error body, whose code and message the report shows', () => {
    const res = answer({ path: '/p', status: 400, text: errorText(400) });
    expect(failure(() => expectStatus(res, 200))?.message).toBe(
      'GET /p answered 400, expected 200',
    );
  });
});

describe('expectJson and expectPet', () => {
  it('fail an answer whose Content-Type is not JSON, and pass a JSON one', () => {
    const text = answer({ path: '/pets/1', status: 200, type: 'text/plain', text: petText() });
    expect(failure(() => expectJson(text))?.message).toMatch(/^GET \/pets\/1 answered 200: /);
    expect(
      failure(() => expectJson(answer({ path: '/pets/1', status: 200, text: petText() }))),
    ).toBe(undefined);
  });

  it('return a valid Pet and fail one that is not, saying why', () => {
    const ok = answer({ path: '/pets/1', status: 200, text: petText() });
    expect(expectPet(ok)).toEqual(JSON.parse(petText()));
    const nameless = answer({ path: '/pets/1', status: 200, text: petText({ name: 7 }) });
    const failed = failure(() => expectPet(nameless, 'by id'));
    expect(failed?.message).toMatch(/^GET \/pets\/1 by id: .*name/);
    expect(failed?.response).toBe(nameless);
    const untyped = answer({ path: '/pets/1', status: 200, type: 'text/plain', text: petText() });
    expect(failure(() => expectPet(untyped))?.message).toMatch(/^GET \/pets\/1 answered 200: /);
  });
});

describe('expectPetList', () => {
  const list = (status: number, text: string) => answer({ path: '/pets', status, text });

  it('returns the pets of a 200 JSON array of Pets', () => {
    const pets = [JSON.parse(petText()), JSON.parse(petText({ id: 2 }))];
    expect(expectPetList(list(200, JSON.stringify(pets)))).toEqual(pets);
    expect(expectPetList(list(200, '[]'))).toEqual([]);
  });

  it('fails another status first, then a body that is no array of Pets, then a bad item', () => {
    expect(failure(() => expectPetList(list(201, '[]')))?.message).toBe(
      'GET /pets answered 201 ("[]"), expected 200',
    );
    const untyped = answer({ path: '/pets', status: 200, type: 'text/plain', text: '[]' });
    expect(failure(() => expectPetList(untyped))?.message).toMatch(/^GET \/pets answered 200: /);
    expect(failure(() => expectPetList(list(200, '{"pets":[]}')))?.message).toMatch(
      /^GET \/pets: not a JSON array of Pets: /,
    );
    const second = `[${petText()},${petText({ id: 2, status: 'lost' })}]`;
    expect(failure(() => expectPetList(list(200, second)))?.message).toMatch(
      /^GET \/pets: not a JSON array of Pets: 1\.status /,
    );
  });

  it('fails an item the schema allows but the pet rules do not (an id beyond int64)', () => {
    const text = `[${petText().replace('"id":1', '"id":9223372036854775808')}]`;
    expect(failure(() => expectPetList(list(200, text)))?.message).toBe(
      'GET /pets: item 0: id 9223372036854775808 is outside int64',
    );
  });
});

describe('errorBodyProblem and expectError', () => {
  it('find nothing wrong with a JSON Error whose status is the answer’s', () => {
    expect(errorBodyProblem(refused(422))).toBeUndefined();
    expect(expectError(refused(422), 422)).toEqual(JSON.parse(errorText(422)));
  });

  it('name an Error body whose status differs from the answer’s', () => {
    expect(errorBodyProblem(refused(400, errorText(422)))).toBe('Error body says status 422');
    expect(failure(() => expectError(refused(400, errorText(422)), 400, 'twice'))?.message).toBe(
      'POST /pets twice answered 400: Error body says status 422',
    );
  });

  it('name a body that is no Error, and one that is no JSON', () => {
    expect(errorBodyProblem(refused(400, '{"message":"no","status":400}'))).toMatch(
      /^not a valid Error body: /,
    );
    const text = answer({ path: '/pets', status: 400, type: 'text/plain', text: errorText(400) });
    expect(errorBodyProblem(text)).toBeDefined();
    expect(errorBodyProblem(text)).not.toMatch(/^not a valid Error body/);
  });

  it('fail another status before it looks at the body', () => {
    expect(failure(() => expectError(refused(400), 404))?.message).toBe(
      'POST /pets answered 400, expected 404',
    );
  });
});

describe('the fields a pet is known by', () => {
  it('read ids and categoryIds exactly, beyond 2^53', () => {
    const res = answer({
      path: '/pets/1',
      status: 200,
      text: '{"id":9007199254740993,"name":"Rex","categoryId":9007199254740995}',
    });
    expect(idOf(res.body)).toBe('9007199254740993');
    expect(petFields(res.body as never)).toEqual({
      name: 'Rex',
      categoryId: '9007199254740995',
      status: undefined,
    });
    expect(idOf({ id: 'x' })).toBeUndefined();
  });

  it('hold what was sent', () => {
    expect(sentFields({ name: 'Rex', categoryId: '7', status: 'sold' })).toEqual({
      name: 'Rex',
      categoryId: '7',
      status: 'sold',
    });
  });

  it('differ by name first, then categoryId, then a status both show', () => {
    const pet = JSON.parse(petText()) as never;
    const same = { name: 'Rex', categoryId: '7', status: 'available' };
    expect(difference(pet, same)).toBeUndefined();
    expect(difference(pet, { ...same, name: 'Max', categoryId: '8' })).toBe(
      'name is "Rex", expected "Max"',
    );
    expect(difference(pet, { ...same, categoryId: '8', status: 'sold' })).toBe(
      'categoryId is 7, expected 8',
    );
    expect(difference(pet, { ...same, status: 'sold' })).toBe(
      'status is "available", expected "sold"',
    );
    expect(difference(pet, { name: 'Rex', categoryId: '7' })).toBeUndefined();
    const statusless = JSON.parse(petText({ status: undefined })) as never;
    expect(difference(statusless, same)).toBeUndefined();
  });

  it('show a categoryId that is no integer as the server wrote it', () => {
    const pet = JSON.parse(petText({ categoryId: 'seven' })) as never;
    expect(difference(pet, { name: 'Rex', categoryId: '7' })).toBe(
      'categoryId is seven, expected 7',
    );
  });

  it('are the same as doubles when a double cannot tell them apart', () => {
    expect(sameAsDouble('9007199254740993', '9007199254740992')).toBe(true);
    expect(sameAsDouble('1', '2')).toBe(false);
    expect(sameAsDouble(undefined, '1')).toBe(false);
  });
});

describe('expectCreatedOrRefused', () => {
  const sent = { name: 'Rex', categoryId: '7', status: 'available' as const };
  const created = (text: string) => answer({ method: 'POST', path: '/pets', status: 201, text });

  it('passes a 201 with the pet as sent, or any 201 when what was sent is not known', () => {
    expect(failure(() => expectCreatedOrRefused(created(petText()), 'h', sent))).toBeUndefined();
    expect(failure(() => expectCreatedOrRefused(created('oops'), 'h'))).toBeUndefined();
  });

  it('fails a 201 whose pet is not the one sent, or is no Pet', () => {
    expect(
      failure(() => expectCreatedOrRefused(created(petText({ name: 'Max' })), 'h', sent))?.message,
    ).toBe('POST /pets h: name is "Max", expected "Rex"');
    expect(failure(() => expectCreatedOrRefused(created('oops'), 'h', sent))).toBeDefined();
  });

  it('passes a 4xx with its Error, from 400 to 499, and fails a 4xx without one', () => {
    for (const status of [400, 422, 499]) {
      expect(failure(() => expectCreatedOrRefused(refused(status), 'h', sent))).toBeUndefined();
    }
    expect(
      failure(() => expectCreatedOrRefused(refused(400, errorText(422)), 'h', sent))?.message,
    ).toBe('POST /pets h answered 400: Error body says status 422');
  });

  it('fails any other status', () => {
    for (const status of [200, 399, 500, 503]) {
      expect(failure(() => expectCreatedOrRefused(refused(status), 'h', sent))?.message).toBe(
        `POST /pets h answered ${status}, expected 201 or a 4xx`,
      );
    }
  });
});

describe('every case of a check', () => {
  /** A context whose answers so far are `responses`: all that everyCase reads of one. */
  const withAnswers = (responses: HttpResponse[]) => ({ responses }) as unknown as CheckContext;

  it('is run after one before it failed, and the first failure ends the check with the count', async () => {
    const ran: number[] = [];
    const first = answer({ path: '/pets/1', status: 500 });
    const thrown = await everyCase(withAnswers([]), [1, 2, 3, 4], async (n) => {
      ran.push(n);
      if (n === 2) fail('case 2 went wrong', first);
      if (n === 4) fail('case 4 went wrong');
    }).catch((error: unknown) => error);
    expect(ran).toEqual([1, 2, 3, 4]);
    expect(thrown).toBeInstanceOf(CheckFailed);
    expect((thrown as CheckFailed).message).toBe('case 2 went wrong (and 1 more)');
    expect((thrown as CheckFailed).response).toBe(first);
  });

  it('fails with the one failure as it is, and names the last answer by then when it named none', async () => {
    const answers = [answer({ path: '/pets/1', status: 200 })];
    const ctx = withAnswers(answers);
    const thrown = await everyCase(ctx, ['a', 'b'], async (c) => {
      if (c === 'a') fail('a went wrong');
      answers.push(answer({ path: '/pets/2', status: 200 }));
    }).catch((error: unknown) => error);
    expect((thrown as CheckFailed).message).toBe('a went wrong');
    expect((thrown as CheckFailed).response).toBe(answers[0]);
  });

  it('passes when every case does, and lets any other error through at once', async () => {
    await expect(everyCase(withAnswers([]), [1, 2], async () => {})).resolves.toBeUndefined();
    const ran: number[] = [];
    const skipped = everyCase(withAnswers([]), [1, 2], async (n) => {
      ran.push(n);
      skip('cannot judge');
    });
    await expect(skipped).rejects.toBeInstanceOf(CheckSkipped);
    expect(ran).toEqual([1]);
  });
});
