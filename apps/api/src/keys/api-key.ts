import { hash, randomBytes } from 'node:crypto';
import { ConfigError } from '../config-error.js';

/** Who a request authenticated as. Only the name is ever logged. */
export interface ApiKeyIdentity {
  /**
   * The whole SHA-256 digest of the key: what its rate-limit quota and idempotency records
   * belong to. A short prefix could be shared by two keys.
   */
  id: string;
  /** What logs show; for a key from `API_KEYS`, a short fingerprint of the digest. */
  name: string;
}

/**
 * What a verifier says of a presented token: who it is, `revoked` for a key that was valid and
 * is no longer, `undefined` for a key it does not know.
 */
export type ApiKeyVerdict = ApiKeyIdentity | 'revoked' | undefined;

/**
 * Decides whether a presented bearer token is a valid API key. A verifier that knows at once
 * (keys from configuration) answers at once, so the request it admits waits on no promise.
 */
export interface ApiKeyVerifier {
  verify(token: string): ApiKeyVerdict | Promise<ApiKeyVerdict>;
}

/**
 * SHA-256 digest of a key, in lowercase hex: the only form in which keys are compared or stored.
 * The one-shot `crypto.hash` makes no Hash object: about a third of `createHash`'s cost, which
 * every keyed request pays.
 */
export function digestKey(key: string): string {
  return hash('sha256', key, 'hex');
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

/**
 * Parses `API_KEYS`: a comma list of plain keys or `sha256:<hex>` digests, into digests
 * (`digestKey`'s form). Throws on a bad entry.
 */
export function parseApiKeys(value: string): string[] {
  const digests: string[] = [];
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
      digests.push(hex.toLowerCase());
    } else {
      digests.push(digestKey(entry));
    }
  }
  return digests;
}

/**
 * Keys from configuration, found by their digest. Looking a digest up leaks nothing usable about
 * the key: only the SHA-256 of what was presented is compared, and no one can make a token whose
 * digest comes close to a stored one (the reason databases of keys index by digest).
 */
export class StaticApiKeys implements ApiKeyVerifier {
  /** Each key's identity, made once and answered for every request with the key. */
  readonly #identities = new Map<string, Readonly<ApiKeyIdentity>>();

  constructor(digests: readonly string[]) {
    // The name is a short fingerprint of the digest, for display only: the identity is the
    // whole digest.
    for (const digest of digests) {
      this.#identities.set(
        digest,
        Object.freeze({ id: digest, name: `env:${digest.slice(0, 8)}` }),
      );
    }
  }

  get size(): number {
    return this.#identities.size;
  }

  verify(token: string): ApiKeyIdentity | undefined {
    return this.#identities.get(digestKey(token));
  }
}
