import { availableParallelism } from 'node:os';

/**
 * How many test files a package's vitest runs side by side. Most of a file's time is spent waiting
 * on servers and child processes, so two files side by side keep two cores busy (vitest's default,
 * one fewer than the cores, runs them one by one there).
 */
export const maxWorkers = Math.max(2, availableParallelism() - 1);

/**
 * A project's test options for running its files side by side. When several projects run in one
 * vitest (the root config, CI's other Node majors), vitest runs projects whose `maxWorkers`
 * differs in separate sequence groups: these projects form group 1, after the others' group 0.
 */
export const sideBySide = { maxWorkers, sequence: { groupOrder: 1 } };
