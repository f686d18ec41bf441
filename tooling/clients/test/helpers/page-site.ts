import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

// The client's build as a browser loads it: ES modules from the page's own origin, with its
// dependencies (the contract, and TypeBox under it) named by an import map: each package's
// dist/, which its `default` export condition names (the tests themselves import the source).
const resolve = createRequire(import.meta.url).resolve;
const distOf = (name: string) => join(dirname(resolve(`${name}/package.json`)), 'dist');
const IMPORTS = {
  '@animal-store/contract': '/contract/index.js',
  typebox: '/typebox/index.mjs',
  'typebox/compile': '/typebox/compile/index.mjs',
};

/** A page that loads the client as a module and hands it to the test as `window.animalStore`. */
const PAGE = `<!doctype html><title>client</title>
<script type="importmap">${JSON.stringify({ imports: IMPORTS })}</script>
<script type="module">
import * as animalStore from '/client/index.js';
window.animalStore = animalStore;
</script>`;

export interface PageSite {
  /** `http://127.0.0.1:<port>`: the page is at `/`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves the page at `/` and the modules under `/client/`, `/contract/`, `/typebox/`, on
 * 127.0.0.1 and a free port, for test/official-client-browser.test.ts.
 */
export async function startPageSite(): Promise<PageSite> {
  const roots: Record<string, string> = {
    client: distOf('@animal-store/client'),
    contract: distOf('@animal-store/contract'),
    typebox: dirname(
      createRequire(join(distOf('@animal-store/contract'), 'index.js')).resolve('typebox'),
    ),
  };
  const site = createServer(async (req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(PAGE);
    }
    const [, root, path] = /^\/(\w+)\/((?:[\w-]+\/)*[\w.-]+\.m?js)$/.exec(req.url ?? '') ?? [];
    const dir = root === undefined ? undefined : roots[root];
    const text =
      dir && path && !path.includes('..')
        ? await readFile(join(dir, path)).catch(() => null)
        : null;
    if (text === null) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    res.end(text);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => site.close(() => done())),
  };
}
