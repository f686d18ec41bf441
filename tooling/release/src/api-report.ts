/**
 * The public surface of a built package, as a stable JSON document (an api-extractor style
 * report): every export of every entry point in `exports` with its kind and its declaration, the
 * JSON of every TypeBox schema and other data it exports, and each JSON file it exports.
 *
 * Read from what is published: the `.d.ts` files (with the TypeScript compiler) and the modules
 * themselves (imported), so a change to either shows.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { type Changeset, releasesPackage } from './changesets.js';
import { declarationCache } from './declarations.js';
import { readManifest } from './workspace.js';

/** One export: its kind, and what a consumer sees of it. */
export interface ExportEntry {
  /** e.g. `function`, `const`, `schema`, `type`, `interface`, or `schema, type` for a pair. */
  readonly kind: string;
  /** The JSON of a TypeBox schema. */
  readonly schema?: unknown;
  /** The JSON of any other value (dates as `{ "$date": … }`, other exports as `{ "$export": … }`). */
  readonly value?: unknown;
  /** Another entry point holding the same JSON, e.g. `./openapi.json`. */
  readonly sameAs?: string;
  /** The declaration as published in the `.d.ts`, without comments, on one line. */
  readonly declaration?: string;
}

/** The JSON document an entry point exports, e.g. `./openapi.json`. */
export interface JsonEntryPoint {
  readonly json: unknown;
}

export type EntryPoint = Readonly<Record<string, ExportEntry>> | JsonEntryPoint;

export interface ApiReport {
  readonly package: string;
  readonly about: string;
  /** The pending changesets naming the package when the report was written. */
  readonly changesets: readonly string[];
  readonly entryPoints: Readonly<Record<string, EntryPoint>>;
}

export const REPORT_FILE = 'api-report.json';

/** Declarations longer than this are shown cut, with a hash of the whole. */
const DECLARATION_MAX = 1000;

interface Target {
  readonly types?: string;
  readonly runtime?: string;
  readonly json?: string;
}

/** The entry points of `exports`: subpath to its `.d.ts`, module or JSON file. */
function entryTargets(manifest: Record<string, unknown>): Map<string, Target> {
  const targets = new Map<string, Target>();
  const exportsField = manifest.exports as Record<string, unknown> | undefined;
  for (const [subpath, target] of Object.entries(exportsField ?? {})) {
    if (subpath === './package.json') continue;
    if (typeof target === 'string') {
      targets.set(subpath, target.endsWith('.json') ? { json: target } : { runtime: target });
    } else if (target && typeof target === 'object') {
      const conditions = target as Record<string, string | undefined>;
      const runtime = conditions.import ?? conditions.default;
      targets.set(subpath, { types: conditions.types, runtime });
    }
  }
  return targets;
}

/** Whether `value` is a TypeBox schema (TypeBox 1.x marks them with a hidden `~kind`). */
function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '~kind' in value;
}

/** `value` as JSON with sorted keys; objects that are other exports become `{ $export }`. */
function snapshot(value: unknown, exported: ReadonlyMap<object, string>, self: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (value === undefined) return { $undefined: true };
  if (typeof value === 'bigint') return { $bigint: String(value) };
  if (typeof value === 'function') return { $function: value.name };
  if (typeof value !== 'object' || value === null) return value;
  const name = exported.get(value);
  if (name !== undefined && value !== self) return { $export: name };
  if (Array.isArray(value)) return value.map((item) => snapshot(item, exported, self));
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, snapshot((value as Record<string, unknown>)[key], exported, self)]),
  );
}

/** JSON with sorted keys, for comparing documents whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(snapshot(value, new Map(), undefined));
}

const printer = ts.createPrinter({ removeComments: true });

function printDeclaration(node: ts.Node): string {
  const target = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const text = printer
    .printNode(ts.EmitHint.Unspecified, target, node.getSourceFile())
    .replace(/\s+/g, ' ')
    .replace(/^export (declare )?/, '')
    .replace(/^declare /, '')
    .replace(/;$/, '');
  if (text.length <= DECLARATION_MAX) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  return `${text.slice(0, 200)}… (${text.length} characters, sha256 ${hash})`;
}

const VALUE_KINDS: readonly [ts.SymbolFlags, string][] = [
  [ts.SymbolFlags.Function, 'function'],
  [ts.SymbolFlags.Class, 'class'],
  [ts.SymbolFlags.Enum, 'enum'],
  [ts.SymbolFlags.Variable, 'const'],
];
const TYPE_KINDS: readonly [ts.SymbolFlags, string][] = [
  [ts.SymbolFlags.Interface, 'interface'],
  [ts.SymbolFlags.TypeAlias, 'type'],
];
const isValueDeclaration = (node: ts.Node) =>
  ts.isVariableDeclaration(node) ||
  ts.isFunctionDeclaration(node) ||
  ts.isClassDeclaration(node) ||
  ts.isEnumDeclaration(node);
const isTypeDeclaration = (node: ts.Node) =>
  ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);

/** The modules' objects by the name they are exported under, and the JSON entry points' text. */
interface Known {
  readonly exported: ReadonlyMap<object, string>;
  readonly jsonEntries: ReadonlyMap<string, string>;
}

