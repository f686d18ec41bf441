import type { StoreSpec } from './servers/protocol.js';
import type { StoreKind } from './settings.js';

/** A store kind the orchestrator can hand to server children, one database per child. */
export interface BenchStore {
  kind: StoreKind;
  /** The store for one child; `name` keeps children's data apart (one database each). */
  spec(name: string): StoreSpec;
  close(): Promise<void>;
}

export async function openBenchStore(kind: StoreKind): Promise<BenchStore> {
  switch (kind) {
    case 'memory':
      return { kind, spec: () => ({ kind: 'memory' }), close: async () => {} };
    case 'mongo':
      throw new Error('the MongoDB store is not built yet (see README: Performance)');
  }
}
