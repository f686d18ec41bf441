import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_TTL_MS,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
} from './limits.js';
import { toOpenApi30 } from './openapi-3-0.js';
import { LIST_PETS_PARAMS } from './query.js';
import { ERROR_CODES, ErrorBody, type ErrorBody as ErrorBodyType } from './schemas/error.js';
import { ListPetsQuery, PetIdParams } from './schemas/params.js';
import { NewPet, Pet, PetStatus } from './schemas/pet.js';
import {
  API_PREFIX,
  API_VERSION,
  GET_PET_DEPRECATED_AT,
  GET_PET_DEPRECATION_HEADERS,
  GET_PET_SUNSET_AT,
} from './versioning.js';

/** A reference to a component schema. */
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `schema` with its `status` property a reference to the one `PetStatus` component. */
function statusByRef<T extends { properties: { status: object } }>(schema: T) {
  return { ...schema, properties: { ...schema.properties, status: schemaRef('PetStatus') } };
}

/**
 * Component schemas of the OpenAPI document, from the TypeBox schemas. Generators make one type
 * of each, so `PetStatus` is referenced wherever a status is. `Pet` is a pet as this API returns
 * it (`status` always there); `SpecPet`, what any server returns, stays out of the document. The
 * error body is `ErrorBody`, a name that no standard library's `Error` clashes with; its `code`
 * is the plain `ErrorCode` enumeration, so generators offer the codes as a union or an enum and
 * strict decoders (progenitor, openapi-python-client) decode it. /v1 sends no code outside it: a
 * new code comes with a new version of the document (docs/decisions.md).
 */
export const componentSchemas = {
  PetStatus,
  NewPet: statusByRef(NewPet),
  Pet: statusByRef(Pet),
  ErrorCode: {
    type: 'string',
    enum: [...ERROR_CODES],
    description:
      'Machine-readable error code. Every code this version of the API sends; a code is added ' +
      'only with a new version of this document',
  },
  ErrorBody: {
    ...ErrorBody,
    properties: { ...ErrorBody.properties, code: schemaRef('ErrorCode') },
  },
} as const;

/**
 * The `Idempotency-Key` the API accepts: 1 to 255 printable ASCII characters, the first and last
 * not a space (HTTP strips spaces around a header value, so none could arrive there). Written
 * with ASCII ranges only, so every regex engine compiles it to the same set.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$';

const ref = (name: keyof typeof componentSchemas) => schemaRef(name);
const headerRef = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const stringHeader = (description: string, example?: string, required = false) => ({
  description,
  required,
  schema: example === undefined ? { type: 'string' } : { type: 'string', examples: [example] },
});

/** Parameter names as prose: `a`, `b` and `c`. */
const inProse = (names: readonly string[]): string =>
  names
    .map((name) => `\`${name}\``)
    .join(', ')
    .replace(/, ([^,]*)$/, ' and $1');

/** What a next-page link repeats of the request's query: every parameter but the cursor. */
const REPEATED_PARAMS = inProse(LIST_PETS_PARAMS.filter((name) => name !== 'after'));

