import type { Context } from 'koa';
import getRawBody from 'raw-body';
import {
  HttpError,
  MalformedJsonError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.js';

interface RawBodyError {
  type?: string;
  status?: number;
}

/** A parsed JSON request body, with the bytes it was parsed from (for fingerprints). */
export interface JsonBody {
  value: unknown;
  bytes: Buffer;
}

/**
 * Reads a JSON request body: 415 unless `application/json`, 413 beyond `limitBytes`,
 * 400 when absent or not parseable. The body is never parsed before authentication.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<JsonBody> {
  if (!ctx.request.length && ctx.get('Transfer-Encoding') === '') {
    throw new ValidationError('request body is required', [{ path: '', message: 'is required' }]);
  }
  if (ctx.request.is('application/json') === false) {
    throw new UnsupportedMediaTypeError(
      `request body must be application/json, not ${ctx.get('Content-Type') || 'untyped'}`,
    );
  }
  const charset = ctx.request.charset;
  if (charset !== '' && charset.toLowerCase() !== 'utf-8') {
    throw new UnsupportedMediaTypeError(`request body must be UTF-8, not ${charset}`);
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, {
      limit: limitBytes,
      length: ctx.get('Content-Length') || undefined,
    });
  } catch (error) {
    const { type, status } = error as RawBodyError;
    if (type === 'entity.too.large') throw new PayloadTooLargeError(limitBytes);
    if (status !== undefined && status < 500) {
      throw new HttpError(400, 'malformed_json', 'request body could not be read completely');
    }
    throw error;
  }
  // As raw-body's own decoding did: a leading BOM is dropped, bad sequences become U+FFFD.
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text.trim() === '') {
    throw new ValidationError('request body is required', [{ path: '', message: 'is required' }]);
  }
  try {
    return { value: JSON.parse(text), bytes };
  } catch (error) {
    throw new MalformedJsonError(`request body is not valid JSON: ${(error as Error).message}`);
  }
}
