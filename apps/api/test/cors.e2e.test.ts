import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium, newContext } from '@animal-store/test-support';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_KEY } from './helpers/api.js';
import { readPage } from './helpers/store.js';

/** A local web server whose only page is an empty HTML document: the origin a test runs on. */
async function servePage(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>page</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const listed = await servePage();
const unlisted = await servePage();
const api = await startTestApi({
  corsOrigins: [listed.origin],
  rateLimit: { requests: 100, windowSeconds: 60 },
});
let browser: Browser;

async function pageOn(origin: string): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  await page.goto(`${origin}/`);
  return page;
}

beforeAll(async () => {
  browser = await launchChromium();
}, 5 * 60_000);

afterAll(async () => {
  await browser?.close();
  listed.server.close();
  unlisted.server.close();
});

describe('a page on another origin, in Chromium', { timeout: 5 * 60_000 }, () => {
  it('creates a pet with fetch and reads the answer’s headers', async () => {
    const page = await pageOn(listed.origin);
    const seen = await page.evaluate(
      async ({ base, key }) => {
        const send = () =>
          fetch(`${base}/pets`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${key}`,
              'Content-Type': 'application/json',
              'Idempotency-Key': 'browser-1',
            },
            body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
          });
        const first = await send();
        const again = await send();
        return {
          status: first.status,
          body: (await first.json()) as { id: number },
          location: first.headers.get('Location'),
          requestId: first.headers.get('X-Request-Id'),
          rateLimit: first.headers.get('RateLimit'),
          replayed: again.headers.get('Idempotency-Replayed'),
        };
      },
      { base: api.base, key: TEST_KEY },
    );
    expect(seen.status).toBe(201);
    expect(seen.body).toMatchObject({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(seen.location).toBe(`/v1/pets/${seen.body.id}`);
    expect(seen.requestId).toBeTruthy();
    expect(seen.rateLimit).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(seen.replayed).toBe('true');
  });

  it('lists pets with fetch and reads a 401’s Error body', async () => {
    const page = await pageOn(listed.origin);
    const seen = await page.evaluate(
      async ({ base, key }) => {
        const list = await fetch(`${base}/pets?limit=10`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        const refused = await fetch(`${base}/pets`);
        return {
          status: list.status,
          names: ((await list.json()) as { name: string }[]).map((pet) => pet.name),
          refused: { status: refused.status, body: (await refused.json()) as { code: string } },
        };
      },
      { base: api.base, key: TEST_KEY },
    );
    expect(seen.status).toBe(200);
    expect(seen.names).toEqual(['Rex']);
    expect(seen.refused.status).toBe(401);
    expect(seen.refused.body.code).toBe('unauthorized');
  });

  it('is refused from an origin not listed, and its create never reaches the store', async () => {
    const before = (await readPage(api.store, { limit: 100 })).pets.length;
    const page = await pageOn(unlisted.origin);
    const outcomes = await page.evaluate(
      async ({ base, key }) => {
        const attempt = async (init: RequestInit) => {
          try {
            const answer = await fetch(`${base}/pets`, init);
            return `read ${answer.status}`;
          } catch (error) {
            return `refused: ${(error as Error).name}`;
          }
        };
        return [
          await attempt({ headers: { Authorization: `Bearer ${key}` } }),
          await attempt({}),
          await attempt({
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: 'Intruder', categoryId: 1 }),
          }),
        ];
      },
      { base: api.base, key: TEST_KEY },
    );
    expect(outcomes).toEqual(['refused: TypeError', 'refused: TypeError', 'refused: TypeError']);
    expect((await readPage(api.store, { limit: 100 })).pets.length).toBe(before);
  });
});
