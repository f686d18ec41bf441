import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PetStatus,
  SpecErrorBody,
  SpecNewPet,
  SpecPet,
  toOpenApi30,
} from '@animal-store/contract';

type Json = Record<string, unknown>;

/** A schema as plain JSON (what TypeBox keeps beside it, such as symbols, left out). */
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An answer whose body is an Error (spec §7). */
const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

/**
 * Any other status: the spec names no others, and leaves open which ones a server sends
 * (forbidden, rate-limited, server errors, §7), so the document does not narrow them; every
 * error answer carries the Error body (§7).
 */
const OTHER = errorAnswer('Any other status the service sends: the spec leaves them open (§7)');

const UNAUTHORIZED = errorAnswer('The API key is missing or invalid (§5)');

/**
 * The specification (docs/specification.md) as an OpenAPI 3.1 document: exactly what it states,
 * from the contract's spec schemas (`SpecNewPet`, `SpecPet`, `SpecErrorBody`), and every gap left
 * open: no limit on `name` or `categoryId`, no default `status`, other fields allowed, any other
 * status as a `default` Error answer, no paging, no headers the spec does not name. Tools run with
 * it (Schemathesis, Dredd, Prism) judge a server by the spec, never by one implementation's
 * choices.
 */
export function buildSpecOpenApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Store Service',
      version: '1.0.0',
      description:
        'The Animal Store service exactly as its specification states it. Where the specification leaves a gap (name limits, the default status, paging, error codes, other statuses), this document leaves it open too.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The service: its base address ends with the path prefix /v1 (§1, §9)',
        variables: { base_url: { default: 'http://127.0.0.1:3000/v1' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List animals (§4.1)',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: 'Maximum number of animals returned (§4.1, §8)',
              schema: {
                type: 'integer',
                minimum: LIMIT_MIN,
                maximum: LIMIT_MAX,
                default: LIMIT_DEFAULT,
              },
            },
            {
              name: 'status',
              in: 'query',
              required: false,
              description: 'Filters by availability status (§4.1)',
              schema: ref('PetStatus'),
            },
          ],
          responses: {
            '200': {
              description: 'A JSON array of Pet: a paginated list (§4.1)',
              content: {
                'application/json': { schema: { type: 'array', items: ref('Pet') } },
              },
            },
            '401': UNAUTHORIZED,
            default: OTHER,
          },
        },
        post: {
          operationId: 'createPet',
          summary: 'Add an animal (§4.2)',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('NewPet') } },
          },
          responses: {
            '201': {
              description: 'The created Pet, with its assigned id (§4.2)',
              content: { 'application/json': { schema: ref('Pet') } },
            },
            '400': errorAnswer('The body misses a required field or holds an invalid value (§4.2)'),
            '401': UNAUTHORIZED,
            default: OTHER,
          },
        },
      },
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          summary: 'Get an animal (§4.3), deprecated',
          description:
            'Deprecated: removal is scheduled for 5 December 2030; the replacement is GET /pets with the status filter (§4.3, §9).',
          deprecated: true,
          parameters: [
            {
              name: 'petId',
              in: 'path',
              required: true,
              description: 'The identifier of the animal (§4.3)',
              schema: { type: 'integer', format: 'int64' },
            },
          ],
          responses: {
            '200': {
              description: 'The Pet (§4.3)',
              content: { 'application/json': { schema: ref('Pet') } },
            },
            '401': UNAUTHORIZED,
            '404': errorAnswer('The animal cannot be found (§4.3)'),
            default: OTHER,
          },
        },
      },
    },
    components: {
      schemas: {
        PetStatus: plain(PetStatus),
        NewPet: {
          ...plain(SpecNewPet),
          properties: { ...(plain(SpecNewPet).properties as Json), status: ref('PetStatus') },
        },
        Pet: {
          ...plain(SpecPet),
          properties: { ...(plain(SpecPet).properties as Json), status: ref('PetStatus') },
        },
        Error: plain(SpecErrorBody),
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key, as `Authorization: Bearer <API_KEY>` (§5)',
        },
      },
    },
  };
}

/** The spec as an OpenAPI 3.1 document (`spec-openapi.json` in the package). */
export const specOpenApiDocument: Json = buildSpecOpenApiDocument();

/** The same document in OpenAPI 3.0.3, for tools that read only 3.0 (`spec-openapi-3.0.json`). */
export const specOpenApiDocument30: Json = toOpenApi30(specOpenApiDocument);
