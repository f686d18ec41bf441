import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';

// Debian's Chromium, installed by .ci/run when missing. Without it a browser test fails: never skips.
const CHROMIUM = '/usr/bin/chromium';

/** Launches Debian's Chromium headless, with nothing that would reach the network on its own. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium) to run the browser tests`,
    );
  }
  // Loaded here, not at the top: the bench and test-db use this package's process helpers and
  // never load a browser driver.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/**
 * How long a page's navigations, waits and actions may take: Playwright's own 30 s is a timing
 * threshold a busy CI machine (two cores, every package's tests at once) can cross.
 */
const PAGE_TIMEOUT_MS = 5 * 60_000;

/** A new browser context whose pages wait as long as a test may, never Playwright's 30 s. */
export async function newContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(PAGE_TIMEOUT_MS);
  return context;
}
