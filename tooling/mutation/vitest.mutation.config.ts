import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** Resolves what the API's tests import (this package does not depend on the API's helpers). */
const fromApi = createRequire(`${repo}apps/api/package.json`);
const CONTRACT_TESTS = ['packages/contract/test/{schemas,query,messages,json-members}.test.ts'];
/** What a file started through the API's test helpers stops after that file. */
const API_SETUP = ['apps/api/test/helpers/after-each-file.ts'];

/** The test sets, by `MUTATION_TESTS` (the request path's when unset). */
const TEST_SETS = {
  // The API's black-box and request-path tests on the in-memory store, and the contract's.
  'request-path': {
    include: [
      'apps/api/test/black-box/*.test.ts',
      'apps/api/test/{ambiguous-requests,auth-failures,client-gone,deadline,header-limits,idempotency-in-flight,json-request,limits,memory-pet-store,methods,name-characters,pipelined-bodies,rate-limit,raw-http,request-path,route-spelling,unauthenticated-bodies,unread-bodies}.test.ts',
      ...CONTRACT_TESTS,
    ],
    // The fuzz test and the kit's run are slow and cover nothing the others do not.
    exclude: ['apps/api/test/black-box/{fuzz,conformance}.test.ts'],
    setupFiles: API_SETUP,
  },
  // The contract's own tests alone, for a quick run on its files.
  contract: { include: CONTRACT_TESTS, setupFiles: [] },
  // The kit's tests that judge answers without starting a server: each takes milliseconds.
  kit: {
    include: [
      'packages/conformance/test/{parsers,preflight,sections,matrix,spec-fields,specification,http-client,every-answer,answer-oracles,pet-model,list-limit,redaction,new-pet-cases,check-support,replay-line,next-pages,tally,fixtures,look-alike-key,request-failures,client-requests,junit-report,report-parts,markdown-report,pretty-report,report-choice,html-page,readme,ordinary-cases,integer-spellings,content-coding,raw-connection,bad-credentials}.test.ts',
    ],
    setupFiles: [],
  },
  // The kit run against its fake server, correct and faulty: seconds a mutant, for its checks.
  'kit-runs': {
    include: [
      'packages/conformance/test/{faults,gaps,run-size,preflight,fixture-set,json-extensions,head-requests,pipelined-reads,absolute-form,body-in-pieces,chunked-framing,auth-white-space}.test.ts',
    ],
    setupFiles: [],
  },
  // The kit's command line (`cli.ts`): its options, reports and exit statuses, in process,
  // mostly on runs against the fake server (under a second each).
  cli: {
    include: [
      'packages/conformance/test/{cli,verdicts,reporters,key-secrecy,report,root-causes,fixture-set,expect-fail,preflight,proxy-command}.test.ts',
    ],
    setupFiles: [],
  },
  // The conformance kit's CLI run against the API on the in-memory store: a mutant of the API
  // that survives is a defect the kit lets through (or one no answer shows). Seconds a mutant.
  'kit-on-api': {
    include: ['apps/api/test/black-box/conformance.test.ts'],
    setupFiles: API_SETUP,
  },
  // The tracing modules' in-process tests (the spans a process sends are tested through processes).
  tracing: {
    include: [
      'apps/api/test/{root-traces,sampled-spans,span-data,export-failure,export-problems,sampler-from-env}.test.ts',
    ],
    setupFiles: API_SETUP,
  },
  // The MongoDB store, its idempotent creates, the API keys and the shared rate limit, held to
  // the tests that call them in-process on one MongoDB-compatible server for the run
  // (`@animal-store/test-db`: FerretDB, or `MONGODB_URI`); the fault suites run the API in
  // processes of their own, which Stryker's switching of mutants at run time does not reach.
  mongo: {
    include: [
      'apps/api/test/{mongo-errors,monitor-watch,mongo-client-options}.test.ts',
      'apps/api/test/mongo/{api-keys,client-reconnect,cluster-rate-limit,idempotency-growth,key-flood,mongo-idempotency,mongo-pet-store}.test.ts',
    ],
    setupFiles: API_SETUP,
    globalSetup: [fromApi.resolve('@animal-store/test-db/vitest-global-setup')],
  },
  // The traffic judge (`judge --har`) and its HAR reader on HAR files its tests write,
  // `--expect-fail` on runs against the fake server, and the proxy and its command in-process in
  // front of node:http targets; `judge-faults` records its HAR files with Chromium: too slow a
  // mutant.
  traffic: {
    include: [
      'packages/conformance/test/{judge-rules,judge-any-traffic,har-reading,traffic-exchange,expect-fail,proxy-forwarding,proxy-command}.test.ts',
    ],
    setupFiles: [],
  },
} as const;
const setName = process.env.MUTATION_TESTS ?? 'request-path';
if (!Object.hasOwn(TEST_SETS, setName)) {
  throw new Error(`MUTATION_TESTS=${setName}: one of ${Object.keys(TEST_SETS).join(', ')}`);
}
const tests = TEST_SETS[setName as keyof typeof TEST_SETS];

/**
 * The tests Stryker runs against each mutant (`TEST_SETS`). `@animal-store/contract` resolves to its
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
    include: [...tests.include],
    exclude: 'exclude' in tests ? [...tests.exclude] : [],
    // One module graph for every file of a run: importing the API for each file again took most
    // of a mutant's time. Stryker switches its mutants at run time, so no file needs a fresh one.
    isolate: false,
    setupFiles: [...tests.setupFiles],
    globalSetup: 'globalSetup' in tests ? [...tests.globalSetup] : [],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
