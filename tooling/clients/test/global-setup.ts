import type { TestProject } from 'vitest/node';
import { startApi } from './helpers/api-process.js';
import { startPageSite } from './helpers/page-site.js';

/**
 * Vitest globalSetup: one API on the in-memory store for every file of this package (a fresh key,
 * no rate limit), started once and stopped at the end. The browser test's page is served here
 * too, so the API's `CORS_ORIGINS` names that page's origin, as a deployment names its site's.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const site = await startPageSite();
  const api = await startApi({ CORS_ORIGINS: site.origin }).catch(async (error: unknown) => {
    await site.close();
    throw error;
  });
  project.provide('api', { base: api.base, apiKey: api.apiKey });
  project.provide('pageOrigin', site.origin);
  return async () => {
    await api.stop();
    await site.close();
  };
}
