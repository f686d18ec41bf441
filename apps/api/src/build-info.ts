import { readFileSync } from 'node:fs';
import { Gauge, type Registry } from 'prom-client';

/** What build of the service this is. */
export interface BuildInfo {
  /** The package's version (`package.json`). */
  version: string;
  /** The source revision it was built from (`ANIMAL_STORE_REVISION`, set in the image), or `unknown`. */
  revision: string;
  /** The Node.js version it runs on. */
  node: string;
}

const packageJson = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

export const BUILD_INFO: BuildInfo = {
  version: packageJson.version,
  revision: process.env.ANIMAL_STORE_REVISION || 'unknown',
  node: process.version,
};

/** `<name> <version> (revision <revision>, Node.js <version>)`: what `--version` prints. */
export function versionLine(name: string, info: BuildInfo = BUILD_INFO): string {
  return `${name} ${info.version} (revision ${info.revision}, Node.js ${info.node})`;
}

/** The gauge `animal_store_build_info` (always 1), labelled with the build, on `registry`. */
export function registerBuildInfo(registry: Registry, info: BuildInfo = BUILD_INFO): void {
  if (registry.getSingleMetric('animal_store_build_info')) return;
  new Gauge({
    name: 'animal_store_build_info',
    help: 'The build that runs: version, source revision and Node.js version (always 1)',
    labelNames: ['version', 'revision', 'node_version'],
    registers: [registry],
  }).set({ version: info.version, revision: info.revision, node_version: info.node }, 1);
}
