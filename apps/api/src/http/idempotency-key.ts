import { hash } from 'node:crypto';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@animal-store/contract';
import type { Context, ParameterizedContext } from 'koa';
import type { IdempotentCreateResult, PetJson } from '../store/pet-store.js';
import type { AppState } from './app-state.js';
import { ConflictError, IdempotencyKeyReusedError, ValidationError } from './errors.js';

const HEADER = 'Idempotency-Key';
const HEADER_KEY = HEADER.toLowerCase();
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const FORMAT = `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`;

/** Seconds a client should wait before retrying while its first request is still at work. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

/**
 * The request's `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header), or `undefined`
 * without one. An empty, too long, non-ASCII or repeated header is a 400 naming the header.
 */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  // `headersDistinct` copies every header of the request: only asked for when the key is there.
  if (ctx.req.headers[HEADER_KEY] === undefined) return undefined;
  const values = ctx.req.headersDistinct[HEADER_KEY] ?? [];
  const [value = ''] = values;
  let problem: string | undefined;
  if (values.length > 1) problem = 'must be sent once';
  else if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(value)) {
    problem = FORMAT;
  }
  if (problem !== undefined) {
    throw new ValidationError({
      message: `${HEADER} ${problem}`,
      details: [{ path: HEADER, message: problem }],
    });
  }
  return value;
}

/** The fingerprint of a request body: SHA-256 of its exact bytes, hex. */
export const bodyFingerprint = (bytes: Buffer): string => hash('sha256', bytes, 'hex');

/**
 * The pet to answer with, marking a replay with `Idempotency-Replayed: true`; 422 for a key
 * used with another body, 409 while the first request with the key is still at work.
 */
export function idempotentPet(
  result: IdempotentCreateResult,
  ctx: ParameterizedContext<AppState>,
): PetJson {
  switch (result.outcome) {
    case 'created':
      return result.pet;
    case 'replayed':
      ctx.set('Idempotency-Replayed', 'true');
      return result.pet;
    case 'key-reused':
      throw new IdempotencyKeyReusedError({
        message: `this ${HEADER} was used with a different request body; send a new key for a new request`,
      });
    case 'in-flight':
      throw new ConflictError({
        message: `a request with this ${HEADER} is still in progress; retry shortly`,
        retryAfterSeconds: IN_FLIGHT_RETRY_AFTER_SECONDS,
      });
  }
}
