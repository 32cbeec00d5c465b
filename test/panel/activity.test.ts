/**
 * The inbox's activity feed in a real browser: seeded from GET /api/tasks/activity on load, then
 * live while open — a task opened through the API and a maintenance pause and resume appear without
 * a reload. Axe on the inbox with the feed filled.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

describe.skipIf(!chromiumAvailable)('the inbox activity feed', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const openTask = async (title: string) => {
    const created = await server.api('POST', '/api/tasks', {
      title,
      description: `${title}, described for the activity feed test.`,
      acceptance_criteria: ['it is done'],
      team: 'main_pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'low',
      project_id: server.projectId,
      assigned_to: 'main-pm',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
  };

  it('is seeded on load and follows task moves and pauses live', async () => {
    await openTask('Seeded before the inbox opened');
    await signIn(page, server);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
    const feed = page.getByTestId('activity-feed');
    await feed.getByText('opened “Seeded before the inbox opened”').waitFor();

    await openTask('Opened while the inbox is open');
    await feed.getByText('opened “Opened while the inbox is open”').waitFor();

    const paused = await server.api('POST', '/api/maintenance-pause/engines', {
      mode: 'drain',
      reason: 'quiet hours',
    });
    expect(paused.status, JSON.stringify(paused.json)).toBe(200);
    await feed.getByText('paused engines (drain) · “quiet hours”').waitFor();
    await server.api('DELETE', '/api/maintenance-pause/engines');
    await feed.getByText('resumed engines').waitFor();
    const lines = await feed.locator('li').allInnerTexts();
    expect(lines[0]).toContain('resumed engines');
    await screenshot(page, 'inbox-activity');
    await expectAccessible(page);
  }, 120_000);
});
