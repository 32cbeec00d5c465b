/**
 * The panel says, on every page, when agents run without their sandbox: a server started with
 * GAFFER_AGENT_SANDBOX=off shows the red banner (screenshotted, axe-clean) on the inbox and on
 * another page alike.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

describe.skipIf(!chromiumAvailable)('the unsandboxed-agents banner', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer({ agentSandbox: 'off' }), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('warns on every page that agents can read the server secrets', async () => {
    await signIn(page, server);
    const banner = page.getByTestId('sandbox-banner');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/agents run unsandboxed and can read the server's auth secret/i);
    await screenshot(page, 'sandbox-off-banner');
    await expectAccessible(page);
    await page.getByRole('link', { name: /^Settings/ }).click();
    await page.getByRole('heading', { name: /^Settings/ }).waitFor();
    expect(await banner.isVisible()).toBe(true);
  });
});
