import { join } from 'node:path';
import { judgeTraffic, readHar } from '@animal-store/conformance';
import { GET_PET_SUNSET_AT } from '@animal-store/contract';
import { launchChromium, newContext, TemporaryFolder } from '@animal-store/test-support';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNothingWrong, judgedApi } from './helpers/judged-api.js';

// The page and the client's build it loads come from the page's own origin, served by
// test/global-setup.ts beside the shared API, whose CORS_ORIGINS names that origin.
const origin = inject('pageOrigin');
const judged = judgedApi(inject('api'), 'the official client in Chromium');
const recorded = new TemporaryFolder('clients-browser-har-');
/** What Playwright's `recordHar` writes of the page's session when its context closes. */
const har = () => join(recorded.path, 'session.har');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 5 * 60_000);

afterAll(async () => {
  await browser?.close();
  recorded.remove();
});

/** What the page's traffic exercises of the judge's rules, through the proxy and in its HAR. */
const JUDGED_IN_PAGE = [
  'errors.created-pets-agree',
  'errors.error-schema',
  'getPet.deprecation-headers',
  'listPets.status-filter.pending',
];

describe('@animal-store/client in Chromium, on another origin than the API', () => {
  it('creates, replays, pages, reads the deprecation and throws typed errors', async () => {
    const api = await judged;
    const context = await newContext(browser, { recordHar: { path: har(), content: 'embed' } });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'animalStore' in globalThis);
    const seen = await page.evaluate(
      async ({ base, apiKey }) => {
        const { AnimalStoreClient, AnimalStoreError } = (
          globalThis as unknown as { animalStore: typeof import('@animal-store/client') }
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
    await context.close();
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

  it('sends requests in which the conformance kit finds nothing wrong, through its proxy', async () => {
    await expectNothingWrong((await judged).report(), JUDGED_IN_PAGE);
  });

  it("records a HAR in which the conformance kit's judge finds nothing wrong", async () => {
    const { base } = await judged;
    const { report } = await judgeTraffic(readHar(har()), { base, source: 'a HAR', strict: true });
    await expectNothingWrong(report, JUDGED_IN_PAGE);
  });
});
