// Writes the generated OpenAPI document next to package.json so it ships in the tarball.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/index.js';

writeFileSync(
  new URL('../openapi.json', import.meta.url),
  `${JSON.stringify(openApiDocument, null, 2)}\n`,
);
