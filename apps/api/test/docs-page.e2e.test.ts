import { mkdirSync } from 'node:fs';
import { ERROR_CODES, GET_PET_SUNSET_AT } from '@animal-store/contract';
import { launchChromium, newContext } from '@animal-store/test-support';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, TEST_KEY } from './helpers/api.js';

const SCREENSHOT = new URL('../test-results/docs-page.png', import.meta.url);

const api = await startTestApi();
/** Every URL the browser requested, from the page and anything it started. */
const requested: string[] = [];
/** Console errors and uncaught exceptions, CSP violations among them. */
const problems: string[] = [];
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
  context.on('request', (request) => requested.push(request.url()));
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${api.base}/docs`);
}, 5 * 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Expands an operation (once) and returns its block. */
async function open(operationId: string) {
  const block = page.locator(`#operations-pets-${operationId}`);
  if ((await block.locator('.opblock-body').count()) === 0) {
    await block.locator('.opblock-summary-control').click();
  }
  return block;
}

/** "Try it out" on an operation, optionally with a request body, then "Execute". */
async function execute(operationId: string, method: string, body?: string) {
  const block = await open(operationId);
  await block.getByRole('button', { name: 'Try it out' }).click();
  if (body !== undefined) await block.locator('textarea.body-param__text').fill(body);
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.url().startsWith(`${api.base}/pets`) && r.request().method() === method,
    ),
    block.getByRole('button', { name: 'Execute' }).click(),
  ]);
  return { block, response };
}

describe('the API reference page in Chromium', { timeout: 5 * 60_000 }, () => {
  it('lists the three operations', async () => {
    const ids = page.locator('.opblock-summary-operation-id');
    await ids.first().waitFor();
    expect((await ids.allTextContents()).sort()).toEqual(['createPet', 'getPet', 'listPets']);
  });

  it('shows the schemas', async () => {
    const titles = page.locator(
      'section.models article[data-json-schema-level="0"] > div > button .json-schema-2020-12__title',
    );
    await titles.first().waitFor();
    expect((await titles.allTextContents()).sort()).toEqual([
      'ErrorBody',
      'ErrorCode',
      'NewPet',
      'Pet',
      'PetStatus',
    ]);
  });

  it('shows getPet as deprecated with its sunset date', async () => {
    const block = await open('getPet');
    await expect.poll(() => block.getAttribute('class')).toContain('opblock-deprecated');
    await block.getByText('Warning: Deprecated').waitFor();
    await block.getByText(GET_PET_SUNSET_AT.toISOString().slice(0, 10)).first().waitFor();
  });

  it('shows every error code', async () => {
    const description = await page.locator('.info .description').innerText();
    for (const code of ERROR_CODES) expect(description).toContain(code);
  });

  it('takes an API key through Authorize', async () => {
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('#auth-bearer-value').fill(TEST_KEY);
    await page.getByRole('button', { name: 'Apply credentials' }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator('.auth-wrapper button.authorize.locked').count()).toBe(1);
  });

  it('sends createPet from the page and shows the 201', async () => {
    const { block, response } = await execute('createPet', 'POST', '{"name":"Rex","categoryId":1}');
    expect(response.status()).toBe(201);
    expect(response.request().headers().authorization).toBe(`Bearer ${TEST_KEY}`);
    await block.locator('.live-responses-table .response-col_status', { hasText: '201' }).waitFor();
  });

  it('sends listPets from the page and shows the 200', async () => {
    const { block, response } = await execute('listPets', 'GET');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    ]);
    const live = block.locator('.live-responses-table');
    await live.locator('.response-col_status', { hasText: '200' }).waitFor();
    await live.getByText('"Rex"').first().waitFor();
    // The picture: the list, the key in place and the 200, the other operations folded.
    for (const id of ['createPet', 'getPet']) {
      await page.locator(`#operations-pets-${id} .opblock-summary-control`).click();
    }
    await expect.poll(() => page.locator('.opblock.is-open').count()).toBe(1);
    mkdirSync(new URL('.', SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT.pathname, fullPage: true });
  });

  it('requests nothing from any other origin, and breaks no policy', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(`${api.origin}/`))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