/** Every response header the API sends, declared once. */
const headers = {
  'X-Request-Id': stringHeader(
    "Identifies the request in the service's logs: the caller's own `X-Request-Id` when it is 1-128 safe characters, else a new one",
    '5f0c6a0e-2b1d-4c47-9d0e-0d8f2f5a9b71',
    true,
  ),
  RateLimit: stringHeader(
    'draft-ietf-httpapi-ratelimit-headers: requests left in the window and seconds until it resets; on answers to requests with a valid key, when a rate limit is set',
    '"default";r=5999;t=60',
  ),
  'RateLimit-Policy': stringHeader(
    'draft-ietf-httpapi-ratelimit-headers: the quota and its window in seconds',
    '"default";q=6000;w=60',
  ),
  'Retry-After': {
    description: 'Seconds to wait before retrying (RFC 9110)',
    required: true,
    schema: { type: 'integer', minimum: 0, examples: [5] },
  },
  Location: stringHeader('Path of the created animal', '/v1/pets/1', true),
  'Idempotency-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same key',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  NextLink: stringHeader(
    'RFC 8288 `rel="next"` link to the next page, when more animals may exist. Its target is ' +
      `\`listPets\` again with the same ${REPEATED_PARAMS} and \`after\` set to the id of the last ` +
      "animal of this page; the path starts at the server's root (`/v1/pets`), so a client takes " +
      'the query parameters and calls `listPets` with them (see the `NextPage` link).',
    '</v1/pets?limit=20&after=20>; rel="next"',
  ),
  'Next-After': {
    description:
      'The `after` of the next page, when more animals may exist: the id of the last animal of ' +
      'this page, the same value as the `after` in the `Link: rel="next"` target. A client ' +
      'calls `listPets` with its own query and this `after` (see the `NextPage` link).',
    required: false,
    schema: { type: 'integer', format: 'int64', minimum: 1, examples: [20] },
  },
  Deprecation: stringHeader(
    `RFC 9745: deprecated since ${GET_PET_DEPRECATED_AT.toISOString()}`,
    GET_PET_DEPRECATION_HEADERS.Deprecation,
    true,
  ),
  Sunset: stringHeader(
    `RFC 8594: removed on ${GET_PET_SUNSET_AT.toISOString()}; 410 from then on`,
    GET_PET_DEPRECATION_HEADERS.Sunset,
    true,
  ),
  SuccessorLink: stringHeader(
    'RFC 8288 link to the successor, `GET /pets` with the `status` filter',
    GET_PET_DEPRECATION_HEADERS.Link,
    true,
  ),
  'WWW-Authenticate': stringHeader('RFC 6750 challenge', 'Bearer realm="animal-store"', true),
  Allow: stringHeader('The methods the path answers (RFC 9110)', 'GET, HEAD, POST', true),
} as const;

type HeaderName = keyof typeof headers;
/** Response header names as sent, for the component names that differ from them. */
const SENT_AS: Partial<Record<HeaderName, string>> = {
  NextLink: 'Link',
  SuccessorLink: 'Link',
};
const headerSet = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [SENT_AS[name] ?? name, headerRef(name)]));
/** Headers on every answer to a request that passed the key check. */
const KEYED: HeaderName[] = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy'];

const errorExample = (status: number, code: ErrorBodyType['code'], message: string) => {
  const example: ErrorBodyType = { code, message, status };
  if (code === 'validation_failed') {
    example.details = [{ path: '/categoryId', message: 'must be an integer' }];
  }
  return example;
};

/** An Error answer: its description, the headers it carries and a valid example. */
const errorResponse = (
  status: number,
  code: ErrorBodyType['code'],
  description: string,
  names: HeaderName[],
) => ({
  description,
  headers: headerSet(...names),
  content: {
    'application/json': {
      schema: ref('ErrorBody'),
      example: errorExample(status, code, description),
    },
  },
});

/** Error answers shared by operations, by status. */
const errorResponses = {
  BadRequest: errorResponse(
    400,
    'validation_failed',
    'Invalid parameters or body; `details` names each field',
    KEYED,
  ),
  Unauthorized: errorResponse(401, 'unauthorized', 'Missing or invalid API key', [
    'X-Request-Id',
    'WWW-Authenticate',
  ]),
  MethodNotAllowed: errorResponse(
    405,
    'method_not_allowed',
    'The path does not answer this method',
    ['X-Request-Id', 'Allow'],
  ),
  RequestTimeout: errorResponse(
    408,
    'request_timeout',
    'The request did not arrive in time; the connection closes',
    ['X-Request-Id'],
  ),
  UriTooLong: errorResponse(
    414,
    'uri_too_long',
    'The request target is longer than the service answers',
    ['X-Request-Id'],
  ),
  RateLimited: errorResponse(
    429,
    'rate_limited',
    'Too many requests for this API key; retry after `Retry-After` seconds',
    ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After'],
  ),
  HeadersTooLarge: errorResponse(
    431,
    'request_header_fields_too_large',
    'The request line and headers are too large; the connection closes',
    ['X-Request-Id'],
  ),
  InternalError: errorResponse(500, 'internal_error', 'Unexpected server fault', ['X-Request-Id']),
  Unavailable: errorResponse(
    503,
    'service_unavailable',
    'The store is unavailable; retry after `Retry-After` seconds',
    ['X-Request-Id', 'Retry-After'],
  ),
};

/** The answers every operation can give besides its own. */
const commonResponses = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '405': responseRef('MethodNotAllowed'),
  '408': responseRef('RequestTimeout'),
  '414': responseRef('UriTooLong'),
  '429': responseRef('RateLimited'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('InternalError'),
  '503': responseRef('Unavailable'),
};

