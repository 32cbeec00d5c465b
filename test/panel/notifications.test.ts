/**
 * Notifications in a real browser: one sent to the CEO raises the header bell's unread count live
 * (the CEO's /ws/notifications socket), the bell's popover lists it, the page filters it as needing
 * an acknowledgement, and Acknowledge clears it (and marks it read) without a reload. Axe on the page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

describe.skipIf(!chromiumAvailable)('notifications', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('raises the bell live and clears it on acknowledge', async () => {
    await page.goto(`${server.base}/notifications`);
    await page.getByText('No notifications yet.').waitFor();
    expect(await page.getByTestId('bell-count').count()).toBe(0);

    const sent = await server.api('POST', '/api/notifications', {
      type: 'approval',
      priority: 'high',
      recipients: ['ceo'],
      subject: 'Approve the database migration window',
      body: 'Saturday 02:00–04:00 UTC; the shop is read-only meanwhile.',
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    const id = sent.json.id as string;

    // Live: the bell and the open page update without a reload.
    await page.getByTestId('bell-count').getByText('1', { exact: true }).waitFor();
    const row = page.getByTestId(`notification-${id}`);
    await row.waitFor();
    expect(await row.innerText()).toContain('Approve the database migration window');

    await page.getByTestId('bell').click();
    const popover = page.getByRole('dialog', { name: 'Latest notifications' });
    await popover.getByText('Approve the database migration window').waitFor();
    await screenshot(page, 'notifications-bell');
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /^Needs ack/ }).click();
    await page.waitForURL(/show=ack/);
    await page.getByRole('button', { name: 'Needs ack (1)' }).waitFor();
    await screenshot(page, 'notifications-needs-ack');
    await expectAccessible(page);

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByText('Nothing waits for your acknowledgement.').waitFor();
    await page.getByTestId('bell-count').waitFor({ state: 'detached' });
    // The dark theme stays readable with the list and the popover.
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await page.getByRole('button', { name: 'All' }).click();
    await page.getByTestId(`notification-${id}`).waitFor();
    await page.getByTestId('bell').click();
    await screenshot(page, 'notifications-dark');
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    const after = await server.api('GET', `/api/notifications/${id}`);
    expect(after.json.acked_at).toEqual(expect.any(String));
    expect(after.json.read_at).toEqual(expect.any(String));
  }, 120_000);
});
