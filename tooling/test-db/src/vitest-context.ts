// What the globalSetup provides, typed for `inject('mongoUri')` in any file that imports this
// package (index.ts and vitest-global-setup.ts import this file for its types).
import type {} from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URI of the run's MongoDB-compatible server; pick a database with uniqueDbName(). */
    mongoUri: string;
    /** Which strategy yielded it: external, mongod, ferretdb or memory-server. */
    mongoKind: string;
  }
}
