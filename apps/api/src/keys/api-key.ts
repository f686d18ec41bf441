import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../config-error.js';

/** Who a request authenticated as. Only the name is ever logged. */
export interface ApiKeyIdentity {
  name: string;
}

/**
 * Decides whether a presented bearer token is a valid API key. `client` is the caller's address,
 * for verifiers that limit what one address may make them do.
 */
export interface ApiKeyVerifier {
  verify(token: string, client?: string): Promise<ApiKeyIdentity | undefined>;
}

/**
 * Thrown instead of an answer when checking a key would take a database lookup the caller's
 * address has no right to now (too many failed ones): the API answers `429` with `Retry-After`.
 */
export class KeyLookupThrottledError extends Error {
  override name = 'KeyLookupThrottledError';
  constructor(readonly retryAfterSeconds: number) {
    super('too many failed API key lookups from this address');
  }
}

/** SHA-256 digest of a key: the only form in which keys are compared or stored. */
export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A new random API key (256 bits, URL-safe): `as_` and 43 base64url characters. */
export function generateApiKey(): string {
  return `as_${randomBytes(32).toString('base64url')}`;
}

const ISSUED_KEY = /^as_[A-Za-z0-9_-]{43}$/;

/** Whether `token` has the shape of a key `generateApiKey` makes: anything else was never issued. */
export function hasIssuedKeyShape(token: string): boolean {
  return ISSUED_KEY.test(token);
}

const DIGEST_PREFIX = 'sha256:';
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

interface KnownKey {
  /** Made once and answered for every request with the key. */
  identity: Readonly<ApiKeyIdentity>;
  digest: Buffer;
}

/** Parses `API_KEYS`: a comma list of plain keys or `sha256:<hex>` digests. Throws on a bad entry. */
export function parseApiKeys(value: string): Buffer[] {
  const digests: Buffer[] = [];
  for (const [index, raw] of value.split(',').entries()) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.toLowerCase().startsWith(DIGEST_PREFIX)) {
      const hex = entry.slice(DIGEST_PREFIX.length);
      if (!HEX_DIGEST.test(hex)) {
        // The entry itself is never echoed: a mistyped digest may be a plain key.
        throw new ConfigError(
          `API_KEYS entry ${index + 1} is not a valid sha256:<64 hex digits> digest`,
        );
      }
      digests.push(Buffer.from(hex, 'hex'));
    } else {
      digests.push(digestKey(entry));
    }
  }
  return digests;
}

/**
 * Keys from configuration. Every candidate is compared in constant time, with no early exit,
 * so response time says nothing about which key, or which part of one, was close.
 */
export class StaticApiKeys implements ApiKeyVerifier {
  readonly #keys: KnownKey[];

  constructor(digests: readonly Buffer[]) {
    // The name is a short fingerprint of the digest: enough to tell keys apart in logs.
    this.#keys = digests.map((digest) => ({
      identity: Object.freeze({ name: `env:${digest.toString('hex').slice(0, 8)}` }),
      digest,
    }));
  }

  get size(): number {
    return this.#keys.length;
  }

  async verify(token: string): Promise<ApiKeyIdentity | undefined> {
    const presented = digestKey(token);
    let match: KnownKey | undefined;
    for (const key of this.#keys) {
      if (timingSafeEqual(presented, key.digest) && match === undefined) match = key;
    }
    return match?.identity;
  }
}
