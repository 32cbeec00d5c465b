/**
 * The Tasks pages in a real browser against a real server: list filters kept in the URL (they
 * survive a reload and a shared link), the kanban moving a card live when the main PM plans its
 * task through the gateway, the task page's tabs over real history, findings, collisions and a
 * work session, and the CEO's override edit (saved; a bad assignee shows the server's 422 next to
 * the field), assigning the reviewing PM and approving an escalated subtask, each after asking.
 * Every page is screenshotted and passes axe.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../../src/modules/agents/index.js';
import { gatewayRouteOf } from '../../src/modules/lifecycle/index.js';
import { GitRunner } from '../../src/platform/git/index.js';
import { commitToRemote } from '../../src/platform/git/test-support.js';
import { insertTask } from '../fixtures-task-rows.js';
import { identityHeaders } from '../support/app.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

const PM_PLAN = {
  plan: 'Split the health endpoint work between the backend cell and its documentation.',
  approach:
    'The backend cell owns the API server, so the whole change lands there: one developer adds the route and its test; QA verifies it against the criteria; the documenter updates the operations guide.',
  sub_tasks: [
    {
      title: 'Health endpoint',
      description: 'Add GET /health answering the version, unauthenticated, with an HTTP test covering it.',
    },
  ],
};

describe.skipIf(!chromiumAvailable)('the Tasks pages', () => {
  let server: PanelServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const ids: Record<string, string> = {};

  const create = async (key: string, body: Record<string, unknown>) => {
    const created = await server.api('POST', '/api/tasks', {
      description: 'A task the Tasks pages test shows in the list, the kanban and its own page.',
      acceptance_criteria: ['It is shown', 'It is correct'],
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      project_id: server.projectId,
      ...body,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    ids[key] = created.json.id as string;
    return ids[key]!;
  };

  /** A gateway verb as a roster member, over HTTP, as an agent's tool server calls it. */
  const verb = async (slug: string, name: string, payload: object) => {
    const member = rosterMember(slug);
    const response = await fetch(`${server.base}/api/v1/flow/${gatewayRouteOf(member.role)}/${name}`, {
      method: 'POST',
      headers: {
        ...identityHeaders(server.platform.secret)(member.id, member.role, member.team ?? ''),
        'content-type': 'application/json',
      },
      body: JSON.stringify(payload),
    });
    const envelope = (await response.json()) as { ok: boolean; error: unknown; current_state: string };
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    return envelope;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startPanelServer(), launchBrowser()]);
    await create('health', {
      title: 'Health endpoint for the load balancer',
      team: 'main_pm',
      task_type: 'planning',
      complexity: 'medium',
      assigned_to: 'main-pm',
    });
    await create('login', { title: 'Login form validation messages', team: 'frontend' });
    await create('loginApi', { title: 'Login rate limit on the API', team: 'backend' });
    await create('billing', { title: 'Billing export as CSV', team: 'backend' });
    context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    await signIn(page, server);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const rowTitles = async (p: Page) =>
    (await p.getByTestId('task-table').locator('tbody tr td:nth-child(3)').allInnerTexts()).sort();

  it('keeps the list filters in the URL: they survive a reload and a shared link', async () => {
    await page.goto(`${server.base}/tasks`);
    await page.getByTestId('task-table').waitFor();
    expect(await rowTitles(page)).toHaveLength(4);

    await page.getByLabel('Filter by team').selectOption('backend');
    await page.getByLabel('Filter by state').selectOption('pending');
    await page.getByLabel('Search tasks by title or id').fill('login');
    await page.getByLabel('Search tasks by title or id').press('Enter');
    await page.waitForURL(/q=login/);
    const url = new URL(page.url());
    expect(url.searchParams.get('team')).toBe('backend');
    expect(url.searchParams.getAll('state')).toEqual(['pending']);
    await expect.poll(() => rowTitles(page)).toEqual(['Login rate limit on the API']);
    await page.getByRole('list', { name: 'Active filters' }).getByText('team: backend').waitFor();

    await page.reload();
    await page.getByTestId(`task-row-${ids.loginApi}`).waitFor();
    expect(await rowTitles(page)).toEqual(['Login rate limit on the API']);
    expect(await page.getByLabel('Search tasks by title or id').inputValue()).toBe('login');
    await screenshot(page, 'tasks-list-filtered');
    await expectAccessible(page);

    // A colleague's browser opening the shared link sees the same tasks.
    const other = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(other, server);
    await other.goto(url.toString());
    await other.getByTestId(`task-row-${ids.loginApi}`).waitFor();
    expect(await rowTitles(other)).toEqual(['Login rate limit on the API']);
    await other.getByRole('list', { name: 'Active filters' }).getByText('state: pending').waitFor();
    await other.context().close();

    // Removing a chip widens the list again, in the URL too.
    await page.getByRole('button', { name: 'Remove filter team: backend' }).click();
    await expect
      .poll(() => rowTitles(page))
      .toEqual(['Login form validation messages', 'Login rate limit on the API']);
    expect(new URL(page.url()).searchParams.get('team')).toBeNull();
  }, 120_000);

  it('moves a card on the kanban live when its task moves through the gateway', async () => {
    await page.goto(`${server.base}/tasks?view=kanban`);
    const pending = page.getByTestId('column-pending');
    const inProgress = page.getByTestId('column-in_progress');
    await pending.getByTestId(`card-${ids.health}`).waitFor();
    expect(await pending.getAttribute('data-count')).toBe('4');
    expect(await inProgress.getAttribute('data-count')).toBe('0');
    // Empty columns are narrow strips with their count; a click opens one.
    expect(await inProgress.getAttribute('data-collapsed')).toBe('true');
    expect(await pending.getAttribute('data-collapsed')).toBeNull();
    const blocked = page.getByTestId('column-blocked');
    await blocked.getByRole('button').click();
    await blocked.getByText('No tasks').waitFor();
    expect(await blocked.getAttribute('data-collapsed')).toBeNull();
    await screenshot(page, 'tasks-kanban');
    await expectAccessible(page);

    // The main PM takes its task and plans it, through the gateway: pending → in progress.
    await verb('main-pm', 'give_me_work', {});
    expect((await verb('main-pm', 'i_will_plan', { task_id: ids.health, ...PM_PLAN })).current_state).toBe(
      'in_progress',
    );

    // No reload: the card changes column with the task event on /ws/system.
    await inProgress.getByTestId(`card-${ids.health}`).waitFor({ timeout: 30_000 });
    await pending.getByTestId(`card-${ids.health}`).waitFor({ state: 'detached' });
    expect(await inProgress.getAttribute('data-count')).toBe('1');
    expect(await pending.getAttribute('data-count')).toBe('3');
    await screenshot(page, 'tasks-kanban-live');

    // The dark theme reads as well (same tokens, axe checks the contrast).
    await page.evaluate("document.documentElement.dataset.theme = 'dark'");
    await screenshot(page, 'tasks-kanban-dark');
    await expectAccessible(page);
    await page.evaluate("document.documentElement.dataset.theme = 'light'");
  }, 120_000);

  it('reads the plan on the task page as a document, not as JSON', async () => {
    await page.goto(`${server.base}/tasks/${ids.health}`);
    const plan = page.getByRole('region', { name: 'Plan' });
    await plan.getByRole('region', { name: 'Sub-tasks' }).getByText('Health endpoint').waitFor();
    await plan.getByRole('region', { name: 'Summary' }).getByText(PM_PLAN.plan).waitFor();
    await plan.getByRole('region', { name: 'Approach' }).getByText(PM_PLAN.approach).waitFor();
    await plan.getByText(/^Planned by main-pm/).waitFor();
    expect(await plan.innerText()).not.toMatch(/[{}"]/);
    await screenshot(page, 'task-overview-plan');
    await expectAccessible(page);
  }, 60_000);

  it('scrolls a 10,000-line change smoothly: only the rows on screen are drawn', async () => {
    const remote = (await server.remoteGit(['rev-parse', '--absolute-git-dir'])).trim();
    const runner = new GitRunner({ home: join(remote, '..', 'big-change-home') });
    const files = Object.fromEntries(
      Array.from({ length: 20 }, (_, f) => [
        `src/big-${f}.ts`,
        Array.from({ length: 500 }, (_, i) => `export const v${f}_${i} = ${i};\n`).join(''),
      ]),
    );
    await commitToRemote(runner, remote, 'feature/big-change', files, 'A big change', 'main');
    const task = await insertTask(server.platform.database.db, {
      projectId: server.projectId,
      branchName: 'feature/big-change',
      title: 'A big generated change',
    });
    await page.goto(`${server.base}/tasks/${task.id}/changes`);
    await page.getByTestId('change-summary').filter({ hasText: '+10,000 −0 in 20 files' }).waitFor();
    const diff = page.getByRole('region', { name: 'Diff' });
    await diff.getByText('export const v0_0 = 0;').waitFor();
    const drawn = () => diff.locator('.font-mono.text-xs.leading-5').count();
    expect(await drawn()).toBeLessThan(200);
    // The end of the change (git orders the files by path: big-9 is last) is there when scrolled
    // to, still with a window of rows drawn.
    await diff.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await diff.getByText('export const v9_499 = 499;').waitFor();
    expect(await drawn()).toBeLessThan(200);
    // n / p go from file to file.
    await page.keyboard.press('n');
    await diff.getByTestId('diff-file-src/big-0.ts').waitFor();
    await page.keyboard.press('n');
    await diff.getByTestId('diff-file-src/big-1.ts').waitFor();
    await screenshot(page, 'task-changes-large');
  }, 90_000);

  it('shows the task page’s tabs over real history, findings, collisions and a work session', async () => {
    const id = ids.billing!;
    // A sibling under the same parent declaring overlapping paths, two review rounds of findings,
    // and a work session with a commit.
    const parent = await create('parent', {
      title: 'Backend: exports',
      team: 'backend',
      task_type: 'planning',
      assigned_to: 'be-pm',
    });
    const child = await create('child', {
      title: 'Export endpoint',
      team: 'backend',
      parent_task_id: parent,
      intends_to_touch: ['src/api/**'],
    });
    await create('sibling', {
      title: 'Export audit log',
      team: 'backend',
      parent_task_id: parent,
      intends_to_touch: ['src/api/export.ts'],
    });
    const findings = server.gaffer.modules.findings.service;
    await findings.raise(id, 'qa', 1, 'be-qa-1', [
      {
        severity: 'major',
        expected: 'A CSV header row',
        actual: 'No header row',
        fix: 'Write the header first',
      },
    ]);
    await findings.raise(id, 'pr_gate', 2, 'pr-reviewer', [
      {
        file: 'src/export.ts',
        line: 12,
        severity: 'minor',
        expected: 'Streamed',
        actual: 'Buffered',
        fix: 'Stream it',
      },
    ]);
    const session = await server.api('POST', '/api/work-sessions', {
      task_id: id,
      branch: `task/${id.slice(0, 8)}`,
      base_branch: 'main',
      agent_id: rosterMember('be-dev-1').id,
    });
    expect(session.status, JSON.stringify(session.json)).toBe(201);
    const commit = await server.api('POST', `/api/work-sessions/${session.json.id}/commits`, {
      hash: 'abc1234def',
      message: 'Export billing rows as CSV',
      files: ['src/export.ts'],
    });
    expect(commit.status, JSON.stringify(commit.json)).toBeLessThan(300);

    await page.goto(`${server.base}/tasks/${id}`);
    await page.getByRole('heading', { name: 'Billing export as CSV' }).waitFor();
    expect(await page.getByTestId('task-full-id').innerText()).toBe(id);
    await page.getByText('It is correct').waitFor();
    await screenshot(page, 'task-overview');
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'History' }).click();
    await page.waitForURL(/tab=history/);
    await page.getByTestId('history').getByText('create').waitFor();
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Findings' }).click();
    const ledger = page.getByTestId('findings');
    await ledger.getByText('No header row').waitFor();
    const rounds = await ledger.getByRole('heading', { level: 2 }).allInnerTexts();
    expect(rounds).toEqual(['Round 2', 'Round 1']);
    expect(await page.getByRole('table', { name: 'Findings per origin' }).innerText()).toMatch(
      /qa\s+1\s+0\s+0\s+0/,
    );
    await screenshot(page, 'task-findings');
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Work session' }).click();
    await page.getByTestId('work-session').getByText('Export billing rows as CSV').waitFor();
    expect(await page.getByTestId('work-session').innerText()).toContain(`task/${id.slice(0, 8)}`);
    await screenshot(page, 'task-work-session');
    await expectAccessible(page);

    // The tab is in the URL: a reload (or a shared link) opens the same tab.
    await page.goto(`${server.base}/tasks/${child}?tab=collisions`);
    await page.getByTestId('collisions').getByText('Export audit log').waitFor();
    expect(await page.getByTestId('collisions').innerText()).toContain('src/api/export.ts');
    await screenshot(page, 'task-collisions');
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Transcript' }).click();
    await page.waitForURL(/tab=transcript/);
    await screenshot(page, 'task-transcript');
    await page
      .getByTestId('transcript')
      .getByText('No agent has worked on this task yet', { exact: false })
      .waitFor();
    await expectAccessible(page);
  }, 120_000);

  it('saves the CEO’s override edit, and shows the server’s 422 next to the field', async () => {
    const id = ids.login!;
    await page.goto(`${server.base}/tasks/${id}`);
    await page.getByRole('button', { name: 'Edit (override)…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit task (CEO override)' });

    // Checked before sending: too short a description never reaches the server.
    await dialog.getByLabel('Description').fill('too short');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('At least 20 characters.').waitFor();
    await dialog
      .getByLabel('Description')
      .fill('Show every validation message of the login form next to its field.');

    // An assignee the server does not know: its 422 message appears next to the field.
    await dialog.getByLabel('Assignee (agent slug)').fill('nobody-here');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('there is no active agent "nobody-here"').waitFor();
    expect(await dialog.getByLabel('Assignee (agent slug)').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'task-override-422');
    await expectAccessible(page);

    // A good edit, with a status override into a review state: needs force, and asks once more.
    await dialog.getByLabel('Assignee (agent slug)').fill('fe-dev-1');
    await dialog.getByLabel('Priority').selectOption('0');
    await dialog.getByLabel('Status (override)').selectOption('awaiting_qa');
    await dialog.getByLabel('Reason (for the audit trail)').fill('Reviewed by hand already');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(/needs force/).waitFor();
    await dialog.getByLabel(/^Force/).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('button', { name: 'Yes, override' }).click();
    await dialog.waitFor({ state: 'detached' });

    const saved = (await server.api('GET', `/api/tasks/${id}`)).json;
    expect(saved.status).toBe('awaiting_qa');
    expect(saved.priority).toBe(0);
    expect(saved.assigned_to).toBe(rosterMember('fe-dev-1').id);
    expect(saved.description).toBe('Show every validation message of the login form next to its field.');
    // The page follows: the badge and the audit trail show the override.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('history').getByText('Reviewed by hand already').first().waitFor();
    await screenshot(page, 'task-history-override');
  }, 120_000);

  it('assigns the reviewing PM from the task page, after asking', async () => {
    const id = ids.loginApi!;
    const moved = await server.api('PATCH', `/api/tasks/${id}`, {
      status: 'awaiting_pm_review',
      force: true,
      reason: 'Ready for the cell PM to review',
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    await page.goto(`${server.base}/tasks/${id}`);
    await page.getByRole('button', { name: 'Assign review PM' }).click();
    const confirm = page.getByRole('dialog', { name: 'Assign the reviewing PM?' });
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Yes, assign' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('assignee be-pm').waitFor();
    expect((await server.api('GET', `/api/tasks/${id}`)).json.assigned_to).toBe(rosterMember('be-pm').id);
    await screenshot(page, 'task-review-pm-assigned');
  }, 60_000);

  it('approves an escalated subtask from the task page, after asking', async () => {
    // A subtask of the exports parent the tabs test made.
    const id = await create('escalated', {
      title: 'Retry the export',
      team: 'backend',
      parent_task_id: ids.parent,
    });
    const moved = await server.api('PATCH', `/api/tasks/${id}`, {
      status: 'awaiting_ceo_approval',
      force: true,
      reason: 'Escalated for the CEO’s sign-off',
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    await page.goto(`${server.base}/tasks/${id}`);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve?' });
    await confirm.getByText('“Retry the export” completes with your sign-off.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'task-approve-confirm');
    await confirm.getByRole('button', { name: 'Yes, approve' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Approved: Retry the export').waitFor();
    expect((await server.api('GET', `/api/tasks/${id}`)).json.status).toBe('completed');
  }, 60_000);

  it('sends a task back from its review page with the reason, checked before sending', async () => {
    const id = await create('sent-back', {
      title: 'Rename the export job',
      team: 'backend',
      parent_task_id: ids.parent,
    });
    const moved = await server.api('PATCH', `/api/tasks/${id}`, {
      status: 'awaiting_ceo_approval',
      force: true,
      reason: 'Escalated for the CEO’s sign-off',
    });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    await page.goto(`${server.base}/tasks/${id}/changes`);
    await page.getByRole('button', { name: 'Request changes…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject and ask for changes' });
    await dialog.getByRole('textbox').fill('short');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('Say what must change in at least 10 characters.').waitFor();
    expect((await server.api('GET', `/api/tasks/${id}`)).json.status).toBe('awaiting_ceo_approval');
    await dialog.getByRole('textbox').fill('Keep the old job name as an alias for a release.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'detached' });
    const task = (await server.api('GET', `/api/tasks/${id}`)).json;
    expect(task.status).toBe('needs_revision');
    const { events } = (await server.api('GET', `/api/tasks/${id}/events`)).json as {
      events: { action: string; reason: string | null }[];
    };
    expect(events.find((e) => e.action === 'ceo_reject')?.reason).toBe(
      'Keep the old job name as an alias for a release.',
    );
  }, 60_000);
});

describe.skipIf(!chromiumAvailable)('the task page’s transcript', () => {
  let server: PanelServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startPanelServer({ dispatchEnabled: true, agentRuntime: 'scripted', agentProvider: 'scripted' }),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the agent’s run output as it arrives, without a reload', async () => {
    // Dispatch is held while the page opens, so the run starts (and prints) with the page watching.
    expect(
      (
        await server.api('POST', '/api/maintenance-pause/dispatch', {
          mode: 'drain',
          reason: 'open the page first',
        })
      ).status,
    ).toBeLessThan(300);
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

    const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
    await page.goto(`${server.base}/tasks/${id}?tab=transcript`);
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('main-pm has no run for this task yet').waitFor();

    await server.api('DELETE', '/api/maintenance-pause/dispatch');
    await transcript.getByText('[scripted] main-pm:').first().waitFor({ timeout: 120_000 });
    await screenshot(page, 'task-transcript-live');
    await expectAccessible(page);
  }, 240_000);
});
