import Type, { type Static } from 'typebox';

/** Every machine-readable error code the service uses (the spec leaves the set open). */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'validation_failed',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'gone',
  'uri_too_long',
  'rate_limited',
  'request_header_fields_too_large',
  'conflict',
  'idempotency_key_reused',
  'internal_error',
  'not_implemented',
  'service_unavailable',
] as const;

/** Our error codes as a schema. Not used to validate other servers, whose codes are open. */
export const ErrorCode = Type.Enum([...ERROR_CODES]);
export type ErrorCode = Static<typeof ErrorCode>;

/** One offending field of a request. */
export const ErrorDetail = Type.Object({
  path: Type.String({
    description: 'JSON pointer (body) or parameter name of the offending value',
  }),
  message: Type.String(),
});
export type ErrorDetail = Static<typeof ErrorDetail>;

/** The Error body (spec §2); `status` always equals the HTTP status. */
export const ErrorBody = Type.Object({
  code: Type.String({ description: 'Machine-readable error code' }),
  message: Type.String({ description: 'Human-readable description' }),
  status: Type.Integer({ minimum: 100, maximum: 599, description: 'The HTTP status code' }),
  details: Type.Optional(Type.Array(ErrorDetail)),
});
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * The Error body exactly as the spec states it: the three required fields, anything else allowed.
 * What a client may rely on from any conforming server (whose `details`, if any, may differ).
 */
export const SpecErrorBody = Type.Omit(ErrorBody, ['details']);
export type SpecErrorBody = Static<typeof SpecErrorBody>;
