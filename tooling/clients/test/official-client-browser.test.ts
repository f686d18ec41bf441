import { GET_PET_SUNSET_AT } from '@animal-store/contract';
import { launchChromium, newContext } from '@animal-store/test-support';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The page and the client's build it loads come from the page's own origin, served by
// test/global-setup.ts beside the shared API, whose CORS_ORIGINS names that origin.
const origin = inject('pageOrigin');
const api = inject('api');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 5 * 60_000);

afterAll(async () => {
  await browser?.close();
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
        // From the first pet created here on (the store is shared: helpers/api-process.ts `from`).
        const from = first.pet.id > 1 ? { after: first.pet.id - 1 } : {};
        const names: string[] = [];
        for await (const pet of client.pets.list({ status: 'pending', limit: 2, ...from }))
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
