/**
 * Runs a command-line entry point: its exit code, or one line on stderr and exit code 2 when it
 * throws (the error's own `exitCode` when it has one).
 */
export function runMain(name: string, main: () => number | Promise<number>): void {
  Promise.resolve()
    .then(main)
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(`${name}: ${(error as Error).message ?? error}\n`);
        const code = (error as { exitCode?: unknown }).exitCode;
        process.exitCode = typeof code === 'number' ? code : 2;
      },
    );
}
