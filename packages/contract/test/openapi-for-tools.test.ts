import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_PATTERN,
  LIST_PETS_PARAMS,
  NAME_PATTERN,
  openApiDocument,
} from '../src/index.js';

type Json = Record<string, unknown>;
const doc = JSON.parse(JSON.stringify(openApiDocument)) as Json & {
  paths: Record<string, Record<string, Json & { operationId: string; parameters: Json[] }>>;
  components: Record<string, Record<string, Json>>;
};

/** Follows a local `$ref` in the document. */
function resolve<T = Json>(node: unknown): T {
  let current = node as Json;
  while (typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key] as Json, doc);
  }
  return current as T;
}

const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
const byId = (id: string) =>
  operations.find((op) => op.operationId === id) as (typeof operations)[0];
const responsesOf = (id: string) => byId(id).responses as Record<string, Json>;

/** Compiles a schema of the document, its `$ref`s to component schemas made resolvable. */
function validator(schema: unknown) {
  // TypeBox resolves `$ref` within the schema it compiles: the components go in `$defs`.
  const inline = JSON.parse(
    JSON.stringify({ ...(schema as Json), $defs: doc.components.schemas }).replaceAll(
      '"$ref":"#/components/schemas/',
      '"$ref":"#/$defs/',
    ),
  );
  return Compile(inline as TSchema);
}

