import type { ApiKeyVerdict, ApiKeyVerifier } from './api-key.js';

/**
 * Asks each verifier in turn and answers with the first verdict (an identity or `revoked`). Put
 * the cheap ones first: keys from `API_KEYS` never wait for the database. An error (e.g. the
 * database is down) ends the search and propagates.
 */
export class ChainedApiKeys implements ApiKeyVerifier {
  readonly #verifiers: readonly ApiKeyVerifier[];

  constructor(verifiers: readonly ApiKeyVerifier[]) {
    this.#verifiers = verifiers;
  }

  async verify(token: string): Promise<ApiKeyVerdict> {
    for (const verifier of this.#verifiers) {
      const verdict = await verifier.verify(token);
      if (verdict !== undefined) return verdict;
    }
    return undefined;
  }
}
