import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder under the system's temporary one, made on the first read of `path`. A test file whose
 * tests are all filtered out (`vitest -t`, StrykerJS's runs of the tests that cover a mutant)
 * runs none of its `afterAll` hooks, so a folder made when the file loads would be left behind;
 * one made by the first test that needs it is removed by `remove`, if it was made.
 */
export class TemporaryFolder {
  #path: string | undefined;

  constructor(private readonly prefix: string) {}

  /** The folder's path; the first read makes it. */
  get path(): string {
    this.#path ??= mkdtempSync(join(tmpdir(), this.prefix));
    return this.#path;
  }

  /** Removes the folder and all in it, if it was made; a later read of `path` makes a new one. */
  remove(): void {
    if (this.#path === undefined) return;
    rmSync(this.#path, { recursive: true, force: true });
    this.#path = undefined;
  }
}
