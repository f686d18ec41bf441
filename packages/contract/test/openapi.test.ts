import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  buildOpenApiDocument,
  ERROR_CODES,
  ErrorBody,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
  NewPet,
  OPENAPI_SERVERS,
  openApiDocument,
  Pet,
  PetStatus,
  SpecPet,
} from '../src/index.js';

type Operation = {
  operationId: string;
  deprecated?: boolean;
  security?: unknown[];
  responses: Record<
    string,
    { $ref?: string; headers?: Record<string, unknown>; content?: unknown }
  >;
};

const operations = Object.values(openApiDocument.paths).flatMap(
  (item) => Object.values(item) as Operation[],
);
const byId = (id: string) => operations.find((op) => op.operationId === id) as Operation;

describe('OpenAPI document', () => {
  it('passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('builds its component schemas from the TypeBox schemas, the status by reference', () => {
    const { schemas } = openApiDocument.components;
    const status = { $ref: '#/components/schemas/PetStatus' };
    expect(schemas.PetStatus).toBe(PetStatus);
    expect(schemas.NewPet).toEqual({ ...NewPet, properties: { ...NewPet.properties, status } });
    expect(schemas.Pet.properties).toEqual({ ...Pet.properties, status });
    expect(schemas.ErrorBody.properties).toEqual({
      ...ErrorBody.properties,
      code: { $ref: '#/components/schemas/ErrorCode' },
    });
  });

  it('has exactly one enumeration of the statuses, the PetStatus component', () => {
    const text = JSON.stringify(openApiDocument);
    expect(text.split(JSON.stringify(PetStatus.enum))).toHaveLength(2);
  });

  it('describes Pet as this API returns it, status always there, and keeps the spec’s Pet', () => {
    expect(openApiDocument.components.schemas.Pet.required).toEqual(
      expect.arrayContaining(['id', 'name', 'categoryId', 'status']),
    );
    expect(SpecPet.required).not.toContain('status');
  });

  it('types the Error body’s code as the plain enumeration of the codes this API sends', () => {
    const { schemas } = openApiDocument.components;
    expect(schemas.ErrorCode).toMatchObject({ type: 'string', enum: [...ERROR_CODES] });
    expect(schemas.ErrorBody.properties.code).toEqual({
      $ref: '#/components/schemas/ErrorCode',
    });
    expect(JSON.stringify(openApiDocument)).not.toContain('anyOf');
    expect(Object.keys(schemas)).not.toContain('Error');
  });

  it('lists the production, staging and local servers, each ending with /v1', () => {
    const descriptions = OPENAPI_SERVERS.map((server) => server.description);
    expect(descriptions.map((d) => d.split(':')[0])).toEqual(['Production', 'Staging', 'Local']);
    expect(openApiDocument.servers).toEqual(OPENAPI_SERVERS);
    for (const server of OPENAPI_SERVERS) {
      const url = server.url.replace(/\{(\w+)\}/g, (_, name: string) => {
        const variable = (server.variables as Record<string, { default: string }>)[name];
        return variable?.default ?? '';
      });
      expect(new URL(url).pathname).toBe(API_PREFIX);
    }
  });

  it('puts the server a caller names first', () => {
    const document = buildOpenApiDocument({ serverUrl: '/v1' });
    expect(document.servers[0]).toEqual({ url: '/v1' });
    expect(document.servers.slice(1)).toEqual(openApiDocument.servers);
  });

  it('names the three operations of the spec', () => {
    expect(operations.map((op) => op.operationId).sort()).toEqual([
      'createPet',
      'getPet',
      'listPets',
    ]);
  });

  it('requires bearer auth on every operation', () => {
    expect(openApiDocument.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const op of operations) expect(op.security).toEqual([{ bearerAuth: [] }]);
  });

  it('marks only getPet deprecated, with its headers', () => {
    expect(operations.filter((op) => op.deprecated).map((op) => op.operationId)).toEqual([
      'getPet',
    ]);
    const headers = byId('getPet').responses['200']?.headers ?? {};
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining(Object.keys(GET_PET_DEPRECATION_HEADERS)),
    );
  });

  it('gives getPet’s removal date and replacement in its description and extensions', () => {
    const getPet = byId('getPet') as Operation & Record<string, unknown>;
    const day = GET_PET_SUNSET_AT.toISOString().slice(0, 10);
    expect(getPet.description).toContain(day);
    expect(getPet.description).toContain('`listPets`');
    expect(getPet['x-speakeasy-deprecation-message']).toBe(getPet.description);
    expect(getPet['x-speakeasy-deprecation-replacement']).toBe('listPets');
    expect(getPet['x-deprecated-sunset']).toBe(day);
    expect(getPet['x-deprecated-reason']).toBe(getPet.description);
  });

  it('ties the next-page Link header to listPets and its after parameter', () => {
    const ok = byId('listPets').responses['200'] as {
      links?: Record<string, { operationId: string; description: string }>;
    };
    expect(ok.links?.NextPage?.operationId).toBe('listPets');
    expect(ok.links?.NextPage?.description).toContain('`after`');
    expect(openApiDocument.components.headers.NextLink.description).toContain('`after`');
  });

  it('documents the next-page Link header on listPets', () => {
    expect(byId('listPets').responses['200']?.headers).toHaveProperty('Link');
  });

  it('declares the next page’s after as a Next-After header the NextPage link reads', () => {
    const ok = byId('listPets').responses['200'] as {
      headers: Record<string, unknown>;
      links: { NextPage: { parameters: Record<string, string> } };
    };
    expect(ok.headers['Next-After']).toEqual({ $ref: '#/components/headers/Next-After' });
    expect(openApiDocument.components.headers['Next-After'].schema).toMatchObject({
      type: 'integer',
    });
    // Every query parameter of listPets carries over to the next page, `after` from the header.
    const { parameters } = byId('listPets') as Operation & { parameters: { name: string }[] };
    expect(parameters.map((p) => p.name)).toContain('after');
    expect(ok.links.NextPage.parameters).toEqual(
      Object.fromEntries(
        parameters.map(({ name }) => [
          name,
          name === 'after' ? '$response.header.Next-After' : `$request.query.${name}`,
        ]),
      ),
    );
  });

  it('documents the Idempotency-Key header of createPet with its 409 and 422', () => {
    const createPet = byId('createPet') as Operation & { parameters?: { name: string }[] };
    expect(createPet.parameters?.map((p) => p.name)).toEqual(['Idempotency-Key']);
    expect(Object.keys(createPet.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(createPet.responses['201']?.headers).toHaveProperty('Idempotency-Replayed');
  });

  it('references ErrorBody from every error response', () => {
    const text = JSON.stringify(openApiDocument);
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const resolved = response.$ref
          ? JSON.stringify(openApiDocument.components.responses)
          : JSON.stringify(response.content);
        expect(resolved, `${op.operationId} ${status}`).toContain('#/components/schemas/ErrorBody');
      }
    }
    expect(text).not.toContain('~kind');
  });

  it.each(ERROR_CODES)('lists the error code %s in its description', (code) => {
    expect(openApiDocument.info.description).toContain(`\`${code}\``);
  });

  it('is written to openapi.json at build, identical to the export', () => {
    const written = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(written).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
  });
});
