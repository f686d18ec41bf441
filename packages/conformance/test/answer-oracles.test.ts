import { describe, expect, it } from 'vitest';
import { parseJson } from '../src/http/json.js';
import {
  ANSWER_ORACLES,
  brief,
  isJsonMediaType,
  petProblem,
  routeOf,
  strictJsonProblem,
} from '../src/oracles.js';
import { type AnswerParts, answer, petText } from './support/answer.js';

// The rules every answer is held to, one answer at a time, each given answers that sit on either
// side of what it allows. Kit runs against fake servers (faults.test.ts) hold them end to end.

/** What oracle `id` says of the answer `parts` make. */
function judged(id: string, parts: AnswerParts): string | undefined {
  const oracle = ANSWER_ORACLES.find((o) => o.id === id);
  if (oracle === undefined) throw new Error(`no oracle ${id}`);
  return oracle.judge(answer(parts));
}

const ERROR = (status: number, code = 'not_found') =>
  JSON.stringify({ code, message: 'No pet has that id', status });

describe('the operation an answer belongs to', () => {
  it('is read from the method and the path below the base URL', () => {
    expect(routeOf(answer({ path: '/pets?limit=5', status: 200 }))).toMatchObject({
      op: 'listPets',
    });
    expect(routeOf(answer({ method: 'POST', path: '/pets', status: 201 }))).toEqual({
      op: 'createPet',
    });
    expect(routeOf(answer({ path: '/pets/12', status: 200 }))).toEqual({
      op: 'getPet',
      petId: '12',
    });
    expect(routeOf(answer({ path: '/pets/a%20b', status: 404 }))).toEqual({
      op: 'getPet',
      petId: 'a b',
    });
  });

  it('is no operation for other spellings, other methods and other paths', () => {
    for (const path of ['//pets', '/pets//1', '/pets/', '/pets/1/x', '/animals', '/petsx']) {
      expect(routeOf(answer({ path, status: 404 })), path).toEqual({ op: 'other' });
    }
    expect(routeOf(answer({ method: 'POST', path: '/pets/1', status: 405 }))).toEqual({
      op: 'other',
    });
    // Traffic the kit did not send (a HAR file) has every method.
    expect(routeOf({ ...answer({ path: '/pets', status: 405 }), method: 'DELETE' })).toEqual({
      op: 'other',
    });
    const unparsable = { ...answer({ path: '/pets', status: 200 }), url: 'not a url' };
    expect(routeOf(unparsable)).toEqual({ op: 'other' });
  });

  it('keeps the query of a list', () => {
    const route = routeOf(answer({ path: '/pets?status=sold&limit=3', status: 200 }));
    expect(route.op === 'listPets' && route.query.get('status')).toBe('sold');
  });
});

describe('JSON media types', () => {
  it('are application/json and application/<anything>+json', () => {
    expect(isJsonMediaType('application/json')).toBe(true);
    expect(isJsonMediaType('application/problem+json')).toBe(true);
    expect(isJsonMediaType('application/vnd.pets.v1+json')).toBe(true);
    for (const other of ['text/json', 'application/jsonx', 'application/+json', 'text/html', '']) {
      expect(isJsonMediaType(other), other).toBe(false);
    }
    expect(isJsonMediaType('xapplication/json+json')).toBe(false);
    expect(isJsonMediaType('application/problem+json5')).toBe(false);
  });
});

describe('strict JSON', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('is UTF-8 without a byte-order mark, by the RFC 8259 grammar', () => {
    expect(strictJsonProblem(bytes('{"a":[1,2]}'))).toBeUndefined();
    expect(strictJsonProblem(bytes('\uFEFF{}'))).toBe('the body starts with a byte-order mark');
    expect(strictJsonProblem(new Uint8Array([0x22, 0xff, 0x22]))).toBe('the body is not UTF-8');
    expect(strictJsonProblem(bytes('[1,]'))).toMatch(/^the body is not strict JSON \(/);
    expect(strictJsonProblem(bytes('"a\tb"'))).toMatch(/^the body is not strict JSON/);
  });

  it('takes a body that only starts like a byte-order mark', () => {
    expect(strictJsonProblem(new Uint8Array([0xef, 0xbb]))).toBe('the body is not UTF-8');
    // U+FEC0 is EF BB 80 in UTF-8: no JSON, and no byte-order mark.
    expect(strictJsonProblem(bytes('\uFEC0'))).toMatch(/^the body is not strict JSON/);
  });

  it('is asked of every non-empty body with a JSON Content-Type, and of no other', () => {
    const id = 'errors.strict-json';
    expect(judged(id, { path: '/pets', status: 200, text: '[1,]' })).toMatch(/not strict JSON/);
    expect(judged(id, { path: '/other', status: 404, text: '{,}' })).toMatch(/not strict JSON/);
    expect(judged(id, { path: '/pets', status: 200, type: 'text/plain', text: '[1,]' })).toBe(
      undefined,
    );
    expect(judged(id, { path: '/pets', status: 200, text: '' })).toBeUndefined();
    // An answer read from a HAR file may come without its bytes.
    const strict = ANSWER_ORACLES.find((o) => o.id === id);
    const noBytes = { ...answer({ path: '/pets', status: 200, text: '[1,]' }), bytes: undefined };
    expect(strict?.judge(noBytes)).toBeUndefined();
  });
});

