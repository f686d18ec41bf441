import { HERE, run } from './generated.js';

/** Where native-tools.sh put the Go generator and linter (built into the cache on first use). */
export interface GoTools {
  go: string;
  'oapi-codegen': string;
  staticcheck: string;
}

/** Where native-tools.sh put the Rust generator, and the Cargo target directory kept between runs. */
export interface RustTools {
  cargo: string;
  'cargo-progenitor': string;
  'cargo-target': string;
}

export async function nativeTools(part: 'go'): Promise<GoTools>;
export async function nativeTools(part: 'rust'): Promise<RustTools>;
export async function nativeTools(part: 'go' | 'rust'): Promise<GoTools | RustTools> {
  const printed = await run('bash', [`${HERE}native-tools.sh`, part]);
  return Object.fromEntries(
    printed
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  ) as unknown as GoTools | RustTools;
}
