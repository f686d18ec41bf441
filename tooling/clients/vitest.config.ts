import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'clients',
    include: ['test/**/*.test.ts'],
    // One MongoDB-compatible server for the run (the official client runs on both stores); fails,
    // never skips, without one. The first run may build FerretDB. Then one API on the in-memory
    // store that every file shares (test/global-setup.ts).
    globalSetup: ['@animal-store/test-db/vitest-global-setup', './test/global-setup.ts'],
    // The files run one at a time: they share that API's store, and a test's listing starts at the
    // first pet the test created (`after` the id before it), which shows exactly that test's pets
    // only while no other file creates pets beside it.
    fileParallelism: false,
    // One after the other, the files share one worker too, so what they import loads once: none
    // mocks a module or changes the state of one it imports. All projects of a sequence group run
    // with one worker count, so this one has a group of its own in the root config's run.
    isolate: false,
    sequence: { groupOrder: 2 },
    hookTimeout: 10 * 60_000,
    testTimeout: 10 * 60_000,
  },
});
