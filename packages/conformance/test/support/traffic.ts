// Traffic to judge, recorded as implementers record theirs: Playwright's HAR of a Chromium page
// (the API's docs page, or a page whose fetch carries the official client's requests), and the
// official client's scenario itself.
import { randomBytes } from 'node:crypto';
import { AnimalStoreClient, AnimalStoreError } from '@animal-store/client';
import {
  launchChromium,
  newContext,
  type StartedApi,
  startBuiltApi,
  TemporaryFolder,
} from '@animal-store/test-support';
import type { Page } from 'playwright-core';

/** A folder for a test's files, made on first use, removed by `remove`. */
export function scratch(): TemporaryFolder {
  return new TemporaryFolder('conformance-traffic-');
}

/** The built API with a fresh key and no rate limit; the caller stops it. */
export async function startApi(): Promise<StartedApi & { apiKey: string }> {
  const apiKey = `traffic_${randomBytes(16).toString('hex')}`;
  const api = await startBuiltApi({ API_KEYS: apiKey, RATE_LIMIT_REQUESTS: '0' });
  return { ...api, apiKey };
}

/**
 * A `fetch` that sends each request from `page` (same origin as the page), so that the browser's
 * HAR records it: the official client runs in Node, its requests go over Chromium's network.
 */
export function pageFetch(page: Page): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = [...new Headers(init?.headers)];
    const body =
      init?.body === undefined || init.body === null
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : await new Response(init.body).text();
    const answer = await page.evaluate(
      async (request) => {
        const res = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
        });
        return {
          status: res.status,
          statusText: res.statusText,
          headers: [...res.headers],
          body: await res.text(),
        };
      },
      { url, method: init?.method ?? 'GET', headers, body },
    );
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    });
  };
}

/**
 * Records a HAR of what `steps` does in Chromium, the page first opened at `url`; resolves once
 * the HAR file is written.
 */
export async function recordHar(
  file: string,
  url: string,
  steps: (page: Page) => Promise<void>,
): Promise<void> {
  const browser = await launchChromium();
  try {
    const context = await newContext(browser, { recordHar: { path: file, content: 'embed' } });
    const page = await context.newPage();
    await page.goto(url);
    await steps(page);
    await context.close();
  } finally {
    await browser.close();
  }
}

/**
 * The official client's scenario (as tooling/clients runs it against every client): a create and
 * its retry with the same idempotency key, three pending pets listed two a page following the
 * next-page link, the deprecated get with its headers, and a 400, a 401 and a 404.
 */
export async function clientScenario(
  base: string,
  apiKey: string,
  fetch?: typeof globalThis.fetch,
): Promise<{ names: string[]; errors: number[] }> {
  const client = new AnimalStoreClient({ baseUrl: base, apiKey, ...(fetch ? { fetch } : {}) });
  const first = await client.pets.create(
    { name: 'Rex', categoryId: 3, status: 'pending' },
    { idempotencyKey: true },
  );
  await client.pets.create(
    { name: 'Rex', categoryId: 3, status: 'pending' },
    { idempotencyKey: first.idempotencyKey },
  );
  await client.pets.create({ name: 'Max', categoryId: 3, status: 'pending' });
  await client.pets.create({ name: 'Ida', categoryId: 3, status: 'pending' });
  const from = first.pet.id > 1 ? { after: first.pet.id - 1 } : {};
  const names: string[] = [];
  for await (const pet of client.pets.list({ status: 'pending', limit: 2, ...from })) {
    names.push(pet.name);
  }
  await client.pets.listPage({ limit: 1 });
  await client.pets.get(first.pet.id);
  const errors: number[] = [];
  const status = (error: unknown) => (error instanceof AnimalStoreError ? error.status : -1);
  await client.pets
    .create({ categoryId: 3 } as never)
    .catch((error: unknown) => errors.push(status(error)));
  const stranger = new AnimalStoreClient({
    baseUrl: base,
    apiKey: 'not-a-key-of-this-api',
    retry: false,
    ...(fetch ? { fetch } : {}),
  });
  await stranger.pets.listPage().catch((error: unknown) => errors.push(status(error)));
  await client.pets.get(2 ** 40).catch((error: unknown) => errors.push(status(error)));
  return { names, errors };
}