describe('a Pet', () => {
  const pet = (fields: Record<string, unknown>) => parseJson(petText(fields));

  it('has every spec field of its type', () => {
    expect(petProblem(pet({}))).toBeUndefined();
    expect(petProblem(pet({ status: undefined }))).toBeUndefined();
    expect(petProblem(pet({ name: 5 }))).toMatch(/^not a valid Pet: /);
    expect(petProblem(parseJson('{"id":1,"name":"Rex"}'))).toMatch(/categoryId/);
  });

  it('has an id within int64, read digit for digit', () => {
    expect(petProblem(parseJson(petText().replace('"id":1', '"id":9223372036854775807')))).toBe(
      undefined,
    );
    const beyond = parseJson(petText().replace('"id":1', '"id":9223372036854775808'));
    expect(petProblem(beyond)).toBe('id 9223372036854775808 is outside int64');
    const below = parseJson(petText().replace('"id":1', '"id":-9223372036854775809'));
    expect(petProblem(below)).toBe('id -9223372036854775809 is outside int64');
    const lowest = parseJson(petText().replace('"id":1', '"id":-9223372036854775808'));
    expect(petProblem(lowest)).toBeUndefined();
  });

  it('has a categoryId within int64 as a client holding doubles sees it', () => {
    const withCategory = (literal: string) =>
      parseJson(petText().replace('"categoryId":7', `"categoryId":${literal}`));
    // 2^63 - 1 and 2^63 are one double; the next double up is beyond int64.
    expect(petProblem(withCategory('9223372036854775807'))).toBeUndefined();
    expect(petProblem(withCategory('9223372036854775808'))).toBeUndefined();
    expect(petProblem(withCategory('-9223372036854775808'))).toBeUndefined();
    expect(petProblem(withCategory('9223372036854777856'))).toBe(
      'categoryId 9223372036854777856 is outside int64',
    );
    expect(petProblem(withCategory('-9223372036854777856'))).toBe(
      'categoryId -9223372036854777856 is outside int64',
    );
    // A body parsed without its literals is judged by its doubles.
    expect(petProblem({ id: 1, name: 'Rex', categoryId: 2 ** 64 })).toBe(
      `categoryId ${2 ** 64} is outside int64`,
    );
  });

  it('is described in at most three problems', () => {
    const details = ['a', 'b', 'c', 'd', 'e'].map((path) => ({ path, message: 'is wrong' }));
    expect(brief(details.slice(0, 3))).toBe('a is wrong; b is wrong; c is wrong');
    expect(brief(details.slice(0, 4))).toBe('a is wrong; b is wrong; c is wrong; and 1 more');
    expect(brief(details)).toBe('a is wrong; b is wrong; c is wrong; and 2 more');
  });
});

