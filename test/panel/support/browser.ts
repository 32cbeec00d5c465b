/**
 * Debian's chromium, driven by playwright-core (no browser download is possible here). The binary
 * is GAFFER_CHROMIUM or /usr/bin/chromium; when neither exists the panel suites skip and say so
 * loudly. Each launch gets a fresh temporary profile (playwright-core makes one per launch).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.GAFFER_CHROMIUM || '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM_PATH);

if (!chromiumAvailable) {
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING the panel browser tests: no chromium at ${CHROMIUM_PATH}.\n` +
      `!! Install Debian's chromium (apt-get install chromium) or set GAFFER_CHROMIUM.\n${'!'.repeat(78)}\n`,
  );
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
