import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, newContext, TemporaryFolder } from '@animal-store/test-support';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from './support/fake-server.js';
import { HOSTILE } from './support/hostile.js';
import { runCli } from './support/run-cli.js';

const temp = new TemporaryFolder('conformance-html-');
let page: string;
let browser: Browser;
let runId: string;

beforeAll(async () => {
  page = join(temp.path, 'report.html');
  // A server whose every Error message holds markup and script, and that fails two checks.
  const server = await startFakeServer({
    faults: ['get-400-for-absent', 'auth-answers-403'],
    choices: ['no-location'],
    errorMessage: HOSTILE,
  });
  try {
    const json = join(temp.path, 'report.json');
    const run = await runCli([
      ...['--base-url', server.baseUrl, '--api-key', server.apiKey],
      ...['--reporter', `html:${page}`, '--reporter', `json:${json}`],
    ]);
    expect(run.exitCode).toBe(1);
    runId = JSON.parse(readFileSync(json, 'utf8')).runId;
  } finally {
    await server.close();
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  temp.remove();
});

describe('the HTML report in Chromium', () => {
  it('loads nothing but itself, runs no script a server sent, and shows the failures', async () => {
    const context = await newContext(browser, { javaScriptEnabled: true });
    const tab = await context.newPage();
    const requested: string[] = [];
    const dialogs: string[] = [];
    const errors: string[] = [];
    tab.on('request', (request) => requested.push(request.url()));
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    tab.on('pageerror', (error) => errors.push(error.message));
    await context.setOffline(true);
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });

    expect(requested).toEqual([pathToFileURL(page).href]);
    expect(await tab.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await tab.locator('main img, main script, main a[href^="javascript"]').count()).toBe(0);

    expect(await tab.title()).toBe('Animal Store conformance: FAIL');
    expect(await tab.locator('.meta').textContent()).toContain(`run ${runId}`);
    const failures = tab.locator('article.fail');
    expect(await failures.count()).toBeGreaterThanOrEqual(2);
    const notFound = tab.locator('article[id="getPet.not-found"]');
    const text = (await notFound.textContent()) ?? '';
    expect(text).toContain('answered 400, expected 404');
    expect(text).toContain(JSON.stringify(HOSTILE).slice(0, 60));
    expect(text).toMatch(/replay: curl -sS -i '[^']+\/v1\/pets\/\d+'/);
    // Failures come first.
    expect(await tab.locator('main article').first().getAttribute('data-outcome')).toBe('fail');
    await context.close();
  });

  it('filters by outcome and by group', async () => {
    const context = await newContext(browser);
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(page).href);
    const visible = (selector: string) => tab.locator(`${selector}:visible`).count();
    const all = await tab.locator('main article').count();
    expect(await visible('main article')).toBe(all);
    expect(await tab.locator('#shown').textContent()).toBe(String(all));

    for (const outcome of ['pass', 'skip', 'advisory']) {
      await tab.locator(`input[name=outcome][value=${outcome}]`).uncheck();
    }
    const failed = await tab.locator('main article.fail').count();
    expect(await visible('main article')).toBe(failed);
    expect(await visible('main article.fail')).toBe(failed);
    expect(await tab.locator('#shown').textContent()).toBe(String(failed));

    await tab.locator('#group').selectOption('getPet');
    expect(await visible('main article')).toBe(
      await tab.locator('main article.fail[data-group=getPet]').count(),
    );
    expect(await visible('main article[id="getPet.not-found"]')).toBe(1);
    expect(await visible('main article[data-group=auth]')).toBe(0);

    await tab.locator('input[name=outcome][value=pass]').check();
    await tab.locator('#group').selectOption('');
    expect(await visible('main article.pass')).toBe(await tab.locator('main article.pass').count());
    expect(await visible('main article.advisory')).toBe(0);
    await context.close();
  });
});
