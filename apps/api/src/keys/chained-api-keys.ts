import type { ApiKeyVerdict, ApiKeyVerifier } from './api-key.js';

/**
 * Asks each verifier in turn and answers with the first verdict (an identity or `revoked`). Put
 * the cheap ones first: keys from `API_KEYS` never wait for the database. An error (e.g. the
 * database is down) ends the search and propagates. While the verifiers answer at once, so does
 * the chain.
 */
export class ChainedApiKeys implements ApiKeyVerifier {
  readonly #verifiers: readonly ApiKeyVerifier[];

  constructor(verifiers: readonly ApiKeyVerifier[]) {
    this.#verifiers = verifiers;
  }

  verify(token: string): ApiKeyVerdict | Promise<ApiKeyVerdict> {
    return this.#askFrom(0, token);
  }

  /** The first verdict of the verifiers from `index` on; at once while they answer at once. */
  #askFrom(index: number, token: string): ApiKeyVerdict | Promise<ApiKeyVerdict> {
    for (let at = index; at < this.#verifiers.length; at++) {
      const verdict = (this.#verifiers[at] as ApiKeyVerifier).verify(token);
      if (verdict instanceof Promise) {
        return verdict.then((known) => known ?? this.#askFrom(at + 1, token));
      }
      if (verdict !== undefined) return verdict;
    }
    return undefined;
  }
}
