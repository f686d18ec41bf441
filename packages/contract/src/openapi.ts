import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_TTL_MS,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
} from './limits.js';
import { ERROR_CODES, ErrorBody } from './schemas/error.js';
import { ListPetsQuery, PetIdParams } from './schemas/params.js';
import { NewPet, Pet, PetStatus } from './schemas/pet.js';
import {
  API_PREFIX,
  API_VERSION,
  GET_PET_DEPRECATED_AT,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
} from './versioning.js';

/** Component schemas of the OpenAPI document: the TypeBox schemas themselves. */
export const componentSchemas = { PetStatus, NewPet, Pet, Error: ErrorBody } as const;

const ref = (name: keyof typeof componentSchemas) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref('Error')) });

const commonErrors = {
  '401': { $ref: '#/components/responses/Unauthorized' },
  '429': errorResponse('Too many requests for this API key; retry after `Retry-After` seconds'),
  '500': errorResponse('Unexpected server fault'),
  '503': errorResponse('The store is unavailable; retry after `Retry-After` seconds'),
};

/** The document's description: what the service is, then every error code it answers with. */
const description = [
  'A catalogue of animals held by a store. Every operation requires a bearer API key.',
  'Every failure answers with an `Error` body `{ code, message, status }`, where `status` equals ' +
    'the HTTP status and `details` names each offending field when there are any. Error codes: ' +
    `${ERROR_CODES.map((code) => `\`${code}\``).join(', ')}.`,
].join('\n\n');

const queryParam = (name: keyof typeof ListPetsQuery.properties) => ({
  name,
  in: 'query',
  required: false,
  schema: name === 'status' ? ref('PetStatus') : ListPetsQuery.properties[name],
});

const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retried create safe: a request repeating the key and the exact body bytes gets the ' +
    'first answer again and creates nothing. Keys belong to the API key that sent them and are ' +
    `kept ${IDEMPOTENCY_KEY_TTL_MS / 3_600_000} hours. 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: '^[\\x20-\\x7E]+$',
  },
};

/** Builds the OpenAPI 3.1 document of the service from the contract's schemas. */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}) {
  const deprecationHeaders = {
    Deprecation: {
      description: `RFC 9745: deprecated since ${GET_PET_DEPRECATED_AT.toISOString()}`,
      schema: { type: 'string', examples: [GET_PET_DEPRECATION_HEADERS.Deprecation] },
    },
    Sunset: {
      description: `RFC 8594: removed on ${GET_PET_SUNSET_AT.toISOString()}; 410 from then on`,
      schema: { type: 'string', examples: [GET_PET_DEPRECATION_HEADERS.Sunset] },
    },
    Link: {
      description: 'RFC 8288 link to the successor, `GET /pets` with the `status` filter',
      schema: { type: 'string', examples: [GET_PET_DEPRECATION_HEADERS.Link] },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Store',
      version: API_VERSION,
      description,
    },
    servers: [{ url: options.serverUrl ?? API_PREFIX }],
    tags: [{ name: 'pets', description: 'The animals in the store' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          tags: ['pets'],
          summary: 'List animals',
          description: `Ascending by id. At most \`limit\` (${LIMIT_MIN}..${LIMIT_MAX}, default ${LIMIT_DEFAULT}) animals; a \`Link: rel="next"\` header points at the next page when more exist.`,
          security: [{ bearerAuth: [] }],
          parameters: [queryParam('limit'), queryParam('status'), queryParam('after')],
          responses: {
            '200': {
              description: 'A page of animals',
              headers: {
                Link: {
                  description: 'RFC 8288 `rel="next"` link to the next page, when more exist',
                  schema: { type: 'string' },
                },
              },
              content: json({ type: 'array', items: ref('Pet') }),
            },
            '400': { $ref: '#/components/responses/BadRequest' },
            ...commonErrors,
          },
        },
        post: {
          operationId: 'createPet',
          tags: ['pets'],
          summary: 'Add an animal',
          security: [{ bearerAuth: [] }],
          parameters: [idempotencyKeyParam],
          requestBody: { required: true, content: json(ref('NewPet')) },
          responses: {
            '201': {
              description:
                'The created animal (or, for a repeated `Idempotency-Key`, the first answer again)',
              headers: {
                Location: { description: 'URL of the created animal', schema: { type: 'string' } },
                'Idempotency-Replayed': {
                  description: '`true` when this is the stored answer to an earlier request',
                  schema: { type: 'string', enum: ['true'] },
                },
              },
              content: json(ref('Pet')),
            },
            '400': { $ref: '#/components/responses/BadRequest' },
            '409': errorResponse(
              'A request with this `Idempotency-Key` is still in progress (`conflict`); retry later',
            ),
            '422': errorResponse(
              'This `Idempotency-Key` was used with a different body (`idempotency_key_reused`)',
            ),
            '413': errorResponse('Request body too large'),
            '415': errorResponse('Request body is not `application/json`'),
            ...commonErrors,
          },
        },
      },
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          tags: ['pets'],
          summary: 'Get an animal (deprecated)',
          description: `Deprecated; removed on ${GET_PET_SUNSET_AT.toUTCString()}. Use \`GET /pets\` with the \`status\` filter instead.`,
          deprecated: true,
          security: [{ bearerAuth: [] }],
          parameters: [
            { name: 'petId', in: 'path', required: true, schema: PetIdParams.properties.petId },
          ],
          responses: {
            '200': {
              description: 'The animal',
              headers: deprecationHeaders,
              content: json(ref('Pet')),
            },
            '400': { $ref: '#/components/responses/BadRequest' },
            '404': { ...errorResponse('The animal cannot be found'), headers: deprecationHeaders },
            '410': {
              ...errorResponse('The operation has reached its sunset'),
              headers: deprecationHeaders,
            },
            ...commonErrors,
          },
        },
      },
    },
    components: {
      schemas: componentSchemas,
      responses: {
        BadRequest: errorResponse('Invalid parameters or body; `details` names each field'),
        Unauthorized: {
          description: 'Missing or invalid API key',
          headers: {
            'WWW-Authenticate': {
              description: 'RFC 6750 challenge',
              schema: { type: 'string', examples: ['Bearer realm="animal-store"'] },
            },
          },
          content: json(ref('Error')),
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key' },
      },
    },
  };
}

/** The OpenAPI document as served at `/v1/openapi.json`. */
export const openApiDocument = buildOpenApiDocument();
