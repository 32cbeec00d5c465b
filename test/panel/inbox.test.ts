/**
 * The inbox in a real browser with the scripted company at work: the CEO gives the main PM a task
 * through the API, the scripted agents take it through the pipeline, and the open inbox shows it
 * awaiting approval live (no reload), with the navigation badge; its review page shows CI, the
 * verdicts, the files and the highlighted diff (unified and split), and Approve & merge on the review
 * page (confirmed) merges it onto main and clears it from the inbox. The page passes axe with the card on it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

describe.skipIf(!chromiumAvailable)('the inbox', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startPanelServer({ dispatchEnabled: true, agentRuntime: 'scripted', agentProvider: 'scripted' }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a task awaiting approval as it arrives, and Approve & merge puts it on main', async () => {
    const mainBefore = await server.remoteGit(['rev-parse', 'refs/heads/main']);
    const created = await server.api('POST', '/api/tasks', {
      title: 'Health endpoint for the load balancer',
      description: 'GET /health answering the version, for the load balancer probes.',
      acceptance_criteria: ['GET /health answers 200 with the version'],
      team: 'main_pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'medium',
      project_id: server.projectId,
      assigned_to: 'main-pm',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;

    // No reload: the card arrives with the task events on /ws/system.
    const card = page.getByTestId(`approval-${id}`);
    await card.waitFor({ timeout: 180_000 });
    expect(await card.innerText()).toContain('Health endpoint for the load balancer');
    expect(await page.getByTestId('inbox-count').innerText()).toMatch(/^1/);
    await page.getByRole('heading', { name: 'Inbox — 1 waiting for you' }).waitFor();
    // The company at a glance (the cockpit summary) flags what waits for the CEO.
    await page.getByTestId('signal-awaiting_ceo').waitFor();
    // The card sums the change up and leads to its review; a local pull request is no dead link.
    await card
      .getByTestId('approval-change')
      .filter({ hasText: /^\+\d+ −\d+ in \d+ files?/ })
      .waitFor();
    expect(await card.locator('a[href^="local:"]').count()).toBe(0);
    await screenshot(page, 'inbox-awaiting-approval');
    await expectAccessible(page);

    // A reviewer's finding on the first changed file's first line shows beside that line.
    const changed = (await server.api('GET', `/api/tasks/${id}/changes`)).json as {
      files: { path: string }[];
    };
    const [finding] = await server.gaffer.modules.findings.service.raise(id, 'pr_gate', 9, 'pr-reviewer-1', [
      {
        file: changed.files[0]!.path,
        line: 1,
        severity: 'minor',
        expected: 'A heading in title case',
        actual: 'A heading in sentence case',
        fix: 'Capitalise the heading',
      },
    ]);

    // The review: mergeable, the verdicts, the files with their counts, the diff line by line, the commits.
    await card.getByRole('link', { name: 'Review the change' }).click();
    await page.waitForURL(`**/tasks/${id}/changes`);
    await page.getByTestId('change-mergeable').filter({ hasText: 'Merges cleanly into main' }).waitFor();
    const files = page.getByRole('navigation', { name: 'Changed files' }).getByRole('button');
    expect(await files.count()).toBeGreaterThanOrEqual(1);
    const diff = page.getByRole('region', { name: 'Diff' });
    await diff.locator('[data-testid^="diff-file-"]').first().waitFor();
    expect(await diff.innerText()).toMatch(/@@ -\d+(,\d+)? \+\d+(,\d+)? @@/);
    expect(
      await page.getByRole('region', { name: 'Commits' }).getByRole('listitem').count(),
    ).toBeGreaterThanOrEqual(1);
    await page.getByText('PR review passed').waitFor();
    await page.getByTestId('change-ci').filter({ hasText: 'no CI (local project)' }).waitFor();
    await page.getByRole('link', { name: '1 open finding' }).waitFor();
    await diff
      .getByTestId(`diff-finding-${finding!.id.slice(0, 8)}`)
      .filter({ hasText: 'Capitalise the heading' })
      .waitFor();
    await page.getByRole('button', { name: 'Request changes…' }).waitFor();
    // The lines are highlighted as their file's language (a markdown heading here).
    expect(await diff.locator('.token').count()).toBeGreaterThan(0);
    await page.keyboard.press('n');
    await screenshot(page, 'task-changes');
    await expectAccessible(page);
    // Split: the old side beside the new one, kept in the URL.
    await page.getByRole('button', { name: 'Split' }).click();
    await page.waitForURL(/view=split/);
    await diff.getByTestId('diff-pair').first().waitFor();
    expect(await diff.locator('[data-testid="diff-pair"]').count()).toBeGreaterThan(0);
    await page.evaluate("document.documentElement.dataset.theme = 'dark'");
    await screenshot(page, 'task-changes-dark');
    await expectAccessible(page);
    await page.evaluate("document.documentElement.dataset.theme = 'light'");
    await page.getByRole('button', { name: 'Unified' }).click();
    await page.goBack(); // the view is replaced in the history, not pushed
    await card.waitFor();

    // Reject asks for the changes first, and refuses too short a note before sending anything.
    await card.getByRole('button', { name: 'Reject…' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject and ask for changes' });
    await reject.getByRole('textbox').fill('no');
    await reject.getByRole('button', { name: 'Reject' }).click();
    const tooShort = reject.getByRole('alert');
    await tooShort.getByText('Say what must change in at least 10 characters.').waitFor();
    // The field is marked invalid and described by the message.
    const field = reject.getByRole('textbox');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toBe(await tooShort.getAttribute('id'));
    await screenshot(page, 'inbox-reject-too-short');
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await reject.waitFor({ state: 'detached' });
    expect((await server.api('GET', `/api/tasks/${id}`)).json.status).toBe('awaiting_ceo_approval');

    // Approve & merge on the review page itself.
    await card.getByRole('link', { name: 'Review the change' }).click();
    await page.waitForURL(`**/tasks/${id}/changes`);
    await page.getByTestId('change-mergeable').waitFor();
    await page.getByRole('button', { name: 'Approve & merge' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve and merge?' });
    await confirm.getByRole('button', { name: 'Yes, approve & merge' }).click();
    await expect
      .poll(async () => (await server.api('GET', `/api/tasks/${id}`)).json.status, { timeout: 60_000 })
      .toBe('completed');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await card.waitFor({ state: 'detached', timeout: 60_000 });
    expect(await page.getByTestId('inbox-count').count()).toBe(0);
    await page.getByTestId('signal-awaiting_ceo').waitFor({ state: 'detached' });
    const { delivery } = (await server.api('GET', '/api/cockpit/summary')).json as {
      delivery: { completed_30d: number };
    };
    expect(delivery.completed_30d).toBeGreaterThanOrEqual(1); // the root and the subtasks it was split into
    await page
      .getByTestId('company-glance')
      .filter({ hasText: new RegExp(`Completed \\(30 d\\)\\s*${delivery.completed_30d}(?!\\d)`) })
      .waitFor();
    await page.getByTestId('company-glance').scrollIntoViewIfNeeded();
    await screenshot(page, 'inbox-company-glance');
    expect(await server.remoteGit(['rev-parse', 'refs/heads/main'])).not.toBe(mainBefore);
  }, 300_000);
});