/** What the report says of one exported value: the JSON of a schema or of data, or its declaration. */
function describeValue(
  kind: string,
  value: unknown,
  declaration: string,
  known: Known,
): ExportEntry {
  if (kind !== 'const') return { kind, declaration };
  if (typeof value === 'function') return { kind: 'function', declaration };
  if (isSchema(value)) return { kind: 'schema', schema: snapshot(value, known.exported, value) };
  const json = canonicalJson(value);
  const same = [...known.jsonEntries].find(([, text]) => text === json)?.[0];
  if (same !== undefined) return { kind, sameAs: same };
  return { kind, value: snapshot(value, known.exported, value) };
}

/** The report of one typed entry point: each export of its `.d.ts`, with the module's values. */
function typedEntry(
  checker: ts.TypeChecker,
  source: ts.SourceFile,
  values: Readonly<Record<string, unknown>>,
  known: Known,
): Record<string, ExportEntry> {
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${source.fileName} is not a module`);
  const entries: Record<string, ExportEntry> = {};
  const byName = (a: ts.Symbol, b: ts.Symbol) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const exportSymbol of checker.getExportsOfModule(moduleSymbol).sort(byName)) {
    const name = exportSymbol.name;
    // Follow re-exports to the declaration, noting an `export type` on the way.
    let symbol = exportSymbol;
    let typeOnly = false;
    while (symbol.flags & ts.SymbolFlags.Alias) {
      typeOnly ||= (symbol.declarations ?? []).some(ts.isTypeOnlyImportOrExportDeclaration);
      symbol = checker.getImmediateAliasedSymbol(symbol) ?? checker.getAliasedSymbol(symbol);
    }
    const declarationOf = (wanted: (node: ts.Node) => boolean) =>
      (symbol.declarations ?? []).filter(wanted).map(printDeclaration).join('; ');
    const parts: ExportEntry[] = [];
    const valueKind = VALUE_KINDS.find(([flag]) => symbol.flags & flag)?.[1];
    if (valueKind && typeOnly) {
      parts.push({
        kind: `${valueKind} (type only)`,
        declaration: declarationOf(isValueDeclaration),
      });
    } else if (valueKind) {
      if (!(name in values))
        throw new Error(`${name} is declared but the module does not export it`);
      parts.push(describeValue(valueKind, values[name], declarationOf(isValueDeclaration), known));
    }
    const typeKind = TYPE_KINDS.find(([flag]) => symbol.flags & flag)?.[1];
    if (typeKind) parts.push({ kind: typeKind, declaration: declarationOf(isTypeDeclaration) });
    if (parts.length === 0)
      throw new Error(`${name}: an export of a kind the report does not know`);
    const declarations = parts.flatMap((part) => part.declaration ?? []);
    entries[name] = {
      ...Object.assign({}, ...parts),
      kind: parts.map((part) => part.kind).join(', '),
      ...(declarations.length > 0 ? { declaration: declarations.join('; ') } : {}),
    };
  }
  return entries;
}

/** Builds the report of the built package in `packageDir` (its `dist` must be current). */
export async function buildApiReport(
  packageDir: string,
  changesets: readonly Changeset[] = [],
): Promise<ApiReport> {
  const dir = resolve(packageDir);
  const manifest = readManifest(dir);
  const targets = entryTargets(manifest);

  const jsonEntries = new Map<string, string>();
  const entryPoints: Record<string, EntryPoint> = {};
  for (const [subpath, target] of targets) {
    if (!target.json) continue;
    const json: unknown = JSON.parse(readFileSync(join(dir, target.json), 'utf8'));
    jsonEntries.set(subpath, canonicalJson(json));
    entryPoints[subpath] = { json: snapshot(json, new Map(), undefined) };
  }

  const typed = [...targets].filter(([, target]) => target.types && target.runtime);
  const modules = new Map<string, Record<string, unknown>>();
  const exported = new Map<object, string>();
  for (const [subpath, target] of typed) {
    const values = (await import(
      pathToFileURL(join(dir, target.runtime as string)).href
    )) as Record<string, unknown>;
    modules.set(subpath, values);
    for (const [name, value] of Object.entries(values)) {
      if (typeof value === 'object' && value !== null && !exported.has(value))
        exported.set(value, name);
    }
  }

  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const program = ts.createProgram(
    typed.map(([, target]) => join(dir, target.types as string)),
    options,
    declarationCache(ts).host(options),
  );
  const checker = program.getTypeChecker();
  for (const [subpath, target] of typed) {
    const source = program.getSourceFile(join(dir, target.types as string));
    if (!source) throw new Error(`${subpath}: cannot read ${target.types}`);
    entryPoints[subpath] = typedEntry(checker, source, modules.get(subpath) ?? {}, {
      exported,
      jsonEntries,
    });
  }

  const sorted = Object.fromEntries(
    Object.keys(entryPoints)
      .sort()
      .map((subpath) => [subpath, entryPoints[subpath] as EntryPoint]),
  );
  return {
    package: manifest.name,
    about:
      `The public surface of ${manifest.name}, written by \`pnpm api-report\` from its build. ` +
      'A test compares it with the build: a change to it needs a changeset naming the package, ' +
      'then `pnpm api-report` to update this file.',
    changesets: changesets.filter((c) => releasesPackage(c, manifest.name)).map((c) => c.id),
    entryPoints: sorted,
  };
}

