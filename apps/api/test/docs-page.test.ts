import { type IncomingHttpHeaders, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DOCS_CONTENT_SECURITY_POLICY } from '../src/routes/docs-page.js';
import { errorBody, startTestApi } from './helpers/api.js';

const api = await startTestApi();

/** A GET through node:http, which (unlike fetch) adds no headers and hands over the body as sent. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status?: number; headers: IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}
const page = () => fetch(`${api.base}/docs`);
/** The same-origin URLs the page loads its scripts and stylesheet from. */
const linked = async () =>
  [...(await (await page()).text()).matchAll(/(?:src|href)="(\/v1\/[^"]+)"/g)].map((m) => m[1]);

describe('GET /v1/docs', () => {
  it('serves the reference page as HTML without an API key', async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Animal Store API reference</title>');
    expect(html).toContain('"servers":[{"url":"/v1"},');
  });

  it('restricts the page to its own origin with a Content-Security-Policy', async () => {
    const res = await page();
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(DOCS_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self';/);
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('has the browser revalidate the page on every visit', async () => {
    const res = await page();
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag') ?? '';
    const again = await rawGet(`${api.base}/docs`, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('links Swagger UI and its start-up script, all served from here', async () => {
    expect((await linked()).map((url) => url?.replace(/\?v=.*/, ''))).toEqual([
      '/v1/docs/swagger-ui.css',
      '/v1/docs/swagger-ui-bundle.js',
      '/v1/docs/docs-init.js',
    ]);
  });

  it.each([
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['docs-init.js', 'text/javascript; charset=utf-8'],
  ])('serves %s as %s, cached for good under its versioned URL', async (name, type) => {
    const url = (await linked()).find((u) => u?.startsWith(`/v1/docs/${name}?v=`));
    const res = await fetch(`${api.origin}${url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('compresses the bundle for clients that accept gzip', async () => {
    const url = `${api.base}/docs/swagger-ui-bundle.js`;
    const plain = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const raw = Buffer.from(await plain.arrayBuffer());
    const zipped = await rawGet(url, { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(raw.length / 2);
    expect(gunzipSync(zipped.body).equals(raw)).toBe(true);
  });

  it('answers 404 with an Error body for a file it does not serve', async () => {
    const res = await fetch(`${api.base}/docs/index.html`);
    expect(res.status).toBe(404);
    expect((await errorBody(res)).code).toBe('not_found');
  });

  it('answers 405 to anything but GET and HEAD', async () => {
    const res = await fetch(`${api.base}/docs`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('HEAD, GET');
  });
});
