/**
 * The command palette in a real browser, keyboard only: Ctrl-K opens it, a task id prefix finds
 * the task, Enter opens its page; a title finds a task behind hundreds of newer ones (the search is
 * the server's); it jumps to an agent by slug; Esc closes it. Axe with it open.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTasks } from '../fixtures-task-rows.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

describe.skipIf(!chromiumAvailable)('the command palette', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const task = (title: string) =>
    server.api('POST', '/api/tasks', {
      title,
      description: `${title}, described for the palette test.`,
      acceptance_criteria: ['it is done'],
      team: 'main_pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'low',
      project_id: server.projectId,
      assigned_to: 'main-pm',
    });

  it('finds a task by title behind hundreds of newer ones', async () => {
    const wanted = await task('Migrate the billing ledger');
    expect(wanted.status).toBe(201);
    await insertTasks(
      server.platform.database.db,
      Array.from({ length: 300 }, (_, i) => ({ title: `Filler task ${i}`, projectId: server.projectId })),
    );
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Jump to…' });
    await palette.waitFor();
    await page.keyboard.type('ledger billing');
    await palette.getByRole('option', { name: /Migrate the billing ledger/ }).waitFor();
    expect(await palette.getByRole('option', { name: /Filler task/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
  });

  it('jumps to a task by id prefix, to an agent by slug, and closes on Esc', async () => {
    const wanted = await task('Rotate the signing keys');
    const other = await task('Write the onboarding guide');
    expect(wanted.status, JSON.stringify(wanted.json)).toBe(201);
    expect(other.status).toBe(201);
    const id = wanted.json.id as string;

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Jump to…' });
    await palette.waitFor();
    // The palette filters at once and asks the server after a pause; axe runs on the settled list
    // (the server's answer for this prefix in, nothing loading), not on one that is re-rendering.
    const prefix = id.slice(0, 6);
    const searched = page.waitForResponse(
      (response) =>
        response.url().includes('/api/tasks?') && new URL(response.url()).searchParams.get('q') === prefix,
    );
    await page.keyboard.type(prefix);
    const match = palette.getByRole('option', { name: /Rotate the signing keys/ });
    await match.waitFor();
    await searched;
    await palette.getByText('Loading…').waitFor({ state: 'detached' });
    expect(await palette.getByRole('option', { name: /Write the onboarding guide/ }).count()).toBe(0);
    expect(await match.getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'palette-task');
    await expectAccessible(page);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.base}/tasks/${id}`);
    await palette.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await page.keyboard.type('be-dev-1');
    await palette.getByRole('option', { name: /Backend Developer 1/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.base}/agents/be-dev-1`);

    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${server.base}/agents/be-dev-1`);
  }, 120_000);
});
