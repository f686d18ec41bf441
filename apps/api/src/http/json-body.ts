import type { IncomingMessage } from 'node:http';
import { parseJsonText, repeatedMemberName } from '@animal-store/contract';
import { parse as parseContentType } from 'content-type';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { withDeadline } from '../deadline.js';
import {
  MalformedJsonError,
  PayloadTooLargeError,
  RequestTimeoutError,
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

/** How long a request body may take to arrive once its headers are in. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

// Strict: bytes that are not UTF-8 are refused, never replaced (what is sent is what is stored).
// A leading BOM is dropped. One instance serves every request: `decode` keeps no state.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** An `Expect` Node hands over as `checkContinue` (its own test). */
const EXPECT_CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/** Whether `req` waits for `100 Continue` before it sends its body. */
export const expectsContinue = (req: IncomingMessage) =>
  EXPECT_CONTINUE.test(req.headers.expect ?? '');

/**
 * Reads the body's bytes, giving up after `timeoutMs`: a client trickling its body must not hold
 * a request open until Node's request timeout, and gets a `408` with an Error body.
 */
function readBytes(req: IncomingMessage, limitBytes: number, timeoutMs: number): Promise<Buffer> {
  // No `length`: Node's parser already ends the body at its Content-Length, and one declared
  // beyond the limit is refused before it is read (`readJsonBody`).
  return withDeadline(
    getRawBody(req, { limit: limitBytes }),
    timeoutMs,
    () =>
      new RequestTimeoutError({ message: `request body did not arrive within ${timeoutMs} ms` }),
  );
}

/** What a request without a body (or with only white space) gets: a 400 naming the body. */
const bodyRequired = () =>
  new ValidationError({
    message: 'request body is required',
    details: [{ path: '', message: 'is required' }],
  });

/**
 * Reads a JSON request body: 415 unless `application/json`, 413 beyond `limitBytes`,
 * 408 when slower than `timeoutMs`, 400 when absent or not parseable. The body is never parsed
 * before authentication.
 */
export async function readJsonBody(
  ctx: Context,
  limitBytes: number,
  timeoutMs = DEFAULT_BODY_TIMEOUT_MS,
): Promise<JsonBody> {
  const { req, res } = ctx;
  const { headers } = req;
  // As Koa's `request.length`: an absent, empty, zero or non-numeric Content-Length is no body.
  if (!Math.trunc(Number(headers['content-length'] ?? 0)) && !headers['transfer-encoding']) {
    throw bodyRequired();
  }
  const rawEncoding = headers['content-encoding'] ?? '';
  // Node's parser has trimmed the value already; its case is not significant.
  const encoding = rawEncoding.toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    // A compressed body would be read as garbled JSON, or worse, as a different one.
    throw new UnsupportedMediaTypeError({
      message: `Content-Encoding ${JSON.stringify(rawEncoding)} is not supported: send the body unencoded`,
      headers: { 'Accept-Encoding': 'identity' },
    });
  }
  const contentType = headers['content-type'] ?? '';
  // Parsed leniently (it never throws): a malformed field has no `application/json` type.
  const { type, parameters } = parseContentType(contentType);
  if (type !== 'application/json') {
    throw new UnsupportedMediaTypeError({
      message: `request body must be application/json, not ${contentType || 'untyped'}`,
    });
  }
  const charset = parameters.charset ?? '';
  if (charset !== '' && charset.toLowerCase() !== 'utf-8') {
    throw new UnsupportedMediaTypeError({
      message: `request body must be UTF-8, not ${charset}`,
    });
  }
  // A body declared too long is refused before it is asked for.
  if (Number(headers['content-length']) > limitBytes)
    throw new PayloadTooLargeError({ limitBytes });
  // The server leaves `100 Continue` to the reader (`server-limits.ts`): a client that waits for
  // it sends its body only now that the request has passed every check before the body.
  if (expectsContinue(req)) res.writeContinue();
  let bytes: Buffer;
  try {
    bytes = await readBytes(req, limitBytes, timeoutMs);
  } catch (error) {
    if (error instanceof RequestTimeoutError) throw error;
    const { type, status } = error as RawBodyError;
    if (type === 'entity.too.large') throw new PayloadTooLargeError({ limitBytes });
    if (status !== undefined && status < 500) {
      throw new MalformedJsonError({ message: 'request body could not be read completely' });
    }
    throw error;
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new MalformedJsonError({ message: 'request body is not valid UTF-8' });
  }
  if (text.trim() === '') {
    throw bodyRequired();
  }
  let value: unknown;
  try {
    // Numbers are judged as written: 1.0000000000000001 is no integer, whatever a double says.
    value = parseJsonText(text);
  } catch (error) {
    throw new MalformedJsonError({
      message: `request body is not valid JSON: ${(error as Error).message}`,
    });
  }
  const repeated = repeatedMemberName(text, value);
  if (repeated !== undefined) {
    throw ValidationError.of([
      { path: repeated, message: 'appears more than once in its object: send each member once' },
    ]);
  }
  return { value, bytes };
}
