import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ErrorBody,
  GET_PET_DEPRECATION_HEADERS,
  NewPet,
  openApiDocument,
  Pet,
  PetStatus,
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

  it('uses the TypeBox schemas themselves as component schemas', () => {
    const { schemas } = openApiDocument.components;
    expect(schemas.Pet).toBe(Pet);
    expect(schemas.NewPet).toBe(NewPet);
    expect(schemas.PetStatus).toBe(PetStatus);
    expect(schemas.Error).toBe(ErrorBody);
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

  it('documents the next-page Link header on listPets', () => {
    expect(byId('listPets').responses['200']?.headers).toHaveProperty('Link');
  });

  it('documents the Idempotency-Key header of createPet with its 409 and 422', () => {
    const createPet = byId('createPet') as Operation & { parameters?: { name: string }[] };
    expect(createPet.parameters?.map((p) => p.name)).toEqual(['Idempotency-Key']);
    expect(Object.keys(createPet.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(createPet.responses['201']?.headers).toHaveProperty('Idempotency-Replayed');
  });

  it('references Error from every error response', () => {
    const text = JSON.stringify(openApiDocument);
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const resolved = response.$ref
          ? JSON.stringify(openApiDocument.components.responses)
          : JSON.stringify(response.content);
        expect(resolved, `${op.operationId} ${status}`).toContain('#/components/schemas/Error');
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
