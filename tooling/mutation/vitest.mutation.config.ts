import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const CONTRACT_TESTS = ['packages/contract/test/{schemas,query,messages}.test.ts'];
const CONTRACT_ONLY = process.env.MUTATION_TESTS === 'contract';
/** The kit's tests that judge answers without starting a server: each takes milliseconds. */
const KIT_TESTS = [
  'packages/conformance/test/{parsers,preflight,sections,matrix,spec-fields,specification,http-client,every-answer}.test.ts',
];
const KIT_ONLY = process.env.MUTATION_TESTS === 'kit';

/**
 * The tests Stryker runs against each mutant: the API's black-box and request-path tests on the
 * in-memory store, and the contract's validation tests. `@animal-store/contract` resolves to its
 * sources, so a mutant of the contract's validation reaches the API's tests.
 */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@animal-store\/contract$/, replacement: `${repo}packages/contract/src/index.ts` },
      {
        find: /^@animal-store\/contract\/docs-page$/,
        replacement: `${repo}packages/contract/src/docs-page.ts`,
      },
    ],
  },
  test: {
    root: repo,
    // MUTATION_TESTS=contract: the contract's own tests alone, for a quick run on its files.
    include: CONTRACT_ONLY
      ? CONTRACT_TESTS
      : KIT_ONLY
        ? KIT_TESTS
        : [
            'apps/api/test/black-box/*.test.ts',
            'apps/api/test/{ambiguous-requests,auth-failures,client-gone,header-limits,idempotency-in-flight,json-request,limits,memory-pet-store,methods,pipelined-bodies,rate-limit,raw-http,request-path,route-spelling,unauthenticated-bodies}.test.ts',
            ...CONTRACT_TESTS,
          ],
    // The fuzz test and the kit's run are slow and cover nothing the others do not.
    exclude: ['apps/api/test/black-box/{fuzz,conformance}.test.ts'],
    // One module graph for every file of a run: importing the API for each file again took most
    // of a mutant's time. Stryker switches its mutants at run time, so no file needs a fresh one.
    isolate: false,
    // What a file started through the API's test helpers stops after that file.
    setupFiles: CONTRACT_ONLY || KIT_ONLY ? [] : ['apps/api/test/helpers/after-each-file.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
