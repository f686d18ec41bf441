import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** This package's directory. */
export const HERE = fileURLToPath(new URL('../../', import.meta.url));

/** A fresh, empty `.generated/<name>` directory for one generator's output. */
export async function outputDir(name: string): Promise<string> {
  const dir = `${HERE}.generated/${name}`;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Runs a command to its end; a failure carries its output. */
export async function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(file, args, {
      cwd: options.cwd ?? HERE,
      env: options.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}
