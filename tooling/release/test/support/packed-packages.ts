/**
 * The public packages as a consumer gets them: the tarballs a release published (packed once, by
 * the rehearsal's `changeset publish`, test/rehearsal.test.ts), installed with npm from those files
 * into an empty project (no workspace, no links), type-checked and run there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiReport, buildApiReport, type ExportEntry } from '../../src/api-report.js';
import { declarationCache } from '../../src/declarations.js';
import { type Manifest, readManifest } from '../../src/workspace.js';
import type { StartedApi } from './api.js';
import { cleanEnv, run, runOk, writeFile } from './temp.js';

/** The packages' folders in the released checkout, and their tarballs as published. */
export interface Released {
  readonly dirs: Readonly<Record<'contract' | 'conformance' | 'client', string>>;
  readonly tarballs: Readonly<Record<'contract' | 'conformance' | 'client', string>>;
}
const CONTRACT = '@animal-store/contract';
const KIT = '@animal-store/conformance';
const CLIENT = '@animal-store/client';

/** The consumer's compiler options: what a strict TypeScript project on Node 22 (the oldest the packages support) uses. */
const CONSUMER_COMPILER_OPTIONS = {
  target: 'ES2023',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  resolveJsonModule: true,
  types: ['node'],
} as const;
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    ...CONSUMER_COMPILER_OPTIONS,
    // Checking every declaration of every dependency takes half a minute; the packages' own
    // declarations are checked on their own (declarationErrors).
    skipLibCheck: true,
    rootDir: 'src',
    outDir: 'out',
  },
  include: ['src'],
};

/**
 * Type errors in the `.d.ts` files of the installed packages, as the consumer's compiler sees
 * them: an import of a module the tarball does not bring (a dev dependency, say) shows here.
 */
