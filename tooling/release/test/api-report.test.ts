import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type ApiReport,
  buildApiReport,
  checkApiReport,
  compareApiReports,
  diffApiReports,
  explainReportCheck,
  formatApiReport,
  REPORT_FILE,
  readApiReport,
} from '../src/api-report.js';
import { type Changeset, parseChangesetFile, readChangesets } from '../src/changesets.js';
import { changesetText, REPO_ROOT, tempDir, writeFile } from './support/temp.js';

const CONTRACT = join(REPO_ROOT, 'packages/contract');
const CLI = fileURLToPath(new URL('../dist/api-report-cli.js', import.meta.url));

describe("the contract's public surface", () => {
  it('matches api-report.json, or a changeset added since the report names the contract', async () => {
    const check = await checkApiReport(CONTRACT, readChangesets(REPO_ROOT));
    const message = explainReportCheck('@animal-store/contract', check);
    if (check.status === 'uncovered') throw new Error(message);
    // A covered change passes, as a changeset says so; the report still wants updating.
    if (check.status === 'covered') console.warn(message);
  });

  it('lists every export of both entry points and the OpenAPI document', async () => {
    const { entryPoints } = await buildApiReport(CONTRACT);
    expect(Object.keys(entryPoints)).toEqual([
      '.',
      './docs-page',
      './openapi-3.0.json',
      './openapi.json',
    ]);
    const main = entryPoints['.'] as Record<string, { kind: string }>;
    const runtime = await import('@animal-store/contract');
    for (const name of Object.keys(runtime)) expect(main).toHaveProperty(name);
    expect(main.Pet?.kind).toBe('schema, type');
    expect(main.ValidationResult?.kind).toBe('type');
    expect(main.compileValidator?.kind).toBe('function');
    expect(main.openApiDocument).toEqual({ kind: 'const', sameAs: './openapi.json' });
    expect(main.componentSchemas).toMatchObject({ value: { PetStatus: { $export: 'PetStatus' } } });
  });
});

const report = (exports: Record<string, unknown>, json?: unknown): ApiReport => ({
  package: '@x/y',
  about: '',
  changesets: [],
  entryPoints: {
    '.': exports as ApiReport['entryPoints']['.'],
    ...(json === undefined ? {} : { './doc.json': { json } }),
  },
});

describe('the difference of two reports', () => {
  const A = { kind: 'const', value: 1 };
  const B = { kind: 'schema, type', schema: { type: 'string' }, declaration: 'type B = string' };
  it.each<[string, ApiReport, ApiReport, string[]]>([
    ['nothing', report({ A, B }, { a: 1 }), report({ B, A }, { a: 1 }), []],
    ['an added export', report({ A }), report({ A, B }), ['+ @x/y: B (schema, type)']],
    ['a removed export', report({ A, B }), report({ B }), ['- @x/y: A (const)']],
    ['a changed value', report({ A }), report({ A: { ...A, value: 2 } }), ['~ @x/y: A (const)']],
    [
      'a changed kind',
      report({ B }),
      report({ B: { ...B, kind: 'schema' } }),
      ['~ @x/y: B (schema, type -> schema)'],
    ],
    ['a changed JSON document', report({}, { a: 1 }), report({}, { a: 2 }), ['~ @x/y/doc.json']],
    ['an added entry point', report({}), report({}, {}), ['+ @x/y/doc.json (entry point)']],
  ])('shows %s', (_, before, after, lines) => {
    expect(diffApiReports(before, after)).toEqual(lines);
  });
});

describe('the normal flow: change the contract, add a changeset, update the report', () => {
  /**
   * A copy of the built contract, changed by `change`, with the report of the unchanged build.
   * Each state gets a folder of its own: a module, once imported, stays as it was loaded.
   */
  async function changedContract(change: (dir: string) => void, changesets: Changeset[] = []) {
    const copy = () => {
      const dir = tempDir('api-report');
      for (const path of ['package.json', 'dist', 'src', 'openapi.json', 'openapi-3.0.json']) {
        cpSync(join(CONTRACT, path), join(dir, path), { recursive: true });
      }
      symlinkSync(join(CONTRACT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      return dir;
    };
    const before = formatApiReport(await buildApiReport(copy(), changesets));
    const dir = copy();
    change(dir);
    writeFile(dir, REPORT_FILE, before);
    return dir;
  }
  const changeset = (id: string, releases: Record<string, string>) =>
    parseChangesetFile(`.changeset/${id}.md`, changesetText(releases));

  it('fails on a new export, passes once a new changeset names the package, and the report updates', async () => {
    const older = [changeset('older', { '@animal-store/contract': 'patch' })];
    const dir = await changedContract((at) => {
      appendFileSync(join(at, 'dist/index.js'), '\nexport const EXTRA_LIMIT = 5;\n');
      appendFileSync(join(at, 'dist/index.d.ts'), '\nexport declare const EXTRA_LIMIT = 5;\n');
    }, older);
    const changes = ['+ @animal-store/contract: EXTRA_LIMIT (const)'];
    const built = await buildApiReport(dir);
    const compare = (...changesets: Changeset[]) =>
      compareApiReports(readApiReport(dir), built, changesets);
    // A changeset the report already records does not excuse a newer change.
    expect(compare(...older)).toEqual({ status: 'uncovered', changes });
    expect(explainReportCheck('@animal-store/contract', compare(...older))).toContain(
      'add a changeset (`pnpm changeset`, pick @animal-store/contract',
    );
    // Nor does one naming another package.
    const kit = changeset('kit', { '@animal-store/conformance': 'minor' });
    expect(compare(...older, kit)).toMatchObject({ status: 'uncovered' });

    const mine = changeset('new-limit', { '@animal-store/contract': 'minor' });
    expect(compare(...older, kit, mine)).toEqual({
      status: 'covered',
      changes,
      changesets: ['new-limit'],
    });

    writeFile(dir, '.changeset/new-limit.md', changesetText({ '@animal-store/contract': 'minor' }));
    const output = execFileSync(process.execPath, [CLI, '.'], { cwd: dir, encoding: 'utf8' });
    expect(output).toBe(`api-report: api-report.json: written\n  ${changes[0]}\n`);
    const written = JSON.parse(readFileSync(join(dir, REPORT_FILE), 'utf8')) as ApiReport;
    expect(written.changesets).toEqual(['new-limit']);
    expect(compare(mine)).toEqual({ status: 'current' });
  });

  it('catches a changed schema, wherever it is used', async () => {
    const dir = await changedContract((at) => {
      const file = join(at, 'dist/schemas/pet.js');
      writeFileSync(file, readFileSync(file, 'utf8').replace("'sold'", "'adopted'"));
    });
    expect(await checkApiReport(dir, [])).toEqual({
      status: 'uncovered',
      changes: [
        '~ @animal-store/contract: ListPetsQuery (schema, type)',
        '~ @animal-store/contract: NewPet (schema, type)',
        // Pet's status is PetStatus itself, recorded as a reference: the change shows there.
        '~ @animal-store/contract: PetStatus (schema, type)',
        '~ @animal-store/contract: SpecNewPet (schema, type)',
        '~ @animal-store/contract: SpecPet (schema, type)',
        // No longer the same as the OpenAPI documents built before.
        '~ @animal-store/contract: openApiDocument (const)',
        '~ @animal-store/contract: openApiDocument30 (const)',
      ],
    });
  });
});
