/**
 * Declaration files parsed once per process: the TypeScript programs one process builds (the
 * reports of several packages, or of several states of one) read the same `.d.ts` files
 * (TypeScript's libraries, TypeBox, `@types/node`), so each is parsed once and handed to every
 * later program while its text stays the same, as `tsc --build` does across projects and the
 * language service across programs.
 */
import type ts from 'typescript';

type TypeScript = typeof ts;

const DECLARATION = /\.d\.[cm]?ts$/;

export interface DeclarationCache {
  /** A compiler host for `options` that reads `.d.ts` files from the cache. */
  host(options: ts.CompilerOptions): ts.CompilerHost;
}

const caches = new WeakMap<TypeScript, DeclarationCache>();

/** The cache of the TypeScript module `typescript` (one per module: its parsed files are its own). */
export function declarationCache(typescript: TypeScript): DeclarationCache {
  const known = caches.get(typescript);
  if (known) return known;
  /** By file name and what its parsing depends on (target, module format, JSDoc mode). */
  const parsed = new Map<string, ts.SourceFile>();
  const cache: DeclarationCache = {
    host(options) {
      const host = typescript.createCompilerHost(options);
      const getSourceFile = host.getSourceFile.bind(host);
      host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNew) => {
        if (!DECLARATION.test(fileName) || shouldCreateNew) {
          return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNew);
        }
        const { languageVersion, impliedNodeFormat, jsDocParsingMode } =
          typeof languageVersionOrOptions === 'object'
            ? languageVersionOrOptions
            : { languageVersion: languageVersionOrOptions };
        const key = [fileName, languageVersion, impliedNodeFormat, jsDocParsingMode].join('\0');
        const cached = parsed.get(key);
        if (cached && cached.text === host.readFile(fileName)) return cached;
        const file = getSourceFile(fileName, languageVersionOrOptions, onError);
        if (file) parsed.set(key, file);
        return file;
      };
      return host;
    },
  };
  caches.set(typescript, cache);
  return cache;
}