/** The document's description: what the service is, then every error code it answers with. */
const description = [
  'A catalogue of animals held by a store. Every operation requires a bearer API key.',
  'Every failure answers with an `Error` body `{ code, message, status }`, where `status` equals ' +
    'the HTTP status and `details` names each offending field when there are any. Error codes: ' +
    `${ERROR_CODES.map((code) => `\`${code}\``).join(', ')}.`,
].join('\n\n');

/**
 * A parameter object with the description on the parameter, where tools look for it. Optional
 * filters get no example: the reference page would fill it in and filter the pets away.
 */
function parameter(
  name: string,
  where: 'query' | 'path',
  schema: object,
  required: boolean,
  example?: unknown,
) {
  const { description: said, ...rest } = schema as { description?: string };
  return {
    name,
    in: where,
    required,
    description: said,
    schema: rest,
    ...(example === undefined ? {} : { example }),
  };
}

/** Examples of `listPets`' parameters for the reference page; `after` gets none (see above). */
const QUERY_EXAMPLES: Partial<Record<keyof ListPetsQuery, unknown>> = {
  limit: 20,
  status: 'available',
};

/** One `listPets` query parameter, its schema a `$ref` when it is a component schema. */
function queryParameter(name: keyof ListPetsQuery) {
  const schema = ListPetsQuery.properties[name];
  const param = parameter(name, 'query', schema, false, QUERY_EXAMPLES[name]);
  const text = JSON.stringify(schema);
  const component = (Object.keys(componentSchemas) as (keyof typeof componentSchemas)[]).find(
    (key) => JSON.stringify(componentSchemas[key]) === text,
  );
  return component === undefined ? param : { ...param, schema: ref(component) };
}

/** The `NextPage` link's parameters: this request's query, `after` from the `Next-After` header. */
const NEXT_PAGE_PARAMETERS = Object.fromEntries(
  LIST_PETS_PARAMS.map((name) => [
    name,
    name === 'after' ? '$response.header.Next-After' : `$request.query.${name}`,
  ]),
);

const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retried create safe: a request repeating the key and the exact body bytes gets the ' +
    'first answer again and creates nothing. Keys belong to the API key that sent them and are ' +
    `kept ${IDEMPOTENCY_KEY_TTL_MS / 3_600_000} hours. 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, not starting or ending with a space.`,
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
    pattern: IDEMPOTENCY_KEY_PATTERN,
    examples: ['3f1c7e52-order-42'],
  },
};

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const json = (schema: object, example: unknown) => ({
  'application/json': { schema, example },
});

/** A server of `servers` whose host (or port) the deployment chooses, with the one it defaults to. */
const serverWithVariable = (
  url: string,
  description: string,
  variable: string,
  fallback: string,
  said: string,
) => ({ url, description, variables: { [variable]: { default: fallback, description: said } } });

/**
 * The spec's production and staging addresses, both ending with `/v1`; the spec leaves their
 * hosts to the deployment, so each is a variable. Then the API as `pnpm start` runs it.
 */
export const OPENAPI_SERVERS = [
  serverWithVariable(
    `https://{host}${API_PREFIX}`,
    'Production',
    'host',
    'api.animal-store.example',
    'The production host of your deployment',
  ),
  serverWithVariable(
    `https://{host}${API_PREFIX}`,
    'Staging',
    'host',
    'staging.api.animal-store.example',
    'The staging host of your deployment',
  ),
  serverWithVariable(
    `http://127.0.0.1:{port}${API_PREFIX}`,
    'Local: the API as `pnpm start` runs it',
    'port',
    '3000',
    'The port the API listens on (`PORT`)',
  ),
];

const getPetRemoval =
  `Deprecated since ${GET_PET_DEPRECATED_AT.toISOString().slice(0, 10)}; removed on ` +
  `${GET_PET_SUNSET_AT.toISOString().slice(0, 10)}, when it starts answering \`410 gone\`. ` +
  'Use `listPets` (`GET /pets`) with the `status` filter instead.';

