/**
 * The interactive API reference page: Swagger UI (`swagger-ui-dist`) over the OpenAPI document.
 *
 * Only strings in, a string out: the API serves the page with Swagger UI's files beside it, and
 * the `docs` script writes one self-contained file. Neither this package nor its consumers need
 * `swagger-ui-dist` at run time: whoever renders the page reads its files and passes them in.
 * Exported as `@animal-store/contract/docs-page`, apart from the schemas.
 */

import { openApiDocument } from './openapi.js';

/** The files of `swagger-ui-dist` the page uses. */
export const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const;
export type SwaggerUiFile = (typeof SWAGGER_UI_FILES)[number];

/** File name of the page's own start-up script when it is served beside the page. */
export const DOCS_INIT_FILE = 'docs-init.js';
export type DocsAsset = SwaggerUiFile | typeof DOCS_INIT_FILE;

/** `id` of the element holding the page's Swagger UI options as JSON. */
const OPTIONS_ID = 'docs-options';

/**
 * Starts Swagger UI with the options the page carries as JSON. Never fetches from anywhere but
 * the page's own origin: no validator badge, no top bar, no key kept in storage.
 */
export const DOCS_INIT_SCRIPT = `'use strict';
(() => {
  const options = JSON.parse(document.getElementById('${OPTIONS_ID}').textContent);
  window.ui = SwaggerUIBundle({
    ...options,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    deepLinking: true,
    displayOperationId: true,
    validatorUrl: null,
    persistAuthorization: false,
    displayRequestDuration: true,
  });
})();
`;

export interface DocsPageOptions {
  /** Where the OpenAPI document comes from: a URL the page fetches, or the document itself. */
  spec: { url: string } | { document: unknown };
  /**
   * Swagger UI's files and the start-up script: linked (the caller serves them at the URLs it
   * returns) or inlined from their text (one file that works offline, opened from disk).
   */
  assets: { linked: (asset: DocsAsset) => string } | { inlined: Record<SwaggerUiFile, string> };
  /** The page title; by default the document's title followed by "API reference". */
  title?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON that cannot end the `<script>` element holding it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Renders the reference page's HTML. Its scripts are files or inlined, never inline handlers. */
export function renderDocsPage({
  spec,
  assets,
  title = `${openApiDocument.info.title} API reference`,
}: DocsPageOptions): string {
  const swaggerOptions = 'url' in spec ? { url: spec.url } : { spec: spec.document };
  let stylesheet: string;
  let scripts: string[];
  if ('linked' in assets) {
    stylesheet = `<link rel="stylesheet" href="${escapeHtml(assets.linked('swagger-ui.css'))}">`;
    scripts = [
      `<script src="${escapeHtml(assets.linked('swagger-ui-bundle.js'))}"></script>`,
      `<script src="${escapeHtml(assets.linked(DOCS_INIT_FILE))}"></script>`,
    ];
  } else {
    const css = assets.inlined['swagger-ui.css'].replace(/<\/style/gi, '<\\/style');
    // Base64 in a data: URL: no text in a 1.7 MB minified bundle can end the element early.
    const bundle = Buffer.from(assets.inlined['swagger-ui-bundle.js']).toString('base64');
    stylesheet = `<style>\n${css}\n</style>`;
    scripts = [
      `<script src="data:text/javascript;base64,${bundle}"></script>`,
      `<script>\n${DOCS_INIT_SCRIPT}</script>`,
    ];
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
${stylesheet}
</head>
<body>
<div id="swagger-ui"></div>
<script id="${OPTIONS_ID}" type="application/json">${scriptJson(swaggerOptions)}</script>
${scripts.join('\n')}
</body>
</html>
`;
}
