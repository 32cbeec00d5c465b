/**
 * The Workforce page in a real browser, over the scripted company's real work: before any task
 * ends it says what would fill it; then two root tasks go through the pipeline (planning, a cell
 * task, a developer's leaf, QA, the PR gate) and the CEO merges them, and a third is cancelled from
 * the backlog (its owner not known). The page fills in live; its groups and counts are the API's,
 * below ten tasks each says "not enough data"; a header sorts the rows (and says so in aria-sort),
 * also from the keyboard; a count lists its tasks, each opening its task page; a role leads to its
 * agents; the CSV download is the table as shown; a filter with nothing in it says so; it reads in
 * the light and the dark theme and fits a phone. An experiment is started from its dialog (checked
 * before sending), stopped and one arm adopted — the role's route is then the arm's — and its card
 * reaches the CEO's inbox.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForTaskStatus } from '../support/e2e.js';
import { LAB_PROVIDER } from '../support/lab-provider.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { expectFitsScreen, PHONE } from './support/responsive.js';
import { type PanelServer, startPanelServer } from './support/server.js';

interface Group {
  key: string | null;
  tasks: number;
  enough: boolean;
  claim_to_end_seconds: { p50: number | null; p90: number | null };
  failure_on_start: { rate: number; low: number; high: number; n: number } | null;
}
interface Scorecards {
  min_sample: number;
  groups: Group[];
}

const ROOT_TASK = {
  description: 'GET /health answering the version, for the load balancer probes.',
  acceptance_criteria: ['GET /health answers 200 with the version'],
  team: 'main_pm',
  task_type: 'planning',
  nature: 'technical',
  complexity: 'medium',
  assigned_to: 'main-pm',
};

describe.skipIf(!chromiumAvailable)('the workforce page', () => {
  let server: PanelServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let slugs: Map<string, string>;
  let roots: string[] = [];
  let cancelled: string;

  const scorecards = async (query: string): Promise<Scorecards> => {
    const { status, json } = await server.api('GET', `/api/workforce/scorecards?${query}`);
    expect(status, JSON.stringify(json)).toBe(200);
    return json as unknown as Scorecards;
  };
  const label = (key: string | null) => (key === null ? 'not known' : key.replaceAll('_', ' '));
  const row = (key: string | null) => page.getByTestId(`scorecard-${key ?? 'none'}`);
  /** The group names down the table, as shown. */
  const shownOrder = () => page.getByTestId('scorecards').locator('tbody tr th').allInnerTexts();
  const groupName = (text: string) => text.split('\n')[0]!.trim();
  /** A figure's text as shown (its link also names it for screen readers, on a line of its own). */
  const figure = async (locator: ReturnType<Page['getByTestId']>) => groupName(await locator.innerText());

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startPanelServer({ dispatchEnabled: true, agentRuntime: 'scripted', agentProvider: 'scripted' }),
      launchBrowser(),
    ]);
    context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    await signIn(page, server);
    const agents = (await server.api('GET', '/api/agents')).json.agents as { id: string; slug: string }[];
    slugs = new Map(agents.map((agent) => [agent.id, agent.slug]));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('before any task ends, says what would fill it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workforce' }).click();
    await page.getByRole('heading', { name: 'Workforce', level: 1 }).waitFor();
    const empty = page.getByTestId('workforce-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain(
      'No task ended in the last 30 days: scorecards count tasks that were merged, accepted or cancelled.',
    );
    expect(await page.getByTestId('scorecards').count()).toBe(0);
    await expectAccessible(page);
  });

  it('fills in live as the company finishes work: the groups and counts are the API’s', async () => {
    const create = async (title: string, extra: Record<string, unknown> = ROOT_TASK) => {
      const created = await server.api('POST', '/api/tasks', {
        ...extra,
        title,
        project_id: server.projectId,
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      return created.json.id as string;
    };
    roots = [await create('Health endpoint for the load balancer')];
    // A task dropped from the backlog before anyone took it: ended, its owner not known.
    cancelled = await create('Dark mode for the invoices', {
      description: 'Invoices readable in the dark theme.',
      acceptance_criteria: ['Invoices pass the contrast check in the dark theme'],
      team: 'backend',
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      status: 'backlog',
    });
    const dropped = await server.api('PATCH', `/api/tasks/${cancelled}`, {
      status: 'cancelled',
      force: true,
      reason: 'Not this quarter.',
    });
    expect(dropped.status, JSON.stringify(dropped.json)).toBe(200);

    const explain = async () => '';
    for (const id of roots) {
      await waitForTaskStatus(server.api, id, 'awaiting_ceo_approval', {
        limitMs: 240_000,
        pollMs: 250,
        explain,
      });
    }
    for (const id of roots) {
      const merged = await server.api('POST', `/api/tasks/${id}/approve-and-merge`);
      expect(merged.status, JSON.stringify(merged.json)).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 700));
    await server.gaffer.modules.evidence.flush();

    const { groups, min_sample } = await scorecards('period=30d&by=role');
    expect(min_sample).toBe(10);
    expect(groups.map((group) => group.key)).toEqual(expect.arrayContaining(['developer', null]));
    // No reload: the task moves made the page ask again.
    for (const group of groups) {
      const shown = row(group.key);
      await shown
        .getByTestId('scorecard-tasks')
        .filter({ hasText: String(group.tasks) })
        .waitFor();
      expect(groupName(await shown.locator('th').innerText())).toBe(label(group.key));
      // Fewer than ten tasks: counts, times and costs, but no rates.
      expect(await shown.getByTestId('thin-data').innerText()).toBe(
        `not enough data (n = ${group.tasks} of 10)`,
      );
    }
    expect(await page.getByTestId('scorecards').locator('tbody tr').count()).toBe(groups.length);
    expect(await page.getByTestId('workforce-sample-note').innerText()).toContain(
      'Every group has fewer than 10 tasks',
    );
    // No first-pass QA rate below ten tasks; a failure-on-start rate wherever ten runs were made.
    const table = page.getByTestId('scorecards');
    expect(await table.getByTestId('scorecard-first-pass-qa').count()).toBe(0);
    const rated = groups.filter((group) => group.failure_on_start !== null);
    expect(await table.getByTestId('interval-bar').count()).toBe(rated.length);
    const pct = (x: number) => Math.round(x * 100);
    for (const group of rated) {
      const { rate, low, high } = group.failure_on_start!;
      expect(await figure(row(group.key).getByTestId('scorecard-failure-on-start'))).toBe(
        `${pct(rate)} % [${pct(low)}–${pct(high)}]`,
      );
    }

    await screenshot(page, 'workforce');
    await expectAccessible(page);
    await page.evaluate("document.documentElement.dataset.theme = 'dark'");
    await expectAccessible(page, { only: ['color-contrast'], settled: true });
    await screenshot(page, 'workforce-dark');
    await page.evaluate("document.documentElement.dataset.theme = 'light'");
  }, 300_000);

  it('sorts by a column header, says so in aria-sort, and keeps the order in the URL', async () => {
    const { groups } = await scorecards('period=30d&by=role');
    const header = (name: string) =>
      page.locator('thead th').filter({ has: page.getByTestId(`sort-${name}`) });
    await expect.poll(() => header('tasks').getAttribute('aria-sort')).toBe('descending');

    await page.getByTestId('sort-group').click();
    await page.waitForURL(/sort=group/);
    await expect.poll(() => header('group').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => header('tasks').getAttribute('aria-sort')).toBe('none');
    const names = groups.map((group) => label(group.key));
    expect((await shownOrder()).map(groupName)).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    // From the keyboard: the header is a button; Enter turns the order round.
    await page.getByTestId('sort-group').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/dir=desc/);
    await expect.poll(() => header('group').getAttribute('aria-sort')).toBe('descending');
    expect((await shownOrder()).map(groupName)).toEqual([...names].sort((a, b) => b.localeCompare(a)));

    // Slowest first by the median claim → end; groups without one (nothing claimed) last.
    await page.getByTestId('sort-claim_to_end').click();
    await page.waitForURL(/sort=claim_to_end/);
    await expect.poll(() => header('claim_to_end').getAttribute('aria-sort')).toBe('descending');
    const timed = groups.filter((group) => group.claim_to_end_seconds.p50 !== null);
    const expected = [
      ...[...timed].sort((a, b) => b.claim_to_end_seconds.p50! - a.claim_to_end_seconds.p50!),
      ...groups.filter((group) => group.claim_to_end_seconds.p50 === null),
    ].map((group) => label(group.key));
    expect((await shownOrder()).map(groupName)).toEqual(expected);
    expect((await shownOrder()).map(groupName).at(-1)).toBe('not known');

    // The order is in the link: a reload keeps it.
    await page.reload();
    await page.getByTestId('scorecards').waitFor();
    await expect.poll(() => header('claim_to_end').getAttribute('aria-sort')).toBe('descending');
    expect((await shownOrder()).map(groupName)).toEqual(expected);
  });

  it('lists the tasks behind a count, each opening its task page', async () => {
    const { groups } = await scorecards('period=30d&by=role');
    const developer = groups.find((group) => group.key === 'developer')!;
    const listed = (
      await server.api(
        'GET',
        '/api/workforce/scorecards/tasks?period=30d&by=role&key=developer&measure=tasks',
      )
    ).json.tasks as { task_id: string; title: string }[];
    expect(listed).toHaveLength(developer.tasks);

    await row('developer').getByTestId('scorecard-tasks').click();
    await page.waitForURL(/measure=tasks&group=developer/);
    const drill = page.getByTestId('drill');
    await drill.getByRole('heading', { name: 'developer: every task that ended' }).waitFor();
    const rows = drill.getByTestId('drill-tasks').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(developer.tasks);
    for (const task of listed) expect(await drill.getByTestId(`drill-task-${task.task_id}`).count()).toBe(1);
    expect(await drill.getByTestId('drill-by-agent').innerText()).toMatch(/By agent: be-dev-\d × \d/);
    await screenshot(page, 'workforce-drill');
    await expectAccessible(page);

    const first = listed[0]!;
    await drill.getByRole('link', { name: first.title }).click();
    await page.waitForURL(`**/tasks/${first.task_id}`);
    await page.getByRole('heading', { name: first.title }).waitFor();
    await page.goBack();
    await drill.getByTestId(`drill-task-${first.task_id}`).waitFor();

    // The group whose owner is not known: the cancelled task.
    await row(null).getByTestId('scorecard-tasks').click();
    await page.waitForURL(/group=(&|$)/);
    await drill.getByRole('heading', { name: 'not known: every task that ended' }).waitFor();
    await drill.getByTestId(`drill-task-${cancelled}`).waitFor();
    expect(await drill.getByTestId('drill-tasks').locator('tbody tr').count()).toBe(1);
    await drill.getByRole('button', { name: 'Close the list' }).click();
    await drill.waitFor({ state: 'detached' });
  });

  it('goes from a role to its agents, each named by its slug', async () => {
    const { groups } = await scorecards('period=30d&by=agent&role=developer');
    expect(groups.length).toBeGreaterThanOrEqual(1);
    await page.goto(`${server.base}/workforce`);
    await row('developer').getByTestId('scorecard-agents').click();
    await page.waitForURL(/by=agent/);
    expect(new URL(page.url()).searchParams.get('role')).toBe('developer');
    // The URL changes first; the filter shows it once the page has rendered the new search.
    await expect
      .poll(() => page.getByTestId('workforce-filters').getByLabel('Role').inputValue())
      .toBe('developer');
    for (const group of groups) {
      const shown = row(group.key);
      await shown.waitFor();
      expect(groupName(await shown.locator('th').innerText())).toBe(slugs.get(group.key!));
      expect(await figure(shown.getByTestId('scorecard-tasks'))).toBe(String(group.tasks));
    }
    expect(await page.getByTestId('scorecards').locator('tbody tr').count()).toBe(groups.length);
  });

  it('downloads the table as shown, as CSV', async () => {
    await page.goto(`${server.base}/workforce?sort=group`);
    await page.getByTestId('scorecards').waitFor();
    const { groups } = await scorecards('period=30d&by=role');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('workforce-csv').click(),
    ]);
    expect(download.suggestedFilename()).toBe('workforce-by-role-30d.csv');
    const lines = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    const [head, ...body] = lines.map((line) => line.split(','));
    expect(head!.slice(0, 4)).toEqual(['group', 'key', 'tasks', 'enough_data']);
    expect(head).toContain('cost_per_accepted_subtask_usd');
    // In the order shown (by name), one line a group, the counts the API's, plain numbers.
    expect(body.map((fields) => fields[0])).toEqual((await shownOrder()).map(groupName));
    expect(body).toHaveLength(groups.length);
    for (const group of groups) {
      const fields = body.find((line) => line[1] === (group.key ?? ''))!;
      expect(fields, String(group.key)).toBeDefined();
      expect(fields[2]).toBe(String(group.tasks));
      expect(fields[3]).toBe('false');
      expect(fields[4]).toBe(''); // no rate below ten tasks
    }
  });

  it('says so when a filter leaves nothing', async () => {
    await page.goto(`${server.base}/workforce?period=7d`);
    await page.getByTestId('scorecards').waitFor();
    await page.getByTestId('workforce-filters').getByLabel('Role').selectOption('auditor');
    await page.waitForURL(/role=auditor/);
    const empty = page.getByTestId('workforce-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain(
      'No task of the auditor role ended in the last 7 days: scorecards count tasks that were merged, accepted or cancelled.',
    );
    expect(await page.getByTestId('scorecards').count()).toBe(0);
    await expectAccessible(page);
  });

  it('starts, stops and adopts an experiment, and the CEO’s inbox gets its card', async () => {
    const lab = await server.api('POST', '/api/providers', LAB_PROVIDER);
    expect(lab.status, JSON.stringify(lab.json)).toBe(201);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${server.base}/workforce`);
    await page.getByTestId('experiments-empty').waitFor();

    await page.getByTestId('experiment-start').click();
    const dialog = page.getByRole('dialog', { name: 'Start an experiment' });
    await dialog.getByTestId('experiment-submit').click();
    expect(await dialog.getByTestId('error-a').innerText()).toBe(
      'Name a CLI, a provider or a model for this arm.',
    );
    await dialog.getByLabel('Provider').first().selectOption('lab');
    await dialog.getByLabel('Model').first().fill('scripted-careful');
    await dialog.getByLabel('Provider').nth(1).selectOption('lab');
    await dialog.getByLabel('Model').nth(1).fill('scripted-hasty');
    await dialog.getByLabel('Arm B’s share (%)').fill('30');
    await expectAccessible(page);
    await dialog.getByTestId('experiment-submit').click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByTestId('experiment');
    await card.waitFor();
    expect(await card.getByTestId('experiment-status').innerText()).toMatch(
      /^Running since .+, up to 40 tasks$/,
    );
    expect(await card.getByTestId('experiment-arm-a').innerText()).toContain('Arm A · 70 %');
    expect(await card.getByTestId('experiment-arm-b').innerText()).toContain('lab · scripted-hasty');
    expect(await card.getByTestId('experiment-verdict').innerText()).toBe(
      'no difference yet (n = 0 vs 0; 10 a side at least)',
    );
    const listed = (await server.api('GET', '/api/workforce/experiments')).json.experiments as {
      id: string;
      share_b: number;
    }[];
    expect(listed.map((e) => e.share_b)).toEqual([30]);

    await card.getByRole('button', { name: 'Stop' }).click();
    await card.getByTestId('experiment-adopt-a').waitFor();
    expect(await card.getByTestId('experiment-status').innerText()).toMatch(/: stopped by the CEO$/);
    // A toast fading in or out is too faint for axe for a moment: read the page with every toast in place.
    await page.waitForFunction(
      `[...document.querySelectorAll('[data-sonner-toast]')].every(
        (toast) => toast.getAttribute('data-mounted') === 'true' && toast.getAttribute('data-removed') !== 'true')`,
    );
    await screenshot(page, 'workforce-experiment');
    await expectAccessible(page);
    await card.getByTestId('experiment-adopt-a').click();
    await card.getByTestId('experiment-adopted').waitFor({ timeout: 10_000 });
    const routing = (await server.api('GET', '/api/providers/routing')).json as {
      roles: Record<string, { provider: string; model: string | null }>;
    };
    expect(routing.roles.developer).toMatchObject({ provider: 'lab', model: 'scripted-careful' });

    // One card in the inbox, with the numbers; acknowledging it clears it.
    await page.goto(`${server.base}/`);
    const item = page.getByRole('listitem').filter({ hasText: 'Experiment on the developer role ended' });
    await item.waitFor({ timeout: 10_000 });
    expect(await item.getByTestId('ack-body').innerText()).toContain(
      'Verdict: no difference yet (n = 0 vs 0; 10 a side at least).',
    );
    // Whole on a wide screen; on a phone cut at six lines, and the whole of it a click away.
    const clamp = () =>
      item
        .getByTestId('ack-body')
        .evaluate(
          (body) =>
            (
              globalThis as unknown as { getComputedStyle(of: unknown): { webkitLineClamp: string } }
            ).getComputedStyle(body).webkitLineClamp,
        );
    expect(await item.getByRole('button', { name: 'Show all' }).count()).toBe(0);
    const wide = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    await item.getByRole('button', { name: 'Show all' }).click();
    expect(await clamp()).toBe('none');
    expect(await item.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    await page.setViewportSize(wide);
    await item.getByRole('button', { name: 'Acknowledge' }).click();
    await item.waitFor({ state: 'detached', timeout: 10_000 });
  }, 60_000);

  it('fits a phone: a card a group, ordered by a select', async () => {
    const { groups } = await scorecards('period=30d&by=role');
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      const small = await phone.newPage();
      await signIn(small, server);
      await small.goto(`${server.base}/workforce?measure=tasks&group=developer`);
      const cards = small.getByTestId('scorecard-cards');
      await cards.waitFor();
      await small.getByTestId('drill-tasks').waitFor();
      expect(await small.getByTestId('scorecards').isVisible()).toBe(false);
      for (const group of groups) {
        const card = small.getByTestId(`scorecard-card-${group.key ?? 'none'}`);
        expect(await figure(card.getByTestId('scorecard-tasks'))).toBe(String(group.tasks));
      }
      await small.getByLabel('Sort by').selectOption('group');
      await small.waitForURL(/sort=group/);
      const names = groups.map((group) => label(group.key)).sort((a, b) => a.localeCompare(b));
      const shown = await cards
        .locator(':scope > li')
        .evaluateAll((items) =>
          items.map((item) => (item.querySelector('span') as { innerText: string } | null)?.innerText ?? ''),
        );
      expect(shown.map(groupName)).toEqual(names);
      await expectFitsScreen(small, 'workforce on a phone');
      await cards.scrollIntoViewIfNeeded();
      await screenshot(small, 'workforce-phone');
      await expectAccessible(small);
      // The experiment of the test before, its arms stacked.
      const experiment = small.getByTestId('experiment');
      await experiment.scrollIntoViewIfNeeded();
      const [a, b] = [
        await small.getByTestId('experiment-arm-a').boundingBox(),
        await small.getByTestId('experiment-arm-b').boundingBox(),
      ];
      expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height);
      await screenshot(small, 'workforce-phone-experiment');
    } finally {
      await phone.close();
    }
  });
});
