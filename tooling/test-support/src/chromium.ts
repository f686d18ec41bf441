import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

// Debian's Chromium, installed by .ci/run when missing. Without it a browser test fails: never skips.
const CHROMIUM = '/usr/bin/chromium';

/** Launches Debian's Chromium headless, with nothing that would reach the network on its own. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium) to run the browser tests`,
    );
  }
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
