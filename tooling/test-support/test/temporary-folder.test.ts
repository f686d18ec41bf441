import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TemporaryFolder } from '../src/index.js';

/** The folders under the temporary one whose names start with `prefix`. */
const made = (prefix: string) => readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));

describe('TemporaryFolder', () => {
  it('makes no folder until its path is read, and one folder however often it is read', () => {
    const prefix = `test-support-lazy-${process.pid}-`;
    const folder = new TemporaryFolder(prefix);
    expect(made(prefix)).toEqual([]);
    const { path } = folder;
    expect(dirname(path)).toBe(tmpdir());
    expect(basename(path).startsWith(prefix)).toBe(true);
    expect(folder.path).toBe(path);
    expect(made(prefix)).toEqual([basename(path)]);
    folder.remove();
  });

  it('removes the folder with what it holds, and nothing when it was never made', () => {
    const prefix = `test-support-remove-${process.pid}-`;
    const unused = new TemporaryFolder(prefix);
    unused.remove();
    expect(made(prefix)).toEqual([]);
    const folder = new TemporaryFolder(prefix);
    writeFileSync(join(folder.path, 'file.txt'), 'x');
    const first = folder.path;
    folder.remove();
    expect(existsSync(first)).toBe(false);
    const second = folder.path;
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
    folder.remove();
    expect(made(prefix)).toEqual([]);
  });
});
