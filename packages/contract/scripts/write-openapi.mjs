// Writes the generated OpenAPI documents (3.1, and its 3.0 rendering) next to package.json so
// they ship in the tarball.
import { writeFileSync } from 'node:fs';
import { openApiDocument, openApiDocument30 } from '../dist/index.js';

for (const [file, document] of [
  ['openapi.json', openApiDocument],
  ['openapi-3.0.json', openApiDocument30],
]) {
  writeFileSync(new URL(`../${file}`, import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
}