describe('the OpenAPI document, for client generators and docs', () => {
  it('names its license', () => {
    expect((doc.info as Json).license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('puts each parameter’s description on the parameter object, not in its schema', () => {
    for (const op of operations) {
      for (const parameter of op.parameters ?? []) {
        expect(parameter.description, `${op.operationId} ${parameter.name}`).toEqual(
          expect.any(String),
        );
        expect((parameter.schema as Json).description, `${parameter.name} schema`).toBeUndefined();
      }
    }
    expect(byId('listPets').parameters.map((p) => p.name)).toEqual(LIST_PETS_PARAMS);
    expect(byId('getPet').parameters.map((p) => p.name)).toEqual(['petId']);
  });

  it.each([
    ['listPets', '200', ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Link']],
    ['createPet', '201', ['X-Request-Id', 'Location', 'Idempotency-Replayed', 'RateLimit']],
    ['getPet', '200', ['X-Request-Id', 'Deprecation', 'Sunset', 'Link', 'RateLimit']],
    ['getPet', '404', ['X-Request-Id', 'Deprecation', 'Sunset', 'Link']],
    ['listPets', '401', ['X-Request-Id', 'WWW-Authenticate']],
    ['listPets', '405', ['X-Request-Id', 'Allow']],
    ['createPet', '429', ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy']],
    ['createPet', '409', ['Retry-After']],
    ['getPet', '503', ['X-Request-Id', 'Retry-After']],
  ])('declares the headers of %s %s', (id, status, names) => {
    const headers = resolve(responsesOf(id)[status]).headers as Json;
    expect(Object.keys(headers)).toEqual(expect.arrayContaining(names));
    for (const header of Object.values(headers)) {
      expect(resolve(header).schema).toBeDefined();
    }
  });

  it.each([
    ['listPets', [200, 400, 401, 405, 408, 414, 429, 431, 500, 503]],
    ['createPet', [201, 400, 401, 405, 408, 409, 413, 414, 415, 422, 429, 431, 500, 503]],
    ['getPet', [200, 400, 401, 404, 405, 408, 410, 414, 429, 431, 500, 503]],
  ])('declares every status %s answers, each failure with the ErrorBody schema', (id, statuses) => {
    const responses = responsesOf(id);
    expect(Object.keys(responses).map(Number)).toEqual(statuses);
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) < 400) continue;
      const content = resolve(response).content as Record<string, Json>;
      expect(content['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/ErrorBody',
      });
    }
  });

  it('gives examples that validate against their schemas, Error examples with their status', () => {
    let checked = 0;
    for (const op of operations) {
      const body = (op.requestBody as Json | undefined)?.content as
        | Record<string, Json>
        | undefined;
      for (const media of Object.values(body ?? {})) {
        expect(validator(media.schema).Check(media.example), `${op.operationId} body`).toBe(true);
        checked++;
      }
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const content = resolve(response).content as Record<string, Json>;
        for (const media of Object.values(content)) {
          const where = `${op.operationId} ${status}`;
          expect(media.example, where).toBeDefined();
          expect(validator(media.schema).Check(media.example), where).toBe(true);
          if (Number(status) >= 400) {
            const example = media.example as { status: number; details?: unknown };
            expect(example.status, where).toBe(Number(status));
            if (example.details !== undefined) expect(status, where).toBe('400');
          }
          checked++;
        }
      }
      for (const parameter of op.parameters ?? []) {
        const examples = [parameter.example, ...((resolve(parameter.schema).examples as []) ?? [])];
        for (const example of examples.filter((e) => e !== undefined)) {
          expect(validator(parameter.schema).Check(example), parameter.name as string).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    for (const header of Object.values(doc.components.headers ?? {})) {
      const schema = header.schema as Json;
      for (const example of (schema.examples as unknown[]) ?? []) {
        expect(validator(schema).Check(example)).toBe(true);
      }
    }
  });
});

/** ECMAScript's own reading of the rules the patterns spell out. */
const nameRule = (name: string) => /^\S(?:[\s\S]*\S)?$/u.test(name);
const keyRule = (key: string) => /^[\x20-\x7E]+$/.test(key) && key.trim() === key;

// Characters where engines differ or rules bite: every ECMAScript whitespace, controls, a
// surrogate pair, letters and printable ASCII.
const interesting = fc.constantFrom(
  ...'\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff\u0085\u180e',
  'a',
  'Z',
  '-',
  '~',
  '\u00e9',
  '\u{1F436}',
  '\u0000',
  '\u007f',
);
const names = fc
  .array(fc.oneof(interesting, fc.string({ maxLength: 2 })), { maxLength: 6 })
  .map((parts) => parts.join(''));
const keys = fc.string({
  unit: fc.constantFrom(' ', 'a', '~', '!', '\t', '\u007f', '\u00e9'),
  maxLength: 5,
});

describe('patterns every regex engine reads alike', () => {
  it('the name pattern accepts exactly what ECMAScript `\\s` rules accept', () => {
    const pattern = new RegExp(NAME_PATTERN, 'u');
    fc.assert(
      fc.property(names, (name) => pattern.test(name) === nameRule(name)),
      {
        numRuns: 2000,
      },
    );
  });

  it('the Idempotency-Key pattern accepts exactly 1+ printable ASCII, not spaced at the ends', () => {
    const pattern = new RegExp(IDEMPOTENCY_KEY_PATTERN);
    fc.assert(
      fc.property(keys, (key) => pattern.test(key) === keyRule(key)),
      { numRuns: 2000 },
    );
  });

  it('compile in Python’s re and match there as in ECMAScript', () => {
    const samples = [
      ...fc.sample(names, { numRuns: 500, seed: 1 }),
      ...fc.sample(keys, { numRuns: 200, seed: 2 }),
    ].filter((s) => !/[\uD800-\uDFFF]/u.test(s));
    const script = [
      'import json, re, sys',
      'data = json.load(sys.stdin)',
      'out = {}',
      'for name, pattern in data["patterns"].items():',
      '    rx = re.compile(pattern)',
      // fullmatch: Python's `$` also matches before a final newline; JSON Schema anchors whole.
      '    out[name] = [bool(rx.fullmatch(s)) for s in data["samples"]]',
      'print(json.dumps(out))',
    ].join('\n');
    const patterns = { name: NAME_PATTERN, key: IDEMPOTENCY_KEY_PATTERN };
    const answer = JSON.parse(
      execFileSync('python3', ['-c', script], {
        input: JSON.stringify({ patterns, samples }),
        encoding: 'utf8',
      }),
    ) as Record<keyof typeof patterns, boolean[]>;
    expect(answer.name).toEqual(samples.map((s) => new RegExp(NAME_PATTERN, 'u').test(s)));
    expect(answer.key).toEqual(samples.map((s) => new RegExp(IDEMPOTENCY_KEY_PATTERN).test(s)));
  });
});
