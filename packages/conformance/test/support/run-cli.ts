import { main } from '../../src/cli.js';

/** Runs the CLI in-process and collects what it wrote and its exit code. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
  });
  return { stdout, stderr, exitCode };
}
