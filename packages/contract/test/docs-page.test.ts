import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCS_INIT_FILE, DOCS_INIT_SCRIPT, renderDocsPage } from '../src/docs-page.js';

/** The Swagger UI options a rendered page carries. */
function optionsOf(html: string): Record<string, unknown> {
  const match = /<script id="docs-options" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match?.[1]) throw new Error('no options in the page');
  return JSON.parse(match[1]);
}

const operationIds = (document: unknown) =>
  Object.values(
    (document as { paths: Record<string, Record<string, { operationId: string }>> }).paths,
  )
    .flatMap((item) => Object.values(item).map((op) => op.operationId))
    .sort();

const inlined = { 'swagger-ui.css': '.swagger-ui{color:red}', 'swagger-ui-bundle.js': 'var a=1;' };

describe('renderDocsPage', () => {
  it('links every asset at the URL the caller serves it from', () => {
    const html = renderDocsPage({
      spec: { url: '/v1/openapi.json' },
      assets: { linked: (asset) => `/v1/docs/${asset}?v=1` },
    });
    expect(html).toContain('<link rel="stylesheet" href="/v1/docs/swagger-ui.css?v=1">');
    expect(html).toContain('<script src="/v1/docs/swagger-ui-bundle.js?v=1"></script>');
    expect(html).toContain(`<script src="/v1/docs/${DOCS_INIT_FILE}?v=1"></script>`);
    expect(optionsOf(html)).toEqual({ url: '/v1/openapi.json' });
  });

  it('runs no inline script when the assets are linked', () => {
    const html = renderDocsPage({ spec: { url: '/o.json' }, assets: { linked: (a) => a } });
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(3);
    expect(scripts.filter((tag) => !/ src=| type="application\/json"/.test(tag))).toEqual([]);
    expect(html).not.toMatch(/\son[a-z]+=/);
  });

  it('inlines the document, the stylesheet, the bundle and the start-up script', () => {
    const document = { openapi: '3.1.0', paths: {} };
    const html = renderDocsPage({ spec: { document }, assets: { inlined } });
    expect(optionsOf(html)).toEqual({ spec: document });
    expect(html).toContain('<style>\n.swagger-ui{color:red}\n</style>');
    expect(html).toContain(`data:text/javascript;base64,${btoa('var a=1;')}`);
    expect(html).toContain(DOCS_INIT_SCRIPT);
  });

  it('keeps markup in the document from ending its script element', () => {
    const document = { info: { description: '</script><script>alert(1)</script>' } };
    const html = renderDocsPage({ spec: { document }, assets: { inlined } });
    expect(html).not.toContain('<script>alert(1)');
    expect(optionsOf(html)).toEqual({ spec: document });
  });

  it('escapes the title', () => {
    const html = renderDocsPage({ spec: { url: 'o' }, assets: { inlined }, title: 'A & <B>' });
    expect(html).toContain('<title>A &#38; &#60;B&#62;</title>');
  });

  it('titles the page after the document by default', () => {
    const html = renderDocsPage({ spec: { url: 'o' }, assets: { inlined } });
    expect(html).toContain('<title>Animal Store API reference</title>');
  });
});

describe('the docs script', { timeout: 5 * 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = new URL('../scripts/write-docs.mjs', import.meta.url);
  const run = (args: string[]) => promisify(execFile)(process.execPath, [script.pathname, ...args]);

  it('writes one self-contained page holding the three operations', async () => {
    const out = join(dir, 'index.html');
    const { stdout } = await run(['--out', out]);
    expect(stdout).toBe(`wrote ${out}\n`);
    const html = readFileSync(out, 'utf8');
    const { spec } = optionsOf(html);
    expect(operationIds(spec)).toEqual(['createPet', 'getPet', 'listPets']);
    expect(html).toContain('data:text/javascript;base64,');
    expect(html).not.toMatch(/<(?:script|link)[^>]+(?:src|href)="https?:/);
  });

  it('points "Try it out" at the server given', async () => {
    const out = join(dir, 'server.html');
    await run(['--out', out, '--server-url', 'https://pets.example/v1']);
    const { spec } = optionsOf(readFileSync(out, 'utf8'));
    expect((spec as { servers: unknown[] }).servers[0]).toEqual({ url: 'https://pets.example/v1' });
  });

  it('takes its options after the `--` most people type (`pnpm docs -- --server-url …`)', async () => {
    const out = join(dir, 'dashes.html');
    await run(['--', '--out', out, '--server-url', 'https://pets.example/v2']);
    const { spec } = optionsOf(readFileSync(out, 'utf8'));
    expect((spec as { servers: unknown[] }).servers[0]).toEqual({ url: 'https://pets.example/v2' });
  });

  it('refuses an unknown option with one line and its usage, exit 2, no stack', async () => {
    const failed = await run(['--bogus']).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    const { stderr } = failed as { stderr: string };
    expect(stderr).toMatch(/^write-docs: Unknown option '--bogus'\n\nUsage:/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