function declarationErrors(project: string, packageDirs: readonly string[]): string[] {
  const files = packageDirs.flatMap((dir) =>
    readdirSync(join(dir, 'dist'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.d.ts'))
      .map((file) => join(dir, 'dist', file)),
  );
  const options = {
    ...ts.convertCompilerOptionsFromJson(CONSUMER_COMPILER_OPTIONS, project).options,
    noEmit: true,
    typeRoots: [join(project, 'node_modules/@types')],
  };
  // The packages' declarations are parsed already, by the reports of their surface.
  const host = declarationCache(ts).host(options);
  const program = ts.createProgram(files, options, host);
  return files.flatMap((file) => {
    const source = program.getSourceFile(file);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    return diagnostics.map((d) => ts.formatDiagnostic(d, host).trim());
  });
}

interface Packed {
  readonly filename: string;
  readonly files: readonly string[];
}

/** A tarball's files, as `pnpm pack` lists them: paths inside `package/`, sorted. */
async function listTarball(filename: string): Promise<Packed> {
  const entries = await runOk('tar', ['-tzf', filename], { cwd: '/' });
  const files = entries
    .split('\n')
    .filter((entry) => entry && !entry.endsWith('/'))
    .map((entry) => entry.replace(/^package\//, ''))
    .sort();
  return { filename, files };
}

/**
 * `tsc --build`'s output split into its diagnostics (a line and the indented ones under it), by
 * the project of the file each names; one naming no project's file counts for the first (`.`).
 */
function byProject(output: string, projects: readonly string[]): Record<string, string[]> {
  const diagnostics: Record<string, string[]> = Object.fromEntries(projects.map((p) => [p, []]));
  for (const diagnostic of output.split(/\n(?=\S)/).filter((text) => text.trim() !== '')) {
    const owner = projects.find((p) => p !== '.' && diagnostic.startsWith(`${p}/`)) ?? '.';
    diagnostics[owner]?.push(diagnostic.trimEnd());
  }
  return diagnostics;
}

/** Source that imports every export of `report`, as `alias_name`, and fails if a value is missing. */
function importEverything(report: ApiReport, alias: string): { imports: string; values: string[] } {
  const imports: string[] = [];
  const values: string[] = [];
  Object.entries(report.entryPoints).forEach(([subpath, entry], index) => {
    const specifier = `${report.package}${subpath.slice(1)}`;
    const local = `${alias}${index}_`;
    if ('json' in entry) {
      imports.push(`import ${local}json from '${specifier}' with { type: 'json' };`);
      values.push(`${local}json`);
      return;
    }
    const names = Object.entries(entry as Record<string, ExportEntry>).map(([name, { kind }]) => {
      const isValue = !/^(type|interface)$|type only/.test(kind);
      if (isValue) values.push(`${local}${name}`);
      return `${isValue ? '' : 'type '}${name} as ${local}${name}`;
    });
    imports.push(`import {\n  ${names.join(',\n  ')},\n} from '${specifier}';`);
  });
  return { imports: imports.join('\n'), values };
}

/**
 * The suite, on what `released()` gives once the caller's `beforeAll` has run; `work` is an empty
 * folder of its own; the kit runs against the API `api()` gives (the caller's, which accepts
 * `apiKey`, and stops it). `install()` starts the project's install (once): the caller may start
 * it early, beside its own work; the suite waits for it.
 */
export function describePackedPackages(
  work: string,
  released: () => Released,
  api: { get(): Promise<StartedApi>; readonly apiKey: string },
): { install(): Promise<void> } {
  let installing: Promise<void> | undefined;
  let installProject: () => Promise<void> = async () => {};
  const install = () => {
    installing ??= installProject();
    return installing;
  };
  describe('the public packages, as packed for the release, installed with npm into an empty project', () => {
    let PACKAGES: Released['dirs'];
    const project = join(work, 'project');
    const packed: Record<string, Packed> = {};
    const installed = (name: string) => join(project, 'node_modules', name);
    const reports = new Map<string, Promise<ApiReport>>();
    /** The public surface of an installed package (built once: it compiles its declarations). */
    const installedReport = (name: string) => {
      if (!reports.has(name)) reports.set(name, buildApiReport(installed(name)));
      return reports.get(name) as Promise<ApiReport>;
    };
    // npx must run the installed bin, never fetch one.
    const npmEnv = cleanEnv({ npm_config_yes: 'false' });

    installProject = async () => {
      const { dirs, tarballs } = released();
      PACKAGES = dirs;
      packed.contract = await listTarball(tarballs.contract);
      packed.conformance = await listTarball(tarballs.conformance);
      packed.client = await listTarball(tarballs.client);
      writeFile(
        project,
        'package.json',
        `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
      );
      // Every tarball at once: the kit's and the client's dependency on the contract is met by the
      // contract's tarball.
      await runOk(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          packed.contract.filename,
          packed.conformance.filename,
          packed.client.filename,
          'typescript@5.9',
          '@types/node@22',
        ],
        { cwd: project, env: npmEnv },
      );
    };

    beforeAll(install, 240_000);

    it.each([
      'contract',
      'conformance',
      'client',
    ] as const)('packs %s with its manifest, build, docs and licence only', (key) => {
      const manifest = readManifest(PACKAGES[key]);
      const files = packed[key]?.files ?? [];
      for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
        expect(files).toContain(file);
      }
      const targets = [manifest.exports, manifest.bin].flatMap(function leaves(value): string[] {
        if (typeof value === 'string') return [value.replace(/^\.\//, '')];
        return value && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [];
      });
      expect(targets).toContain('dist/index.d.ts');
      for (const target of targets) expect(files).toContain(target);
      expect(
        files.filter((file) => /^(test|scripts)\/|tsconfig|api-report|\.test\./.test(file)),
      ).toEqual([]);
    });

    it('rewrites workspace: ranges to the versions in the released workspace', () => {
      const contract = readManifest(PACKAGES.contract);
      for (const name of [CONTRACT, KIT, CLIENT]) {
        expect(readFileSync(join(installed(name), 'package.json'), 'utf8')).not.toContain(
          'workspace:',
        );
      }
      const kit = readManifest(installed(KIT)) as Manifest & {
        dependencies: Record<string, string>;
      };
      expect(kit.dependencies['@animal-store/contract']).toBe(`^${contract.version}`);
      const client = readManifest(installed(CLIENT)) as Manifest & {
        dependencies: Record<string, string>;
      };
      expect(client.dependencies['@animal-store/contract']).toBe(`^${contract.version}`);
    });

    it("meets the kit's dependency on the contract with the contract's tarball, not the registry", () => {
      expect(existsSync(join(installed(KIT), 'node_modules'))).toBe(false);
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string; version?: string }>;
      };
      const contract = lock.packages['node_modules/@animal-store/contract'];
      expect(contract?.resolved).toMatch(/^file:.*animal-store-contract-.*\.tgz$/);
      expect(contract?.version).toBe(readManifest(PACKAGES.contract).version);
    });

    it("ships the contract's whole public surface, as the workspace builds it", async () => {
      const built = await buildApiReport(PACKAGES.contract);
      expect((await installedReport(CONTRACT)).entryPoints).toEqual(built.entryPoints);
    });

    /** A CommonJS TypeScript project beside the ES module one, on the same installed packages. */
    const writeCommonJs = (module: 'NodeNext' | 'Node16') => {
      const name = `cjs-${module.toLowerCase()}`;
      const dir = join(project, name);
      writeFile(dir, 'package.json', '{ "type": "commonjs" }\n');
      writeFile(
        dir,
        'tsconfig.json',
        `${JSON.stringify(
          {
            compilerOptions: {
              ...CONSUMER_TSCONFIG.compilerOptions,
              module,
              moduleResolution: module,
            },
            include: ['src'],
          },
          null,
          2,
        )}\n`,
      );
      writeFile(
        dir,
        'src/index.ts',
        `import { API_VERSION, validateNewPet } from '@animal-store/contract';
import { CHECKS } from '@animal-store/conformance';

console.log(API_VERSION, validateNewPet({ name: 'Rex', categoryId: 1 }).ok, CHECKS.length > 0);
`,
      );
      return name;
    };

    /**
     * Writes the consumer's sources (the ES module project and two CommonJS ones) and compiles
     * them once, with one `tsc --build` of the three projects: it parses the declaration files
     * they share once. What the next tests check and run.
     */
    let compiled:
      | Promise<{
          values: number;
          examples: Record<string, string[]>;
          tsc: { status: number | null; diagnostics: Record<string, string[]> };
        }>
      | undefined;
    const compile = () => {
      compiled ??= (async () => {
        const contract = importEverything(await installedReport(CONTRACT), 'c');
        const kit = importEverything(await installedReport(KIT), 'k');
        const client = importEverything(await installedReport(CLIENT), 'a');
        const values = [...contract.values, ...kit.values, ...client.values];
        writeFile(
          project,
          'src/everything.ts',
          `${contract.imports}
${kit.imports}
${client.imports}

const values: Record<string, unknown> = {
  ${values.join(',\n  ')},
};
const missing = Object.keys(values).filter((name) => values[name] === undefined);
if (missing.length > 0) throw new Error(\`undefined at run time: \${missing.join(', ')}\`);
console.log(\`\${Object.keys(values).length} values\`);
`,
        );
        const examples: Record<string, string[]> = {};
        for (const [key, dir] of Object.entries(PACKAGES)) {
          const readme = readFileSync(join(dir, 'README.md'), 'utf8');
          examples[key] = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, index) => {
            writeFile(project, `src/readme-${key}-${index}.ts`, match[1] as string);
            return `readme-${key}-${index}`;
          });
        }
        writeFile(project, 'tsconfig.json', `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
        const projects = ['.', writeCommonJs('NodeNext'), writeCommonJs('Node16')];
        const tsc = await run(
          process.execPath,
          ['node_modules/typescript/bin/tsc', '--build', ...projects],
          { cwd: project },
        );
        return {
          values: values.length,
          examples,
          tsc: { status: tsc.status, diagnostics: byProject(tsc.stdout + tsc.stderr, projects) },
        };
      })();
      return compiled;
    };

    it("type-checks a file importing every public export of the packages, and the READMEs' examples", async () => {
      const { values, examples, tsc } = await compile();
      expect(tsc.diagnostics['.']).toEqual([]);
      expect(values).toBeGreaterThan(40);
      expect(examples.contract).toHaveLength(2);
      expect(examples.conformance).toHaveLength(2);
      expect(examples.client).toHaveLength(2);
    });

    it("runs that file and the contract README's examples under Node", async () => {
      const { values, examples } = await compile();
      const node = (file: string) => runOk(process.execPath, [`out/${file}.js`], { cwd: project });
      expect(await node('everything')).toBe(`${values} values\n`);
      // The kit's and the client's examples need a server; they are only type-checked.
      const outputs = await Promise.all((examples.contract ?? []).map(node));
      expect(outputs.join('')).toMatch(/^1$/m);
      expect(outputs.join('')).toContain("1.0.0 [ '/pets', '/pets/{petId}' ]");
    });

    it('works in a CommonJS project with the TypeScript settings the READMEs give (module nodenext)', async () => {
      const { tsc } = await compile();
      expect(tsc.diagnostics['cjs-nodenext']).toEqual([]);
      const dir = join(project, 'cjs-nodenext');
      expect(readFileSync(join(dir, 'out/index.js'), 'utf8')).toContain(
        'require("@animal-store/contract")',
      );
      // Every Node the packages support loads the ES modules with require().
      expect(await runOk(process.execPath, ['out/index.js'], { cwd: dir })).toBe(
        '1.0.0 true true\n',
      );
    });

    it('fails in a CommonJS project on module node16 with TS1479, as the READMEs warn', async () => {
      const { tsc } = await compile();
      expect(tsc.status).not.toBe(0);
      expect(tsc.diagnostics['cjs-node16']?.join('\n')).toContain('TS1479');
    });

    it('ships declarations that type-check in the project, dependencies and all', () => {
      expect(
        declarationErrors(project, [installed(CONTRACT), installed(KIT), installed(CLIENT)]),
      ).toEqual([]);
    });

    it('prints the usage of `npx animal-store-conformance --help`, and its version', async () => {
      const { status, stdout } = await run('npx', ['animal-store-conformance', '--help'], {
        cwd: project,
        env: npmEnv,
      });
      expect(status).toBe(0);
      expect(stdout).toMatch(/^Usage: animal-store-conformance --base-url URL --api-key KEY/);
      const bin = join(project, 'node_modules/.bin/animal-store-conformance');
      expect(await runOk(bin, ['--version'], { cwd: project })).toBe(
        `${readManifest(PACKAGES.conformance).version}\n`,
      );
    });

    it('passes a real run of `npx animal-store-conformance` against the started API', async () => {
      const { url } = await api.get();
      const { status, stdout, stderr } = await run(
        'npx',
        ['animal-store-conformance', '--base-url', url, '--api-key', api.apiKey],
        { cwd: project, env: npmEnv },
      );
      expect({ status, stderr: status === 0 ? '' : stderr }).toEqual({ status: 0, stderr: '' });
      expect(stdout).toMatch(/^PASS: every must check/m);
      expect(stdout).toContain(`: ${url}\n`);
    });
  });
  return { install };
}