describe('the Pets of success answers', () => {
  const id = 'errors.pet-fields';
  const badPet = petText({ name: 5 });

  it('are judged in every 2xx of createPet, and in 200s of the reads only', () => {
    expect(judged(id, { method: 'POST', path: '/pets', status: 201, text: badPet })).toMatch(
      /^not a valid Pet/,
    );
    expect(judged(id, { method: 'POST', path: '/pets', status: 200, text: badPet })).toMatch(
      /^not a valid Pet/,
    );
    expect(judged(id, { method: 'POST', path: '/pets', status: 299, text: badPet })).toMatch(
      /^not a valid Pet/,
    );
    for (const status of [199, 300]) {
      expect(judged(id, { method: 'POST', path: '/pets', status, text: badPet })).toBeUndefined();
    }
    expect(judged(id, { path: '/pets/1', status: 203, text: badPet })).toBeUndefined();
    expect(judged(id, { path: '/pets/1', status: 200, text: badPet })).toMatch(/^not a valid/);
    expect(judged(id, { path: '/other', status: 200, text: badPet })).toBeUndefined();
  });

  it('need a JSON body with a JSON Content-Type', () => {
    expect(judged(id, { path: '/pets/1', status: 200, type: 'text/html', text: petText() })).toBe(
      'Content-Type is "text/html", not application/json',
    );
    expect(judged(id, { path: '/pets/1', status: 200, type: null, text: petText() })).toBe(
      'Content-Type is missing, not application/json',
    );
    expect(judged(id, { path: '/pets/1', status: 200, text: '' })).toBe('the body is empty');
  });

  it('of a list are an array, each item a Pet, the first bad one named', () => {
    expect(judged(id, { path: '/pets', status: 200, text: petText() })).toBe(
      'the body is not a JSON array of Pets',
    );
    expect(judged(id, { path: '/pets', status: 200, text: `[${petText()},${badPet}]` })).toMatch(
      /^item 1: not a valid Pet/,
    );
    expect(judged(id, { path: '/pets', status: 200, text: `[${petText()}]` })).toBeUndefined();
    expect(judged(id, { path: '/pets', status: 200, text: '[]' })).toBeUndefined();
  });

  it('of getPet are the pet asked for, digit for digit', () => {
    const big = petText().replace('"id":1', '"id":9007199254740993');
    expect(judged(id, { path: '/pets/9007199254740993', status: 200, text: big })).toBe(undefined);
    expect(judged(id, { path: '/pets/9007199254740992', status: 200, text: big })).toBe(
      'it is pet 9007199254740993',
    );
    expect(judged(id, { path: '/pets/2', status: 200, text: petText() })).toBe('it is pet 1');
    // A petId that is no positive integer in canonical form names no id to compare with.
    expect(judged(id, { path: '/pets/01', status: 200, text: petText() })).toBeUndefined();
    expect(judged(id, { path: '/pets/x1', status: 200, text: petText() })).toBeUndefined();
    expect(judged(id, { path: '/pets/1x', status: 200, text: petText() })).toBeUndefined();
  });
});

describe('error answers of an operation', () => {
  it('have a JSON body with a JSON Content-Type', () => {
    const id = 'errors.json-body';
    expect(judged(id, { path: '/pets/9', status: 404, type: 'text/plain', text: 'no' })).toBe(
      'Content-Type is "text/plain", not application/json',
    );
    expect(judged(id, { path: '/pets/9', status: 404, text: 'no' })).toMatch(
      /^the body is not JSON/,
    );
    expect(judged(id, { path: '/pets/9', status: 404, text: ERROR(404) })).toBeUndefined();
    expect(judged(id, { path: '/pets?limit=0', status: 400, type: null })).toBe(
      'Content-Type is missing, not application/json',
    );
    expect(judged(id, { path: '/pets/9', status: 399, type: 'text/plain' })).toBeUndefined();
    expect(judged(id, { path: '/nowhere', status: 404, type: 'text/plain' })).toBeUndefined();
  });

  it('are Errors: code, message and status', () => {
    const id = 'errors.error-schema';
    expect(judged(id, { path: '/pets/9', status: 404, text: ERROR(404) })).toBeUndefined();
    expect(judged(id, { path: '/pets/9', status: 404, text: '{"message":"gone"}' })).toMatch(
      /^not an Error: /,
    );
    expect(judged(id, { path: '/pets/9', status: 200, text: '{"message":"gone"}' })).toBe(
      undefined,
    );
    expect(judged(id, { path: '/pets/9', status: 400, text: '{"message":"gone"}' })).toMatch(
      /^not an Error/,
    );
    // Not JSON is errors.json-body's to report; another path is nobody's.
    expect(judged(id, { path: '/pets/9', status: 404, type: 'text/plain', text: '{}' })).toBe(
      undefined,
    );
    expect(judged(id, { path: '/nowhere', status: 404, text: '{}' })).toBeUndefined();
  });

  it('say the HTTP status in their body', () => {
    const id = 'errors.status-matches';
    expect(judged(id, { path: '/pets/9', status: 404, text: ERROR(404) })).toBeUndefined();
    expect(judged(id, { path: '/pets/9', status: 404, text: ERROR(400) })).toBe(
      'the Error body says status 400',
    );
    expect(judged(id, { path: '/pets/9', status: 400, text: ERROR(404) })).toBe(
      'the Error body says status 404',
    );
    expect(judged(id, { path: '/pets/9', status: 399, text: ERROR(404) })).toBeUndefined();
    expect(judged(id, { path: '/pets/9', status: 404, text: '{"status":400}' })).toBeUndefined();
    expect(judged(id, { path: '/pets/9', status: 404, type: 'text/plain', text: ERROR(400) })).toBe(
      undefined,
    );
    expect(judged(id, { path: '/nowhere', status: 404, text: ERROR(400) })).toBeUndefined();
  });

  it('say something in their code and message (advisory)', () => {
    const id = 'errors.error-not-empty';
    const error = (code: string, message: string) => JSON.stringify({ code, message, status: 404 });
    expect(judged(id, { path: '/pets/9', status: 404, text: ERROR(404) })).toBeUndefined();
    expect(judged(id, { path: '/pets/9', status: 404, text: error('not_found', '') })).toBe(
      "the Error's message is empty",
    );
    expect(judged(id, { path: '/pets/9', status: 404, text: error(' \t', 'no pet 9') })).toBe(
      "the Error's code is empty",
    );
    expect(judged(id, { path: '/pets/9', status: 404, text: error('', ' ') })).toBe(
      "the Error's code and message are empty",
    );
    expect(judged(id, { path: '/pets/9', status: 404, text: error('x', 'y') })).toBeUndefined();
    // Only an operation's Errors: a JSON body that is no Error is errors.error-schema's to judge.
    expect(judged(id, { path: '/nowhere', status: 404, text: error('', '') })).toBeUndefined();
    expect(judged(id, { path: '/pets/9', status: 404, text: '{"code":"","message":""}' })).toBe(
      undefined,
    );
    expect(judged(id, { path: '/pets/9', status: 200, text: error('', '') })).toBeUndefined();
    expect(
      judged(id, { path: '/pets/9', status: 404, type: 'text/plain', text: error('', '') }),
    ).toBeUndefined();
  });
});

