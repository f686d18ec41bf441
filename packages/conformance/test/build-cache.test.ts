import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { type BuildInputs, cachedBuild } from './support/build-cache.js';

const scratch = new TemporaryFolder('conformance-build-cache-');
afterAll(() => scratch.remove());

/** A source file and a cache folder of their own, and a build that counts its runs. */
async function setUp(name: string) {
  const source = join(scratch.path, `${name}.src`);
  const cache = join(scratch.path, `${name}-cache`);
  await writeFile(source, 'one');
  const inputs: BuildInputs = { files: [source], command: ['cat', 'SOURCE'], tools: ['node'] };
  let builds = 0;
  const build = async (folder: string) => {
    builds += 1;
    await writeFile(join(folder, 'out'), await readFile(source));
  };
  return { source, cache, inputs, build, builds: () => builds };
}

describe('the framework apps’ build cache', () => {
  it('builds once, and uses the kept build while its inputs stay the same', async () => {
    const { cache, inputs, build, builds } = await setUp('same');
    const first = await cachedBuild('app', inputs, build, cache);
    const second = await cachedBuild('app', inputs, build, cache);
    expect(second).toBe(first);
    expect(builds()).toBe(1);
    expect(await readFile(join(first, 'out'), 'utf8')).toBe('one');
  });

  it('builds again when an input file, the command or a tool changes', async () => {
    const { source, cache, inputs, build, builds } = await setUp('changed');
    const first = await cachedBuild('app', inputs, build, cache);
    await writeFile(source, 'two');
    const edited = await cachedBuild('app', inputs, build, cache);
    expect(await readFile(join(edited, 'out'), 'utf8')).toBe('two');
    const flags = await cachedBuild('app', { ...inputs, command: ['cat', '-n'] }, build, cache);
    const tool = await cachedBuild('app', { ...inputs, tools: ['sh'] }, build, cache);
    expect(new Set([first, edited, flags, tool]).size).toBe(4);
    expect(builds()).toBe(4);
  });

  it('reads every file of a folder given as an input', async () => {
    const { cache, build, builds } = await setUp('folder');
    const folder = join(scratch.path, 'app-folder');
    await mkdir(join(folder, 'src'), { recursive: true });
    await writeFile(join(folder, 'src', 'main.ts'), 'a');
    const inputs: BuildInputs = { files: [folder], command: ['tsc'], tools: [] };
    const first = await cachedBuild('app', inputs, build, cache);
    await writeFile(join(folder, 'src', 'main.ts'), 'b');
    expect(await cachedBuild('app', inputs, build, cache)).not.toBe(first);
    expect(builds()).toBe(2);
  });

  it('keeps nothing of a failed build, and tries again next time', async () => {
    const { cache, inputs, build, builds } = await setUp('failed');
    const failing = async (folder: string) => {
      await writeFile(join(folder, 'half'), '');
      throw new Error('the compiler failed');
    };
    await expect(cachedBuild('app', inputs, failing, cache)).rejects.toThrow('the compiler failed');
    expect(await readdir(cache)).toEqual([]);
    await cachedBuild('app', inputs, build, cache);
    expect(builds()).toBe(1);
  });

  it('gives two builds at once the same kept folder', async () => {
    const { cache, inputs, build, builds } = await setUp('racing');
    // Each build ends only once both have begun: neither finds the other's kept.
    let bothBegun: () => void = () => {};
    const begun = new Promise<void>((resolve) => {
      bothBegun = resolve;
    });
    const racing = async (folder: string) => {
      await build(folder);
      if (builds() === 2) bothBegun();
      await begun;
    };
    const [one, other] = await Promise.all([
      cachedBuild('app', inputs, racing, cache),
      cachedBuild('app', inputs, racing, cache),
    ]);
    expect(other).toBe(one);
    expect(builds()).toBe(2);
    expect(await readdir(cache)).toEqual([one.slice(cache.length + 1)]);
  });
});
