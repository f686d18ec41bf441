// `judge --har`: traffic recorded with Playwright from the project's API (its docs page trying the
// three operations, and the official client's scenario) is judged with no violation, the report
// names the checks it exercised, and the key the traffic carried appears nowhere in it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import { clientScenario, pageFetch, recordHar, scratch, startApi } from './support/traffic.js';

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api;
const files = scratch();

beforeAll(async () => {
  api = await startApi();
}, 5 * 60_000);

afterAll(async () => {
  await api?.stop();
  files.remove();
});

interface JsonReport {
  verdict: string;
  results: { id: string; outcome: string; message: string }[];
  traffic: {
    judged: number;
    otherPaths: number;
    otherHosts: number;
    exercised: string[];
    notExercised: string[];
  };
}

async function judge(har: string, ...more: string[]) {
  const run = await runCli(['judge', '--har', har, '--reporter', 'json', ...more]);
  return { ...run, report: JSON.parse(run.stdout || '{}') as JsonReport };
}

/** Expands an operation of the docs page, "Try it out", fills what is given, "Execute". */
async function tryOut(page: Page, operationId: string, fill: Record<string, string> = {}) {
  const block = page.locator(`#operations-pets-${operationId}`);
  if ((await block.locator('.opblock-body').count()) === 0) {
    await block.locator('.opblock-summary-control').click();
  }
  await block.getByRole('button', { name: 'Try it out' }).click();
  for (const [selector, value] of Object.entries(fill)) await block.locator(selector).fill(value);
  await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname.includes('/pets')),
    block.getByRole('button', { name: 'Execute' }).click(),
  ]);
}

describe('judge --har on traffic recorded with Playwright from the API', () => {
  it('judges the docs page trying the three operations with no violation', async () => {
    const har = join(files.path, 'docs-page.har');
    await recordHar(har, `${api.base}/docs`, async (page) => {
      await page.locator('.auth-wrapper button.authorize').click();
      await page.locator('#auth-bearer-value').fill(api.apiKey);
      await page.getByRole('button', { name: 'Apply credentials' }).click();
      await page.getByRole('button', { name: 'Close' }).click();
      await tryOut(page, 'createPet', {
        'textarea.body-param__text': '{"name":"Rex","categoryId":1}',
      });
      await tryOut(page, 'listPets');
      await tryOut(page, 'getPet', { 'tr[data-param-name="petId"] input': '1' });
    });
    expect(readFileSync(har, 'utf8')).toContain(api.apiKey);

    const { exitCode, stdout, stderr, report } = await judge(har);
    expect(report.results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip')).toEqual([]);
    expect(exitCode, stderr).toBe(0);
    expect(report.verdict).toBe('pass');
    expect(report.traffic.judged).toBeGreaterThanOrEqual(3);
    // The page itself, its scripts and the OpenAPI document: other paths, left alone.
    expect(report.traffic.otherPaths).toBeGreaterThan(0);
    expect(report.traffic.exercised).toEqual(
      expect.arrayContaining([
        'errors.created-pets-agree',
        'errors.pet-fields',
        'errors.success-status',
        'listPets.at-most-limit',
        'getPet.sunset-day',
        'getPet.deprecation-headers',
        'getPet.deprecation-only-on-get-pet',
      ]),
    );
    expect(stdout).not.toContain(api.apiKey);
  });

  it("judges the official client's scenario with no violation, and lists what it exercised", async () => {
    const har = join(files.path, 'client.har');
    let seen: Awaited<ReturnType<typeof clientScenario>> | undefined;
    // The page opens a list without a key (a 401), then carries the client's requests.
    await recordHar(har, `${api.base}/pets?limit=1`, async (page) => {
      seen = await clientScenario(api.base, api.apiKey, pageFetch(page));
    });
    expect(seen).toEqual({ names: ['Rex', 'Max', 'Ida'], errors: [400, 401, 404] });
    expect(readFileSync(har, 'utf8')).toContain(api.apiKey);

    const { exitCode, stdout, stderr, report } = await judge(har);
    expect(report.results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip')).toEqual([]);
    expect(exitCode, stderr).toBe(0);
    expect(report.traffic.exercised).toEqual(
      expect.arrayContaining([
        'errors.same-pet',
        'errors.created-pets-agree',
        'errors.error-schema',
        'errors.status-matches',
        'listPets.at-most-limit',
        'listPets.status-filter.pending',
        'auth.listPets.missing-header',
        'getPet.sunset-day',
        'getPet.sunset-after-deprecation',
      ]),
    );
    expect(report.traffic.notExercised).toEqual(
      expect.arrayContaining(['listPets.status-filter.sold', 'auth.createPet.missing-header']),
    );
    expect(stdout).not.toContain(api.apiKey);

    // The pretty report says which checks the traffic exercised and which it did not.
    const pretty = await runCli(['judge', '--har', har]);
    expect(pretty.exitCode).toBe(0);
    expect(pretty.stdout).toMatch(/Exercised \(\d+\): .*errors\.same-pet/);
    expect(pretty.stdout).toMatch(/Not exercised \(\d+\): .*listPets\.status-filter\.sold/);
    expect(pretty.stdout).not.toContain(api.apiKey);
  });
});
