/**
 * The usage dashboard and the rate-limit banner in a real browser. Usage arrives the way agents
 * report it (the gateway's report_usage over HTTP) and the page updates live from USAGE_SNAPSHOT;
 * a parked provider shows the amber banner (role="alert") on every open page and it clears when the
 * probe lifts it; with the socket blocked both still update, by polling, under a "Polling" badge.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_PROBE_LOOP } from '../../src/modules/system/index.js';
import { identityHeaders } from '../support/app.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

interface Member {
  id: string;
  slug: string;
  role: string;
  team: string | null;
}

describe.skipIf(!chromiumAvailable)('usage and rate limits in the panel', () => {
  let server: PanelServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let roster: Member[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    await signIn(page, server);
    roster = (await server.api('GET', '/api/agents')).json.agents as Member[];
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** An agent reports its own model usage through the gateway, as a CLI without usage lines would. */
  async function reportUsage(slug: string, model: string, input: number, output: number, cost: number) {
    const agent = roster.find((m) => m.slug === slug)!;
    const headers = identityHeaders(server.platform.secret)(agent.id, agent.role, agent.team ?? '');
    const response = await fetch(`${server.base}/api/v1/do`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        tool: 'report_usage',
        model,
        provider: 'anthropic',
        input_tokens: input,
        output_tokens: output,
        cost_usd: cost,
      }),
    });
    const body = (await response.json()) as { ok: boolean };
    expect(body.ok, JSON.stringify(body)).toBe(true);
  }

  const rateLimits = () => server.gaffer.modules.system.rateLimits;

  it('an empty company: zero cost, an explanation, and no cap set', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    await page.getByTestId('usage-empty').waitFor();
    expect(await page.getByTestId('usage-cost').innerText()).toBe('$0');
    expect(await page.getByTestId('usage-breakdown').count()).toBe(0);
    expect(await page.getByTestId('usage-projection').innerText()).toContain('No cap');
    await page.getByTestId('usage-chart').locator('canvas').first().waitFor();
    await screenshot(page, 'usage-empty');
    await expectAccessible(page);
  });

  it('updates live as agents report usage: totals, chart, who spent it', async () => {
    await reportUsage('be-dev-1', 'claude-sonnet-4', 120_000, 8_000, 1.25);
    await reportUsage('fe-dev-1', 'claude-haiku-4', 40_000, 2_000, 0.2);
    await reportUsage('be-dev-1', 'claude-sonnet-4', 30_000, 1_000, 0.5);

    // No reload: the USAGE_SNAPSHOT frames make the page refetch.
    await page.getByTestId('usage-cost').filter({ hasText: '$1.95' }).waitFor();
    await page.getByTestId('usage-empty').waitFor({ state: 'detached' });
    const summary = await page.getByTestId('usage-summary').innerText();
    expect(summary).toContain('190k'); // tokens in
    expect(summary).toContain('11k'); // tokens out
    const bedev = page.getByTestId(`usage-row-${roster.find((m) => m.slug === 'be-dev-1')!.id}`);
    await bedev.waitFor();
    expect(await bedev.innerText()).toContain('$1.75');
    const rows = await page.getByTestId('usage-breakdown').locator('tbody tr').allInnerTexts();
    expect(rows[0]).toContain('Backend Developer 1'); // costliest first
    expect(rows).toHaveLength(2);
    await screenshot(page, 'usage-live');
    await expectAccessible(page);
  });

  it('keeps the period and the split in the URL', async () => {
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.waitForURL(/period=7d/);
    await page.getByRole('link', { name: 'By model' }).click();
    await page.waitForURL(/period=7d.*tab=by-model|tab=by-model.*period=7d/);
    await page.getByTestId('usage-row-claude-sonnet-4').waitFor();
    expect(await page.getByTestId('usage-row-claude-sonnet-4').innerText()).toContain('89.7%');
    await page.reload();
    await page.getByTestId('usage-row-claude-haiku-4').waitFor();
    expect(await page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'usage-by-model-7d');
  });

  it('a parked provider shows the amber banner on every page; lifting it clears the banner', async () => {
    const other = await context.newPage();
    await other.goto(`${server.base}/tasks`);
    await other.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
    // The test runs the probe itself: the loop's own 30 s tick could lift codex before the pages
    // show it due (then "trying it again now" never appears).
    await server.gaffer.scheduler.stop();
    try {
      await rateLimits().report({ kind: 'rate_limited', provider: 'anthropic', retryAfterSeconds: 600 });
      await rateLimits().report({ kind: 'overloaded', provider: 'codex', retryAfterSeconds: 1 });
      for (const view of [page, other]) {
        const banner = view.getByTestId('rate-limit-banner-anthropic');
        await banner.waitFor();
        const text = await banner.innerText();
        expect(text).toContain('RATE LIMITED');
        expect(text).toMatch(/resumes in (9m 5\d|10m 00)s/);
        await view.getByTestId('rate-limit-banner-codex').filter({ hasText: 'OVERLOADED' }).waitFor();
        expect(await view.getByRole('alert', { name: 'Rate-limited providers' }).count()).toBe(1);
      }
      await screenshot(other, 'rate-limit-banner');
      await expectAccessible(other);

      // codex's window has passed: the probe lifts it (an agent CLI kind is lifted at the window's end).
      await other.getByTestId('rate-limit-banner-codex').filter({ hasText: 'trying it again now' }).waitFor();
      expect(await server.gaffer.scheduler.runNow(RATE_LIMIT_PROBE_LOOP)).toEqual({ status: 'succeeded' });
      for (const view of [page, other]) {
        await view.getByTestId('rate-limit-banner-codex').waitFor({ state: 'detached' });
        expect(await view.getByTestId('rate-limit-banner-anthropic').count()).toBe(1);
      }
      await other.close();
    } finally {
      server.gaffer.scheduler.start();
    }
  });

  it('with the socket blocked, says Polling and still updates usage and the banner', async () => {
    const blocked = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await blocked.routeWebSocket(/\/ws\//, (ws) => ws.close());
    // The page's clock runs as usual, and is moved on to the next polls instead of waiting for them.
    await blocked.clock.install();
    const polled = await blocked.newPage();
    await signIn(polled, server);
    await polled.goto(`${server.base}/usage`);
    await polled.locator('[data-testid="connection-state"][data-state="polling"]').waitFor();
    await polled.getByTestId('usage-cost').filter({ hasText: '$1.95' }).waitFor();

    await reportUsage('fe-dev-1', 'claude-haiku-4', 10_000, 500, 0.05);
    await rateLimits().report({ kind: 'rate_limited', provider: 'openrouter', retryAfterSeconds: 900 });
    // Usage is polled every 30 s while the socket is down, the parked providers every 15 s.
    await polled.clock.fastForward(30_000);
    await polled.getByTestId('usage-cost').filter({ hasText: '$2.00' }).waitFor();
    await polled.getByTestId('rate-limit-banner-openrouter').waitFor();
    expect(await polled.getByTestId('connection-state').innerText()).toBe('Polling');
    await screenshot(polled, 'usage-polling');
    await blocked.close();
  });
});