describe('success statuses', () => {
  const id = 'errors.success-status';

  it('are 200 for the reads and 201 for createPet', () => {
    expect(judged(id, { path: '/pets', status: 200, text: '[]' })).toBeUndefined();
    expect(judged(id, { method: 'POST', path: '/pets', status: 201, text: petText() })).toBe(
      undefined,
    );
    expect(judged(id, { method: 'POST', path: '/pets', status: 200, text: petText() })).toBe(
      "a success other than the spec's 201",
    );
    expect(judged(id, { path: '/pets/1', status: 201, text: petText() })).toBe(
      "a success other than the spec's 200",
    );
    expect(judged(id, { path: '/pets', status: 204 })).toBe(
      "a success other than the spec's 200 with no body",
    );
    expect(judged(id, { path: '/pets', status: 299, text: ' \n' })).toBe(
      "a success other than the spec's 200 with no body",
    );
  });

  it('say nothing of other statuses and other paths', () => {
    expect(judged(id, { path: '/pets', status: 199 })).toBeUndefined();
    expect(judged(id, { path: '/pets', status: 300 })).toBeUndefined();
    expect(judged(id, { path: '/nowhere', status: 204 })).toBeUndefined();
  });
});

describe('integers written plainly', () => {
  const id = 'errors.integers-written-plainly';

  it('are what Pets and Errors write, and 7.0 or 7e0 is advised on', () => {
    expect(judged(id, { path: '/pets/7', status: 200, text: petText({ id: 7 }) })).toBeUndefined();
    expect(
      judged(id, { path: '/pets/7', status: 200, text: petText().replace(':1,', ':7.0,') }),
    ).toBe('the Pet writes id as 7.0, which an int64 reader refuses');
    expect(
      judged(id, {
        path: '/pets',
        status: 200,
        text: `[${petText()},${petText().replace('"categoryId":7', '"categoryId":7e0')}]`,
      }),
    ).toBe('item 1 writes categoryId as 7e0, which an int64 reader refuses');
    expect(
      judged(id, { path: '/pets/9', status: 404, text: ERROR(404).replace('404', '404.0') }),
    ).toBe('the Error writes status as 404.0, which an int64 reader refuses');
  });

  it('say nothing of other paths, other bodies and other statuses', () => {
    const odd = petText().replace(':1,', ':7.0,');
    expect(judged(id, { path: '/nowhere', status: 200, text: odd })).toBeUndefined();
    expect(
      judged(id, { path: '/pets/7', status: 200, text: odd, type: 'text/plain' }),
    ).toBeUndefined();
    expect(judged(id, { path: '/pets/7', status: 304, text: odd })).toBeUndefined();
  });
});

