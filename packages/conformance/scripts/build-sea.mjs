// Builds `animal-store-conformance` as one executable that needs no Node.js (a Node single
// executable application, SEA) for the platform it runs on (linux-x64 in CI and releases):
// esbuild bundles the CLI and its dependencies into one CommonJS script, Node turns it into a
// blob, and postject injects the blob into a copy of the running `node` binary.
//
//   node scripts/build-sea.mjs [OUT_DIR]     (default sea/; run after building the contract)
//
// Writes OUT_DIR/animal-store-conformance and OUT_DIR/animal-store-conformance.sha256.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const NAME = 'animal-store-conformance';
// The fuse Node's SEA support looks for (the one Node's documentation gives for postject).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(process.argv[2] ?? join(root, 'sea'));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// A module reads package.json beside the package at load time; the binary has it built in.
const builtIn = {
  name: 'built-in-files',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
      loader: 'ts',
      contents: `export const KIT_NAME: string = ${JSON.stringify(manifest.name)};\nexport const KIT_VERSION: string = ${JSON.stringify(manifest.version)};\n`,
    }));
  },
};

mkdirSync(out, { recursive: true });
const script = join(out, `${NAME}.cjs`);
const blob = join(out, `${NAME}.blob`);
const binary = join(out, NAME);

await build({
  stdin: {
    contents: `import { exitWith, main } from './src/cli.ts';\nexitWith(main(process.argv.slice(2)));\n`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: script,
  plugins: [builtIn],
  logLevel: 'warning',
});

const config = join(out, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true }),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });

copyFileSync(process.execPath, binary);
chmodSync(binary, 0o755);
const { inject } = createRequire(import.meta.url)('postject');
await inject(binary, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });

const sha256 = createHash('sha256').update(readFileSync(binary)).digest('hex');
writeFileSync(`${binary}.sha256`, `${sha256}  ${NAME}\n`);
console.log(`build-sea: ${binary} (sha256 ${sha256})`);
