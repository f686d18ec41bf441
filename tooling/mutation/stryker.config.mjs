// StrykerJS on the API's request path (routes, auth, body reading, errors, the in-memory store)
// and the contract's validation, with the fast tests of vitest.mutation.config.ts. Run from the
// repository root by `pnpm mutate` (CONTRIBUTING.md); not part of CI: it takes a long while.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'tooling/mutation/vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // Mutants that only change module-level constants would need every test run for each one.
  ignoreStatic: true,
  // The machine is shared: one or two test processes at a time.
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  mutate: [
    'apps/api/src/routes/pets.ts',
    'apps/api/src/http/auth.ts',
    'apps/api/src/http/json-body.ts',
    'packages/contract/src/json-members.ts',
    'apps/api/src/http/unread-bodies.ts',
    'apps/api/src/deadline.ts',
    'apps/api/src/http/errors.ts',
    'apps/api/src/http/idempotency-key.ts',
    'apps/api/src/http/next-link.ts',
    'apps/api/src/http/router-answers.ts',
    'apps/api/src/store/memory-pet-store.ts',
    'packages/contract/src/validate.ts',
    'packages/contract/src/query.ts',
  ],
  ignorePatterns: [
    '**/dist',
    '**/.turbo',
    '**/coverage',
    'reports',
    'tooling/bench/results',
    'tooling/schemathesis/.venv',
  ],
  tempDirName: 'tooling/mutation/.stryker-tmp',
  // Reruns only the mutants whose code or tests changed since the last run's report.
  incremental: true,
  incrementalFile: 'tooling/mutation/reports/stryker-incremental.json',
  // The first run of every test, with coverage, on a busy shared machine.
  dryRunTimeoutMinutes: 40,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'tooling/mutation/reports/mutation.html' },
  jsonReporter: { fileName: 'tooling/mutation/reports/mutation.json' },
  // Beyond 1.5 times its tests' time in the dry run: a mutant that leaves a request unanswered
  // counts as killed (timed out) once this much more has passed.
  timeoutMS: 20_000,
  disableTypeChecks: '{apps,packages}/**/*.ts',
  cleanTempDir: 'always',
};
