// Writes the API reference page as one self-contained HTML file: the OpenAPI document and
// Swagger UI inlined, so it can be published next to the packages and opened offline.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderDocsPage, SWAGGER_UI_FILES } from '../dist/docs-page.js';
import { buildOpenApiDocument } from '../dist/index.js';

const HELP = `Usage: node scripts/write-docs.mjs [--out FILE] [--server-url URL]

  --out FILE         where to write the page (default: docs/index.html in this package)
  --server-url URL   base URL "Try it out" sends requests to (default: /v1 on the page's host)
  --help             print this help
`;

let values;
try {
  // `pnpm docs -- --server-url …` hands the script a `--` first: it separates nothing here.
  ({ values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      out: { type: 'string' },
      'server-url': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  process.stderr.write(`write-docs: ${error.message}\n\n${HELP}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(values.out ?? join(packageDir, 'docs', 'index.html'));
const swaggerUiDir = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);
const inlined = Object.fromEntries(
  SWAGGER_UI_FILES.map((file) => [file, readFileSync(join(swaggerUiDir, file), 'utf8')]),
);
const document = buildOpenApiDocument({ serverUrl: values['server-url'] });

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, renderDocsPage({ spec: { document }, assets: { inlined } }));
process.stdout.write(`wrote ${out}\n`);
