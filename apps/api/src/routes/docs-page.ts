import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { API_PREFIX, buildOpenApiDocument } from '@animal-store/contract';
import {
  DOCS_INIT_FILE,
  DOCS_INIT_SCRIPT,
  type DocsAsset,
  renderDocsPage,
  SWAGGER_UI_FILES,
} from '@animal-store/contract/docs-page';
import Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { answer } from '../http/answer.js';
import type { AppState } from '../http/app-state.js';
import { EXACT_ROUTES } from './exact-routes.js';

/**
 * Everything the page loads comes from this server; Swagger UI sets styles through the DOM
 * (which CSP allows) and its stylesheet draws icons from `data:` URLs.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** A response prepared once: both encodings, its type, its validators. */
interface StaticFile {
  type: string;
  cacheControl: string;
  identity: Buffer;
  gzip: Buffer;
  /** Short content hash: the ETag, and the version in the URLs that link the file. */
  hash: string;
}

function staticFile(name: string, body: string | Buffer, cacheControl: string): StaticFile {
  const identity = Buffer.from(body);
  const type = CONTENT_TYPES[extname(name)];
  if (!type) throw new Error(`no content type for ${name}`);
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 16);
  return { type, cacheControl, identity, gzip: gzipSync(identity), hash };
}

function send(ctx: ParameterizedContext<AppState>, file: StaticFile): void {
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  ctx.set('Cache-Control', file.cacheControl);
  ctx.set('Vary', 'Accept-Encoding');
  ctx.etag = gzip ? `${file.hash}-gzip` : file.hash;
  answer(ctx, 200, gzip ? file.gzip : file.identity, file.type);
  // Koa judges freshness on the answer's status and validators: a match is a 304, bodiless.
  if (ctx.fresh) answer(ctx, 304);
  else if (gzip) ctx.set('Content-Encoding', 'gzip');
}

interface DocsFiles {
  page: StaticFile;
  assets: Map<DocsAsset, StaticFile>;
}

let loaded: DocsFiles | undefined;

/** Reads Swagger UI's files from its package and renders the page, once per process. */
function docsFiles(): DocsFiles {
  if (loaded) return loaded;
  const swaggerUiDir = dirname(
    createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
  );
  // Linked with their content hash, so a new Swagger UI is never mixed with a cached old one.
  const immutable = 'public, max-age=31536000, immutable';
  const assets = new Map<DocsAsset, StaticFile>([
    ...SWAGGER_UI_FILES.map(
      (name) =>
        [name, staticFile(name, readFileSync(join(swaggerUiDir, name)), immutable)] as const,
    ),
    [DOCS_INIT_FILE, staticFile(DOCS_INIT_FILE, DOCS_INIT_SCRIPT, immutable)],
  ]);
  const html = renderDocsPage({
    // The document with this server first, where "Try it out" sends requests; the one at
    // /openapi.json starts with the spec's environments, for generators.
    spec: { document: buildOpenApiDocument({ serverUrl: API_PREFIX }) },
    assets: {
      linked: (name) => `${API_PREFIX}/docs/${name}?v=${assets.get(name)?.hash ?? ''}`,
    },
  });
  loaded = { page: staticFile('index.html', html, 'no-cache'), assets };
  return loaded;
}

/**
 * The interactive API reference (Swagger UI) at `/docs` under `/v1`, with its assets beside it.
 * Public like the OpenAPI document: trying an operation from the page needs a key.
 */
export function docsPageRoutes(): Router<AppState> {
  const { page, assets } = docsFiles();
  const router = new Router<AppState>(EXACT_ROUTES);
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    send(ctx, page);
  });
  for (const [name, file] of assets) router.get(`/docs/${name}`, (ctx) => send(ctx, file));
  return router;
}