/** The report as written to `api-report.json`. */
export function formatApiReport(report: ApiReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const isJson = (entry: EntryPoint | undefined): entry is JsonEntryPoint =>
  entry !== undefined && 'json' in entry;

/** What differs between two reports, one line each: `+` added, `-` removed, `~` changed. */
export function diffApiReports(before: ApiReport, after: ApiReport): string[] {
  const lines: string[] = [];
  const at = (subpath: string) => `${after.package}${subpath.slice(1)}`;
  const subpaths = [
    ...new Set([...Object.keys(before.entryPoints), ...Object.keys(after.entryPoints)]),
  ];
  for (const subpath of subpaths.sort()) {
    const old = before.entryPoints[subpath];
    const now = after.entryPoints[subpath];
    if (!old || !now) {
      lines.push(`${old ? '-' : '+'} ${at(subpath)} (entry point)`);
    } else if (isJson(old) || isJson(now)) {
      if (canonicalJson(old) !== canonicalJson(now)) lines.push(`~ ${at(subpath)}`);
    } else {
      const names = [...new Set([...Object.keys(old), ...Object.keys(now)])].sort();
      for (const name of names) {
        const was = old[name];
        const is = now[name];
        if (!was || !is) {
          lines.push(`${was ? '-' : '+'} ${at(subpath)}: ${name} (${(was ?? is)?.kind})`);
        } else if (canonicalJson(was) !== canonicalJson(is)) {
          lines.push(
            `~ ${at(subpath)}: ${name} (${was.kind === is.kind ? is.kind : `${was.kind} -> ${is.kind}`})`,
          );
        }
      }
    }
  }
  return lines;
}

/** How the build compares with the committed report. */
export type ReportCheck =
  | { readonly status: 'current' }
  /** The surface changed and a changeset added since the report was written names the package. */
  | {
      readonly status: 'covered';
      readonly changes: readonly string[];
      readonly changesets: readonly string[];
    }
  /** The surface changed and no such changeset names it (or there is no report yet). */
  | { readonly status: 'uncovered'; readonly changes: readonly string[] };

/** The committed report of the package in `packageDir`, or undefined when there is none. */
export function readApiReport(packageDir: string): ApiReport | undefined {
  try {
    return JSON.parse(readFileSync(join(packageDir, REPORT_FILE), 'utf8')) as ApiReport;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Compares a package's `built` report with its `committed` one. A difference is covered by a
 * pending changeset naming the package that the committed report does not already record: an
 * older changeset cannot excuse a newer change.
 */
export function compareApiReports(
  committed: ApiReport | undefined,
  built: ApiReport,
  changesets: readonly Changeset[],
): ReportCheck {
  if (!committed) return { status: 'uncovered', changes: [`no ${REPORT_FILE} yet`] };
  const changes = diffApiReports(committed, built);
  if (changes.length === 0) return { status: 'current' };
  const fresh = changesets
    .filter((c) => releasesPackage(c, built.package) && !committed.changesets.includes(c.id))
    .map((c) => c.id);
  return fresh.length > 0
    ? { status: 'covered', changes, changesets: fresh }
    : { status: 'uncovered', changes };
}

/** Compares the build of the package in `packageDir` with its committed report. */
export async function checkApiReport(
  packageDir: string,
  changesets: readonly Changeset[],
): Promise<ReportCheck> {
  const built = await buildApiReport(packageDir, changesets);
  return compareApiReports(readApiReport(packageDir), built, changesets);
}

/** What to tell someone whose build differs from the report. */
export function explainReportCheck(name: string, check: ReportCheck): string {
  if (check.status === 'current') return `the public surface of ${name} matches ${REPORT_FILE}`;
  const changes = check.changes.map((line) => `  ${line}`).join('\n');
  const update = `update the report: \`pnpm api-report\` (or \`pnpm --filter ${name} api-report\`)`;
  return check.status === 'covered'
    ? `The public surface of ${name} differs from its ${REPORT_FILE}:\n${changes}\n` +
        `It is covered by the changeset ${check.changesets.join(', ')}; ${update}.`
    : `The public surface of ${name} differs from its ${REPORT_FILE}:\n${changes}\n` +
        `and no changeset added since the report was written names ${name}. If the change is ` +
        `intended, add a changeset (\`pnpm changeset\`, pick ${name}; a breaking change is major) ` +
        `and ${update}. Commit both.`;
}
