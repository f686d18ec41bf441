import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** The full path of executable `command` on `env.PATH`, or undefined when there is none. */
export async function findOnPath(
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this dir
    }
  }
  return undefined;
}
