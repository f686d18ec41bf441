import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { GET_PET_SUNSET_AT } from '@animal-store/contract';
import { launchChromium, newContext } from '@animal-store/test-support';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiProcess } from './helpers/api-process.js';

// The client's build as a browser loads it: ES modules from the page's own origin, with its
// dependencies (the contract, and TypeBox under it) named by an import map: each package's
// dist/, which its `default` export condition names (the tests themselves import the source).
const resolve = createRequire(import.meta.url).resolve;
const distOf = (name: string) => join(dirname(resolve(`${name}/package.json`)), 'dist');
const ROOTS: Record<string, string> = {
  client: distOf('@animal-store/client'),
  contract: distOf('@animal-store/contract'),
  typebox: dirname(
    createRequire(join(distOf('@animal-store/contract'), 'index.js')).resolve('typebox'),
  ),
};
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

/** Serves the page at `/` and the modules under `/client/`, `/contract/`, `/typebox/`, on 127.0.0.1. */
const site = createServer(async (req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    return res.end(PAGE);
  }
  const [, root, path] = /^\/(\w+)\/((?:[\w-]+\/)*[\w.-]+\.m?js)$/.exec(req.url ?? '') ?? [];
  const dir = root === undefined ? undefined : ROOTS[root];
  const text =
    dir && path && !path.includes('..') ? await readFile(join(dir, path)).catch(() => null) : null;
  if (text === null) return res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  res.end(text);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const api = await startApiProcess({ CORS_ORIGINS: origin });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 5 * 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site.close(resolve));
});

describe('@animal-store/client in Chromium, on another origin than the API', () => {
  it('creates, replays, pages, reads the deprecation and throws typed errors', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'animalStore' in window);
    const seen = await page.evaluate(
      async ({ base, apiKey }) => {
        const { AnimalStoreClient, AnimalStoreError } = (
          window as unknown as { animalStore: typeof import('@animal-store/client') }
        ).animalStore;
        const client = new AnimalStoreClient({ baseUrl: base, apiKey });
        const first = await client.pets.create(
          { name: 'Rex', categoryId: 1, status: 'pending' },
          { idempotencyKey: true },
        );
        const again = await client.pets.create(
          { name: 'Rex', categoryId: 1, status: 'pending' },
          { idempotencyKey: first.idempotencyKey },
        );
        await client.pets.create({ name: 'Max', categoryId: 1, status: 'pending' });
        await client.pets.create({ name: 'Ida', categoryId: 1, status: 'pending' });
        const names: string[] = [];
        for await (const pet of client.pets.list({ status: 'pending', limit: 2 }))
          names.push(pet.name);
        const fetched = await client.pets.get(first.pet.id);
        const stranger = new AnimalStoreClient({ baseUrl: base, apiKey: 'wrong' });
        const error = (await stranger.pets.listPage().catch((e: unknown) => e)) as InstanceType<
          typeof AnimalStoreError
        >;
        return {
          replayed: [first.replayed, again.replayed],
          sameId: again.pet.id === first.pet.id,
          names,
          sunsetAt: fetched.sunsetAt?.toISOString(),
          requestId: fetched.requestId,
          error: {
            isClientError: error instanceof AnimalStoreError,
            code: error.code,
            status: error.status,
            requestId: error.requestId,
          },
        };
      },
      { base: api.base, apiKey: api.apiKey },
    );
    expect(seen).toEqual({
      replayed: [false, true],
      sameId: true,
      names: ['Rex', 'Max', 'Ida'],
      sunsetAt: GET_PET_SUNSET_AT.toISOString(),
      requestId: expect.any(String),
      error: {
        isClientError: true,
        code: 'unauthorized',
        status: 401,
        requestId: expect.any(String),
      },
    });
  });
});
