/**
 * OpenAPI 3.1 to 3.0.3, for tools that read only 3.0 (progenitor, OpenAPI Generator's stable
 * generators). Each 3.1 construct becomes the 3.0 one of the same meaning; a construct 3.0 cannot
 * state throws, so a document that gains one fails its tests instead of being served wrong.
 */

type Json = Record<string, unknown>;

/** What a 3.0 Schema Object may hold (OpenAPI 3.0.3 §4.7.24), besides `x-` extensions. */
const SCHEMA_KEYWORDS_3_0 = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'example',
  'deprecated',
  '$ref',
]);

/** Top-level fields of a 3.1 document that 3.0 has no place for. */
const ONLY_3_1 = ['webhooks', 'jsonSchemaDialect'];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A 3.1 Schema Object (JSON Schema 2020-12) as the 3.0 Schema Object of the same meaning. */
export function schemaToOpenApi30(schema: unknown, at = '#'): unknown {
  if (typeof schema === 'boolean') {
    throw new Error(`${at}: a boolean schema has no OpenAPI 3.0 form`);
  }
  if (!isObject(schema)) throw new Error(`${at}: not a schema`);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    const here = `${at}/${key}`;
    if (key.startsWith('x-')) out[key] = value;
    else if (key === 'examples') {
      if (!Array.isArray(value)) throw new Error(`${here}: not an array`);
      // 3.0 holds one example, the one tools show: the first. All of them stay in an extension.
      if (value.length > 0) out.example = value[0];
      if (value.length > 1) out['x-examples'] = value;
    } else if (key === 'const') out.enum = [value];
    else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null');
      if (types.length !== 1)
        throw new Error(`${here}: ${JSON.stringify(value)} has no OpenAPI 3.0 form`);
      out.type = types[0];
      if (types.length < value.length) out.nullable = true;
    } else if (
      (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') &&
      typeof value === 'number'
    ) {
      out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = value;
      out[key] = true;
    } else if (key === 'properties') {
      if (!isObject(value)) throw new Error(`${here}: not an object`);
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [
          name,
          schemaToOpenApi30(sub, `${here}/${name}`),
        ]),
      );
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      if (!Array.isArray(value)) throw new Error(`${here}: not an array`);
      out[key] = value.map((sub, i) => schemaToOpenApi30(sub, `${here}/${i}`));
    } else if (key === 'items' || key === 'not') {
      out[key] = schemaToOpenApi30(value, here);
    } else if (key === 'additionalProperties') {
      out[key] = typeof value === 'boolean' ? value : schemaToOpenApi30(value, here);
    } else if (SCHEMA_KEYWORDS_3_0.has(key)) out[key] = value;
    else throw new Error(`${here}: the keyword ${key} has no OpenAPI 3.0 form`);
  }
  if (typeof out.$ref === 'string' && Object.keys(out).length > 1) {
    // 3.0 ignores a reference's siblings; under `allOf` they keep applying.
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }], ...rest };
  }
  return out;
}

/** Walks the document outside schemas, converting each schema where 3.0 has one. */
function convert(node: unknown, at: string, underComponentSchemas: boolean): unknown {
  if (Array.isArray(node)) return node.map((item, i) => convert(item, `${at}/${i}`, false));
  if (!isObject(node)) return node;
  if (underComponentSchemas) {
    return Object.fromEntries(
      Object.entries(node).map(([name, schema]) => [
        name,
        schemaToOpenApi30(schema, `${at}/${name}`),
      ]),
    );
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${key}`;
    if (key === 'schema' && isObject(value)) out[key] = schemaToOpenApi30(value, here);
    // Examples are data: the same in both versions, whatever keys they hold.
    else if (key === 'example' || key === 'examples') out[key] = value;
    else out[key] = convert(value, here, here === '#/components/schemas');
  }
  return out;
}

/**
 * The OpenAPI 3.0.3 rendering of an OpenAPI 3.1 document: the same operations, parameters,
 * headers, responses and schemas, each schema in 3.0's dialect (`example` for `examples`,
 * `nullable` for a `null` type, `enum` for `const`, boolean `exclusiveMinimum`; several examples
 * also in `x-examples`); a license's
 * SPDX `identifier` becomes its SPDX page as `url`. Throws on what 3.0 cannot state.
 */
export function toOpenApi30<T extends object>(document: T): Json {
  const doc = JSON.parse(JSON.stringify(document)) as Json;
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.1.')) {
    throw new Error(`not an OpenAPI 3.1 document: openapi is ${JSON.stringify(doc.openapi)}`);
  }
  for (const field of ONLY_3_1) {
    if (field in doc) throw new Error(`#/${field} has no OpenAPI 3.0 form`);
  }
  const info = doc.info as Json;
  if ('summary' in info) throw new Error('#/info/summary has no OpenAPI 3.0 form');
  if (isObject(info.license) && typeof info.license.identifier === 'string') {
    const { identifier, ...license } = info.license;
    info.license = { ...license, url: `https://spdx.org/licenses/${identifier}.html` };
  }
  if (isObject(doc.components) && 'pathItems' in doc.components) {
    throw new Error('#/components/pathItems has no OpenAPI 3.0 form');
  }
  const out = convert(doc, '#', false) as Json;
  return { ...out, openapi: '3.0.3' };
}
