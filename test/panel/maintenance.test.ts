/**
 * The maintenance pause in a real browser: pause `dispatch` in drain mode from the header control
 * → the banner names the scope, mode, setter and reason with a countdown that ticks; a second open
 * page sees it appear live (no reload), Resume clears it on both; kill mode asks first; and the same
 * from a phone, the dialog a full-height sheet.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { expectActionsInReach, expectFitsScreen, PHONE } from './support/responsive.js';
import { type PanelServer, startPanelServer } from './support/server.js';

interface PauseRow {
  scope: string;
  paused: boolean;
  mode: string | null;
  paused_by: string | null;
  reason: string | null;
  expires_at: string | null;
}

describe.skipIf(!chromiumAvailable)('the maintenance pause in the panel', () => {
  let server: PanelServer;
  let browser: Browser;
  let context: BrowserContext;
  let first: Page;
  let second: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    first = await context.newPage();
    await signIn(first, server);
    second = await context.newPage();
    await second.goto(`${server.base}/settings`);
    await second.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
    await first.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pauses = async () =>
    ((await server.api('GET', '/api/maintenance-pause')).json as { scopes: PauseRow[] }).scopes;

  it('pauses dispatch in drain mode: banner with scope, setter, reason and a ticking countdown', async () => {
    await first.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = first.getByRole('dialog', { name: 'Pause work' });
    await dialog.waitFor();
    expect(await dialog.getByRole('combobox').inputValue()).toBe('4');
    expect(await dialog.getByRole('radio', { name: /Drain/ }).isChecked()).toBe(true);
    await screenshot(first, 'pause-dialog');
    await expectAccessible(first);

    await dialog.getByRole('checkbox', { name: /Delivery dispatch/ }).check();
    await dialog.getByLabel('Reason (shown in the banner)').fill('migrating the database');
    await dialog.getByRole('button', { name: 'Pause 1 scope' }).click();
    await dialog.waitFor({ state: 'detached' });

    const banner = first.getByTestId('pause-banner-dispatch');
    await banner.waitFor();
    const text = await banner.innerText();
    expect(text).toContain('Delivery dispatch');
    expect(text).toContain('(dispatch)');
    expect(text).toContain('drain mode');
    expect(text).toContain('by ceo');
    expect(text).toContain('“migrating the database”');
    expect(text).toMatch(/resumes in (3h 59m|4h 00m) \d\ds/);

    const stored = (await pauses()).find((row) => row.scope === 'dispatch')!;
    expect(stored).toMatchObject({ paused: true, mode: 'drain', reason: 'migrating the database' });
    const hoursLeft = (new Date(stored.expires_at!).getTime() - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(3.9);
    expect(hoursLeft).toBeLessThanOrEqual(4);

    // The countdown ticks: its text changes without anything else happening.
    const countdown = banner.getByTestId('pause-countdown');
    const shown = await countdown.innerText();
    await banner.getByTestId('pause-countdown').filter({ hasNotText: shown }).waitFor();
    // The header control says how many scopes are paused.
    await first.getByRole('button', { name: 'Pause (1 scope paused)' }).waitFor();
    await screenshot(first, 'pause-banner');
    await expectAccessible(first);
  });

  it('shows the pause on a second open page live, without a reload', async () => {
    const banner = second.getByTestId('pause-banner-dispatch');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('migrating the database');
    expect(await second.getByRole('heading', { name: 'Settings' }).isVisible()).toBe(true);
  });

  it('Resume clears the banner here and on the other page', async () => {
    await first
      .getByTestId('pause-banner-dispatch')
      .getByRole('button', { name: /^Resume/ })
      .click();
    await first.getByTestId('pause-banner-dispatch').waitFor({ state: 'detached' });
    await second.getByTestId('pause-banner-dispatch').waitFor({ state: 'detached' });
    expect((await pauses()).find((row) => row.scope === 'dispatch')).toMatchObject({ paused: false });
    await first.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  });

  it('a pause set elsewhere (the API) appears live too', async () => {
    const set = await server.api('POST', '/api/maintenance-pause/engines', {
      mode: 'drain',
      reason: 'from curl',
    });
    expect(set.status).toBe(200);
    await first.getByTestId('pause-banner-engines').waitFor();
    await second.getByTestId('pause-banner-engines').waitFor();
    await server.api('DELETE', '/api/maintenance-pause/engines');
    await first.getByTestId('pause-banner-engines').waitFor({ state: 'detached' });
  });

  it('pauses and resumes from a phone: the dialog a full sheet, the banner on the screen', async () => {
    const phone = await (
      await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
    ).newPage();
    await signIn(phone, server);
    await phone.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = phone.getByRole('dialog', { name: 'Pause work' });
    await dialog.waitFor();
    const sheet = await dialog.boundingBox();
    expect(sheet).toMatchObject({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    await dialog.getByRole('checkbox', { name: /Delivery dispatch/ }).check();
    await expectActionsInReach(phone, 'the pause dialog on a phone');
    await screenshot(phone, 'phone-pause-dialog');
    await dialog.getByRole('button', { name: 'Pause 1 scope' }).click();
    await dialog.waitFor({ state: 'detached' });
    const banner = phone.getByTestId('pause-banner-dispatch');
    await banner.waitFor();
    await expectFitsScreen(phone, 'the pause banner on a phone');
    await screenshot(phone, 'phone-pause-banner');
    await expectAccessible(phone);
    await banner.getByRole('button', { name: /^Resume/ }).click();
    await banner.waitFor({ state: 'detached' });
    expect((await pauses()).find((row) => row.scope === 'dispatch')).toMatchObject({ paused: false });
    await phone.context().close();
  });

  it('kill mode asks for confirmation before pausing', async () => {
    await first.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = first.getByRole('dialog', { name: 'Pause work' });
    await dialog.getByRole('checkbox', { name: /Board programs/ }).check();
    await dialog.getByRole('radio', { name: /Kill/ }).check();
    await dialog.getByRole('button', { name: 'Pause and kill 1 scope' }).click();
    await dialog.getByText('Kill interrupts work in progress').waitFor();
    expect((await pauses()).find((row) => row.scope === 'board_programs')).toMatchObject({ paused: false });
    await screenshot(first, 'pause-kill-confirm');

    await dialog.getByRole('button', { name: 'Yes, pause and kill 1 scope' }).click();
    await first.getByTestId('pause-banner-board_programs').waitFor();
    expect(await first.getByTestId('pause-banner-board_programs').innerText()).toContain('kill mode');
    expect((await pauses()).find((row) => row.scope === 'board_programs')).toMatchObject({
      paused: true,
      mode: 'kill',
    });
    await first
      .getByTestId('pause-banner-board_programs')
      .getByRole('button', { name: /^Resume/ })
      .click();
    await first.getByTestId('pause-banner-board_programs').waitFor({ state: 'detached' });
  });

  it('says so in the dialog when nothing is chosen', async () => {
    await first.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = first.getByRole('dialog', { name: 'Pause work' });
    await dialog.getByRole('button', { name: 'Pause', exact: true }).click();
    await dialog.getByText('Choose at least one scope to pause.').waitFor();
    await first.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('with the socket blocked, says Polling and still shows a pause (by polling)', async () => {
    const blocked = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    // Every WebSocket to the server is refused at once, as when a proxy drops them.
    await blocked.routeWebSocket(/\/ws\//, (ws) => ws.close());
    // The page's clock runs as usual, and is moved on to the next poll instead of waiting for it.
    await blocked.clock.install();
    const page = await blocked.newPage();
    await signIn(page, server);
    await page.locator('[data-testid="connection-state"][data-state="polling"]').waitFor();
    expect(await page.getByTestId('connection-state').innerText()).toBe('Polling');

    await server.api('POST', '/api/maintenance-pause/dispatch', { mode: 'drain', reason: 'seen by polling' });
    await page.clock.fastForward(30_000); // the pauses' poll interval while the socket is down
    await page.getByTestId('pause-banner-dispatch').waitFor();
    await screenshot(page, 'pause-banner-polling');
    await server.api('DELETE', '/api/maintenance-pause/dispatch');
    await blocked.close();
  });
});
