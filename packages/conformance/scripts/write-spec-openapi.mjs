// Writes the specification as OpenAPI documents beside the package (run by `build`, after tsc):
// spec-openapi.json (3.1) and spec-openapi-3.0.json (3.0.3), from src/spec-openapi.ts.
import { writeFileSync } from 'node:fs';
import { specOpenApiDocument, specOpenApiDocument30 } from '../dist/spec-openapi.js';

const write = (name, document) =>
  writeFileSync(new URL(`../${name}`, import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
write('spec-openapi.json', specOpenApiDocument);
write('spec-openapi-3.0.json', specOpenApiDocument30);
