import { execFileSync } from 'node:child_process';

/** Runs git in `cwd` and returns its standard output; throws with git's own message on failure. */
export function git(cwd: string, args: readonly string[]): string {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`git ${args.join(' ')}: ${stderr || (error as Error).message}`);
  }
}

/** Like `git`, but undefined instead of an error (for questions such as "does this ref exist?"). */
export function gitMaybe(cwd: string, args: readonly string[]): string | undefined {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
}

/** The paths of a `-z` separated git listing. */
export function paths(output: string): string[] {
  return output.split('\0').filter((path) => path !== '');
}
