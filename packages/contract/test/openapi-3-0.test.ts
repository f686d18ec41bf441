import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  openApiDocument,
  openApiDocument30,
  schemaToOpenApi30,
  toOpenApi30,
} from '../src/index.js';

type Json = Record<string, unknown>;

/**
 * 3.0 back to 3.1, written independently of the converter: if it gives the original document
 * back, the 3.0 rendering lost nothing the original says.
 */
function upgradeSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example') out.examples = schema['x-examples'] ?? [value];
    else if (key === 'x-examples') continue;
    else if (key === 'nullable') continue;
    else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([name, sub]) => [name, upgradeSchema(sub as Json)]),
      );
    } else if (key === 'items' || key === 'not') out[key] = upgradeSchema(value as Json);
    else if (['allOf', 'anyOf', 'oneOf'].includes(key)) {
      out[key] = (value as Json[]).map(upgradeSchema);
    } else out[key] = value;
  }
  if (schema.nullable === true) out.type = [schema.type, 'null'];
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (out[exclusive] === true) {
      out[exclusive] = out[bound];
      delete out[bound];
    }
  }
  const all = out.allOf as Json[] | undefined;
  if (all?.length === 1 && typeof all[0]?.$ref === 'string') {
    const { allOf: _, ...rest } = out;
    return { $ref: all[0].$ref, ...rest };
  }
  return out;
}

function upgrade(node: unknown, at = '#'): unknown {
  if (Array.isArray(node)) return node.map((item) => upgrade(item));
  if (typeof node !== 'object' || node === null) return node;
  if (at === '#/components/schemas') {
    return Object.fromEntries(
      Object.entries(node).map(([name, schema]) => [name, upgradeSchema(schema)]),
    );
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === 'schema') return [key, upgradeSchema(value)];
      if (key === 'example' || key === 'examples') return [key, value];
      return [key, upgrade(value, `${at}/${key}`)];
    }),
  );
}

const original = JSON.parse(JSON.stringify(openApiDocument)) as Json;

/** A schema of a document, compiled with the document's component schemas resolvable. */
function compile(schema: unknown, components: unknown) {
  const inline = JSON.stringify({ ...(schema as Json), $defs: components }).replaceAll(
    '"$ref":"#/components/schemas/',
    '"$ref":"#/$defs/',
  );
  return Compile(JSON.parse(inline) as TSchema);
}

describe('the OpenAPI 3.0 rendering of the document', () => {
  it('passes an OpenAPI 3.0 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument30));
    expect(result.errors ?? []).toEqual([]);
    expect(validator.version).toBe('3.0');
  });

  it('says what the 3.1 document says: upgraded back, it is the same document', () => {
    const back = upgrade(openApiDocument30) as Json & { info: { license: Json } };
    const { url, ...license } = back.info.license;
    expect(url).toBe('https://spdx.org/licenses/MIT.html');
    back.info.license = { ...license, identifier: 'MIT' };
    expect({ ...back, openapi: '3.1.0' }).toEqual(original);
  });

  it('accepts and refuses the same values with each component schema', () => {
    const schemas31 = (original.components as Json).schemas as Json;
    const schemas30 = (openApiDocument30.components as Json).schemas as Json;
    for (const name of Object.keys(schemas31)) {
      const a = compile(schemas31[name], schemas31);
      const b = compile(schemas30[name], schemas30);
      const sample = fc.oneof(
        fc.anything(),
        fc.record(
          {
            id: fc.integer(),
            name: fc.string(),
            categoryId: fc.integer(),
            status: fc.constantFrom('available', 'pending', 'sold', 'lost'),
          },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            code: fc.constantFrom('not_found', 'gone', 'nope'),
            message: fc.string(),
            status: fc.integer({ min: 0, max: 700 }),
            details: fc.array(fc.record({ path: fc.string(), message: fc.string() })),
          },
          { requiredKeys: ['code'] },
        ),
      );
      fc.assert(
        fc.property(sample, (value) => a.Check(value) === b.Check(value)),
        { numRuns: 300 },
      );
    }
  });

  it('is what the package ships as openapi-3.0.json', () => {
    const shipped = JSON.parse(
      readFileSync(new URL('../openapi-3.0.json', import.meta.url), 'utf8'),
    );
    expect(shipped).toEqual(JSON.parse(JSON.stringify(openApiDocument30)));
  });
});

describe('toOpenApi30', () => {
  const doc = (schema: unknown, extra: Json = {}) => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { S: schema } },
    ...extra,
  });
  const converted = (schema: unknown) =>
    ((toOpenApi30(doc(schema)).components as Json).schemas as Json).S;

  it.each([
    ['an example', { type: 'integer', examples: [1] }, { type: 'integer', example: 1 }],
    [
      'several examples',
      { type: 'integer', examples: [1, 2] },
      { type: 'integer', example: 1, 'x-examples': [1, 2] },
    ],
    ['const', { const: 'x' }, { enum: ['x'] }],
    ['a null type', { type: ['string', 'null'] }, { type: 'string', nullable: true }],
    [
      'a numeric exclusiveMinimum',
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'number', minimum: 0, exclusiveMinimum: true },
    ],
    [
      'a reference with siblings',
      { $ref: '#/components/schemas/T', description: 'd' },
      { allOf: [{ $ref: '#/components/schemas/T' }], description: 'd' },
    ],
    [
      'nested schemas',
      { type: 'object', properties: { a: { type: 'array', items: { const: 1 } } } },
      { type: 'object', properties: { a: { type: 'array', items: { enum: [1] } } } },
    ],
  ])('writes %s in 3.0 terms', (_, schema, expected) => {
    expect(converted(schema)).toEqual(expected);
  });

  it.each([
    ['a keyword 3.0 lacks', { type: 'object', unevaluatedProperties: false }],
    ['a multi-type', { type: ['string', 'integer'] }],
    ['a boolean schema', true],
  ])('throws on %s instead of serving it wrong', (_, schema) => {
    expect(() => converted(schema)).toThrow(/no OpenAPI 3.0 form/);
  });

  it('throws on webhooks and on a document that is not 3.1', () => {
    expect(() => toOpenApi30(doc({}, { webhooks: {} }))).toThrow(/webhooks/);
    expect(() => toOpenApi30({ ...doc({}), openapi: '3.0.3' })).toThrow(/not an OpenAPI 3.1/);
  });

  it('converts a parameter’s schema and leaves examples, which are data, as they are', () => {
    const out = toOpenApi30(
      doc(
        {},
        {
          paths: {
            '/a': {
              get: {
                parameters: [{ name: 'q', in: 'query', schema: { const: 2 }, example: 2 }],
                responses: {
                  '200': {
                    description: 'ok',
                    content: { 'application/json': { example: { schema: { const: 1 } } } },
                  },
                },
              },
            },
          },
        },
      ),
    ) as { paths: Record<string, { get: Json }> };
    const get = out.paths['/a']?.get as {
      parameters: Json[];
      responses: Record<string, { content: Record<string, Json> }>;
    };
    expect(get.parameters[0]?.schema).toEqual({ enum: [2] });
    expect(get.responses['200']?.content['application/json']?.example).toEqual({
      schema: { const: 1 },
    });
  });

  it('converts a lone schema', () => {
    expect(schemaToOpenApi30({ type: ['integer', 'null'], examples: [] })).toEqual({
      type: 'integer',
      nullable: true,
    });
  });
});