/**
 * Builds the OpenAPI 3.1 document of the service from the contract's schemas. `serverUrl` is put
 * first in `servers`, the one tools use by default (the API's reference page passes `/v1`, the
 * server it is served from).
 */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}) {
  const deprecation: HeaderName[] = ['Deprecation', 'Sunset', 'SuccessorLink'];
  const here = options.serverUrl === undefined ? [] : [{ url: options.serverUrl }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Store',
      version: API_VERSION,
      description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [...here, ...OPENAPI_SERVERS],
    tags: [{ name: 'pets', description: 'The animals in the store' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          tags: ['pets'],
          summary: 'List animals',
          description: `Ascending by id. At most \`limit\` (${LIMIT_MIN}..${LIMIT_MAX}, default ${LIMIT_DEFAULT}) animals; a \`Link: rel="next"\` header points at the next page when more may exist: the same query with \`after\` set to the id of this page's last animal, which the \`Next-After\` header also carries.`,
          security: [{ bearerAuth: [] }],
          parameters: LIST_PETS_PARAMS.map(queryParameter),
          responses: {
            '200': {
              description: 'A page of animals',
              headers: headerSet(...KEYED, 'NextLink', 'Next-After'),
              content: json({ type: 'array', items: ref('Pet') }, [rex]),
              links: {
                NextPage: {
                  operationId: 'listPets',
                  description:
                    'The next page, when the answer has a `Next-After` header (and a `Link: ' +
                    'rel="next"`): `listPets` with the same query and `after` set to that ' +
                    'header, the `id` of the last animal of this page.',
                  parameters: NEXT_PAGE_PARAMETERS,
                },
              },
            },
            ...commonResponses,
          },
        },
        post: {
          operationId: 'createPet',
          tags: ['pets'],
          summary: 'Add an animal',
          security: [{ bearerAuth: [] }],
          parameters: [idempotencyKeyParam],
          requestBody: {
            required: true,
            content: json(ref('NewPet'), { name: 'Rex', categoryId: 1, status: 'available' }),
          },
          responses: {
            '201': {
              description:
                'The created animal (or, for a repeated `Idempotency-Key`, the first answer again)',
              headers: headerSet(...KEYED, 'Location', 'Idempotency-Replayed'),
              content: json(ref('Pet'), rex),
              links: {
                GetCreatedPet: {
                  operationId: 'getPet',
                  parameters: { petId: '$response.body#/id' },
                  description: 'The created animal, by its `id`',
                },
              },
            },
            ...commonResponses,
            '409': errorResponse(
              409,
              'conflict',
              'A request with this `Idempotency-Key` is still in progress; retry after `Retry-After` seconds',
              [...KEYED, 'Retry-After'],
            ),
            '413': errorResponse(413, 'payload_too_large', 'Request body too large', KEYED),
            '415': errorResponse(
              415,
              'unsupported_media_type',
              'Request body is not `application/json` in UTF-8, or has a `Content-Encoding`',
              KEYED,
            ),
            '422': errorResponse(
              422,
              'idempotency_key_reused',
              'This `Idempotency-Key` was used with a different body',
              KEYED,
            ),
          },
        },
      },
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          tags: ['pets'],
          summary: 'Get an animal (deprecated)',
          description: getPetRemoval,
          deprecated: true,
          // Read by generators and documentation tools (Speakeasy, GitBook) for the deprecation notice.
          'x-speakeasy-deprecation-message': getPetRemoval,
          'x-speakeasy-deprecation-replacement': 'listPets',
          'x-deprecated-sunset': GET_PET_SUNSET_AT.toISOString().slice(0, 10),
          // Read by oapi-codegen, which writes it into the method's `Deprecated:` comment.
          'x-deprecated-reason': getPetRemoval,
          security: [{ bearerAuth: [] }],
          parameters: [parameter('petId', 'path', PetIdParams.properties.petId, true, 1)],
          responses: {
            '200': {
              description: 'The animal',
              headers: headerSet(...KEYED, ...deprecation),
              content: json(ref('Pet'), rex),
            },
            ...commonResponses,
            '404': errorResponse(404, 'not_found', 'The animal cannot be found', [
              ...KEYED,
              ...deprecation,
            ]),
            '410': errorResponse(410, 'gone', 'The operation has reached its sunset', [
              ...KEYED,
              ...deprecation,
            ]),
          },
        },
      },
    },
    components: {
      schemas: componentSchemas,
      responses: errorResponses,
      headers,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key' },
      },
    },
  };
}

/** The OpenAPI document as served at `/v1/openapi.json`. */
export const openApiDocument = buildOpenApiDocument();

/** The same document in OpenAPI 3.0.3, as served at `/v1/openapi-3.0.json`. */
export const openApiDocument30 = toOpenApi30(openApiDocument);
