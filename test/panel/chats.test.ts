/**
 * The intake and secretary chats in a real browser, the fake provider scripted: the intake
 * interview streams the interviewer's reply, shows the proposed task as a card, takes an edit and
 * confirms it into a real task (linked); the secretary's proposed charter change waits in the
 * directive queue until Confirm changes the charter. Axe on both pages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm/index.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

describe.skipIf(!chromiumAvailable)('live chats', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let fake: FakeLlm;

  beforeAll(async () => {
    [server, browser, fake] = await Promise.all([startPanelServer(), launchBrowser(), startFakeLlm()]);
    const created = await server.api('POST', '/api/providers', {
      name: 'fake',
      kind: 'openai',
      base_url: `${fake.url}/v1`,
      default_model: 'fake-small',
      api_key: 'test-key',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect((await server.api('PUT', '/api/providers/routing', { global: { provider: 'fake' } })).status).toBe(
      200,
    );
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, server);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it('interviews, proposes a task and confirms it into a real one', async () => {
    fake.script(
      {
        kind: 'reply',
        text: ['Got it.', ' Here is', ' a draft.'],
        chunkDelayMs: 30,
        toolUses: [
          {
            name: 'propose_task',
            input: {
              title: 'Export invoices as CSV',
              description: 'Customers download their invoices as a CSV file from the billing page.',
              acceptance_criteria: ['A CSV button is on the billing page', 'One row per invoice'],
              team: 'backend',
              type: 'code',
            },
          },
        ],
      },
      { kind: 'reply', text: 'Confirm it when it reads right.' },
    );
    await page.goto(`${server.base}/`);
    await page.getByRole('link', { name: 'Intake' }).click();
    await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'Shop' });
    await page.getByLabel('What do you need?').fill('Customers want their invoices as CSV.');
    await page.getByRole('button', { name: 'Start interview' }).click();

    await page.getByTestId('user-turn').getByText('Customers want their invoices as CSV.').waitFor();
    await page.getByTestId('assistant-turn').getByText('Got it. Here is a draft.').waitFor();
    const card = page.getByTestId('draft-card');
    await card.getByText('Export invoices as CSV').waitFor();
    await page.getByText('Confirm it when it reads right.').waitFor();
    await screenshot(page, 'intake-draft');
    await expectAccessible(page);

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('Title').fill('Export invoices to CSV');
    await card.getByRole('button', { name: 'Confirm and create' }).click();
    const link = card.getByTestId('created').getByRole('link');
    await link.waitFor();
    const taskId = (await link.getAttribute('href'))!.split('/').at(-1)!;
    const task = await server.api('GET', `/api/tasks/${taskId}`);
    expect(task.json).toMatchObject({ title: 'Export invoices to CSV', team: 'main_pm', source: 'prompter' });
    await screenshot(page, 'intake-created');

    // A reload picks the live chat up again: the stream replays it.
    await page.reload();
    await page.getByTestId('assistant-turn').getByText('Confirm it when it reads right.').waitFor();
    await page.getByTestId('created').waitFor();
    await page.getByRole('button', { name: 'End chat' }).click();
    await page.getByText('This chat has ended.').waitFor();
  }, 90_000);

  it('shows a proposed directive in the queue and confirms it', async () => {
    fake.script(
      {
        kind: 'reply',
        text: 'I will propose it.',
        toolUses: [
          {
            name: 'update_charter',
            input: {
              changes: { north_star: 'Ship every week' },
              rationale: 'You asked for a weekly cadence.',
            },
          },
        ],
      },
      { kind: 'reply', text: 'It waits for your confirmation in the queue.' },
    );
    await page.getByRole('link', { name: 'Secretary' }).click();
    await page.getByText('No directive waits for your decision.').waitFor();
    await page.getByRole('button', { name: 'Start a chat' }).click();
    await page.getByLabel('Your message').fill('Make our north star a weekly release.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('It waits for your confirmation in the queue.').waitFor();
    const queued = page.locator('[data-testid^="directive-"]');
    await queued.getByText('You asked for a weekly cadence.').waitFor();
    await screenshot(page, 'secretary-directive');
    await expectAccessible(page);

    await queued.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No directive waits for your decision.').waitFor();
    expect((await server.api('GET', '/api/company-goals')).json.north_star).toBe('Ship every week');
  }, 90_000);
});
