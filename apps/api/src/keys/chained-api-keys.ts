import type { ApiKeyIdentity, ApiKeyVerifier } from './api-key.js';

/**
 * Asks each verifier in turn and answers with the first identity found. Put the cheap ones first:
 * keys from `API_KEYS` never wait for the database. An error (e.g. the database is down) ends
 * the search and propagates.
 */
export class ChainedApiKeys implements ApiKeyVerifier {
  readonly #verifiers: readonly ApiKeyVerifier[];

  constructor(verifiers: readonly ApiKeyVerifier[]) {
    this.#verifiers = verifiers;
  }

  async verify(token: string, client?: string): Promise<ApiKeyIdentity | undefined> {
    for (const verifier of this.#verifiers) {
      const identity = await verifier.verify(token, client);
      if (identity) return identity;
    }
    return undefined;
  }
}