describe('member names', () => {
  const id = 'errors.unique-member-names';

  it('each once in an object; one written twice is advised on, with where it is', () => {
    const twice = petText().replace('"categoryId":7', '"categoryId":"7","categoryId":7');
    expect(judged(id, { path: '/pets/7', status: 200, text: petText() })).toBeUndefined();
    expect(judged(id, { path: '/pets/7', status: 200, text: twice })).toBe(
      'the body names the member /categoryId twice: which value a client reads depends on its JSON parser',
    );
    expect(judged(id, { path: '/pets', status: 200, text: `[${petText()},${twice}]` })).toMatch(
      /^the body names the member \/1\/categoryId twice/,
    );
    expect(
      judged(id, {
        path: '/pets/9',
        status: 404,
        text: ERROR(404).replace('"status":404', '"status":404,"status":404'),
      }),
    ).toMatch(/^the body names the member \/status twice/);
  });

  it('say nothing of other paths and of bodies that are no JSON', () => {
    const twice = '{"a":1,"a":2}';
    expect(judged(id, { path: '/nowhere', status: 200, text: twice })).toBeUndefined();
    expect(
      judged(id, { path: '/pets/7', status: 200, text: twice, type: 'text/plain' }),
    ).toBeUndefined();
    // The same name in two objects is no repeat.
    expect(
      judged(id, { path: '/pets', status: 200, text: `[${petText()},${petText()}]` }),
    ).toBeUndefined();
  });
});

describe('server errors', () => {
  it('are every 5xx, to any request', () => {
    const id = 'errors.no-server-errors';
    expect(judged(id, { path: '/nowhere', status: 500, text: ERROR(500, 'internal_error') })).toBe(
      'a server error',
    );
    expect(judged(id, { path: '/pets', status: 503 })).toBe('a server error');
    expect(judged(id, { path: '/pets', status: 499 })).toBeUndefined();
  });

  it('leave out a 501 to HEAD alone, the way HTTP says a method is not implemented', () => {
    const id = 'errors.no-server-errors';
    expect(judged(id, { method: 'HEAD', path: '/pets', status: 501 })).toBeUndefined();
    expect(judged(id, { method: 'HEAD', path: '/pets', status: 500 })).toBe('a server error');
    expect(judged(id, { method: 'HEAD', path: '/pets/1', status: 503 })).toBe('a server error');
    for (const method of ['GET', 'POST'] as const) {
      expect(judged(id, { method, path: '/pets', status: 501 }), method).toBe('a server error');
    }
  });

  it('leave a 503 the kit waited out alone, and judge the answer after it', () => {
    const id = 'errors.no-server-errors';
    const unavailable = { path: '/pets', status: 503, headers: { 'retry-after': '1' } };
    expect(judged(id, { ...unavailable, retried: true })).toBeUndefined();
    expect(judged(id, unavailable)).toBe('a server error');
  });
});

describe('the charset of a JSON answer', () => {
  const id = 'errors.json-charset';
  const list = (type: string) => ({ path: '/pets?limit=1', status: 200, type, text: '[]' });

  it('may be absent or name UTF-8 under any of its labels', () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
    ]) {
      expect(judged(id, list(type)), type).toBeUndefined();
    }
  });

  it('is advised on when it names another charset', () => {
    expect(judged(id, list('application/json; charset=ISO-8859-1'))).toMatch(
      /names the charset ISO-8859-1/,
    );
    expect(judged(id, list('text/plain; charset=ISO-8859-1'))).toBeUndefined();
  });
});

describe('an answer to a request whose Accept takes no JSON', () => {
  it('is no operation of the spec: its check judges it alone', () => {
    const xml = { request: { headers: { Accept: 'application/xml' } } };
    expect(routeOf(answer({ path: '/pets?limit=1', status: 406, ...xml }))).toEqual({
      op: 'other',
    });
    const any = { request: { headers: { accept: 'text/html, */*;q=0.8' } } };
    expect(routeOf(answer({ path: '/pets?limit=1', status: 200, ...any })).op).toBe('listPets');
    // A JSONP callback takes JSON as any client does: its answers are the operation's.
    expect(routeOf(answer({ path: '/pets?limit=1&callback=cb', status: 200 })).op).toBe('listPets');
  });
});
