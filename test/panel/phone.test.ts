/**
 * The panel on a phone (390 × 844) and a tablet (768 × 1024), in a real browser, with the scripted
 * company's real work in it: every page fits the screen (nothing scrolls sideways but a table or a
 * diff in its own box) and keeps its primary actions on the screen at 44 px or more; on the phone
 * it passes axe in the light and the dark theme. Then the CEO's daily loop at phone size: the inbox, the review of
 * a change (the file picker, the unified diff, the actions kept in reach while the diff scrolls),
 * Approve & merge — the merge lands on main — and, for a second task, Request changes; a link to
 * the review opened without a session lands on the review once signed in.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForTaskStatus } from '../support/e2e.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, settle, signIn } from './support/page.js';
import { expectActionsInReach, expectFitsScreen, PHONE, TABLET } from './support/responsive.js';
import { type PanelServer, startPanelServer } from './support/server.js';

/** Every page of the panel, as a path (tasks and agents with real rows behind them). */
const pages = (task: string) => [
  ['inbox', '/'],
  ['tasks', '/tasks'],
  ['kanban', '/tasks?view=kanban'],
  ['task', `/tasks/${task}`],
  ['task-changes', `/tasks/${task}/changes`],
  ['task-history', `/tasks/${task}?tab=history`],
  ['task-findings', `/tasks/${task}?tab=findings`],
  ['task-collisions', `/tasks/${task}?tab=collisions`],
  ['task-work', `/tasks/${task}?tab=work`],
  ['task-transcript', `/tasks/${task}?tab=transcript`],
  ['agents', '/agents'],
  ['agents-conversations', '/agents?tab=conversations'],
  ['agent', '/agents/be-dev-1'],
  ['projects', '/projects'],
  ['project', '/projects/shop'],
  ['usage', '/usage'],
  ['workforce', '/workforce'],
  ['notifications', '/notifications'],
  ['social', '/social'],
  ['intake', '/intake'],
  ['secretary', '/secretary'],
  ['settings', '/settings'],
  ['settings-models', '/settings?tab=models'],
  ['not-found', '/no-such-page'],
];

const ROOT_TASK = {
  description: 'GET /health answering the version, for the load balancer probes.',
  acceptance_criteria: ['GET /health answers 200 with the version'],
  team: 'main_pm',
  task_type: 'planning',
  nature: 'technical',
  complexity: 'medium',
  assigned_to: 'main-pm',
};

describe.skipIf(!chromiumAvailable)('the panel on a phone and a tablet', () => {
  let server: PanelServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let merge: string;
  let sendBack: string;

  const open = async (viewport: { width: number; height: number }): Promise<Page> => {
    const context = await browser.newContext({ viewport, isMobile: viewport.width < 500, hasTouch: true });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server);
    return page;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startPanelServer({ dispatchEnabled: true, agentRuntime: 'scripted', agentProvider: 'scripted' }),
      launchBrowser(),
    ]);
    const create = async (title: string) => {
      const created = await server.api('POST', '/api/tasks', {
        ...ROOT_TASK,
        title,
        project_id: server.projectId,
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      return created.json.id as string;
    };
    merge = await create('Health endpoint for the load balancer');
    sendBack = await create('Version header on every response');
    const explain = async () => '';
    for (const id of [merge, sendBack]) {
      await waitForTaskStatus(server.api, id, 'awaiting_ceo_approval', {
        limitMs: 240_000,
        pollMs: 250,
        explain,
      });
    }
  }, 300_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as const) {
    it(`fits every page on a ${device} (${viewport.width} × ${viewport.height})`, async () => {
      const page = await open(viewport);
      // Every page is looked at before the test fails, so one run names every page that does not fit.
      const problems: string[] = [];
      const check = (what: string, run: () => Promise<void>) =>
        run().catch((error: Error) => problems.push(`${what}: ${error.message}`));
      for (const [name, path] of pages(merge)) {
        await page.goto(`${server.base}${path}`);
        await page.locator('main h1').first().waitFor();
        const what = `${name} (${path}) on a ${device}`;

        // axe on the phone: the tablet's markup is the phone's layout or the desktop's, both checked.
        // (expectAccessible waits for the page to settle first: the layout is checked on what loaded.)
        if (device === 'phone') await check(`${what}, light`, () => expectAccessible(page));
        else await settle(page);

        await check(what, () => expectFitsScreen(page, what));
        await check(what, () => expectActionsInReach(page, what));
        await screenshot(page, `${device}-${name}`);

        // The dark theme: the same layout and markup, its own contrast.
        if (device === 'phone') {
          await page.evaluate("document.documentElement.dataset.theme = 'dark'");
          await check(`${what}, dark`, () =>
            expectAccessible(page, { only: ['color-contrast'], settled: true }),
          );
          await page.evaluate("document.documentElement.dataset.theme = 'light'");
        }
      }
      expect(problems, problems.join('\n\n')).toEqual([]);
    }, 300_000);
  }

  it('adds to a home screen like an app, its status bar in the theme it is switched to', async () => {
    const page = await open(PHONE);
    const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await page.request.get(`${server.base}${manifestUrl}`);
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const app = (await manifest.json()) as {
      display: string;
      start_url: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(app).toMatchObject({ display: 'standalone', start_url: '/' });
    expect(app.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    for (const icon of app.icons) {
      const file = await page.request.get(`${server.base}${icon.src}`);
      expect(file.status(), icon.src).toBe(200);
      expect(file.headers()['content-type'], icon.src).toMatch(/^image\//);
    }
    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect((await page.request.get(`${server.base}${touchIcon}`)).status()).toBe(200);
    const barColours = () =>
      page
        .locator('meta[name="theme-color"]')
        .evaluateAll((metas) => metas.map((m) => m.getAttribute('content')));
    expect(await barColours()).toEqual(['#ffffff', '#ffffff']);

    // The theme switch is under More on a phone; the status bar follows it.
    await page.getByTestId('bottom-bar').getByRole('button', { name: 'More pages' }).click();
    const more = page.getByTestId('more-sheet');
    await more.getByRole('button', { name: 'Dark theme' }).click();
    expect(await barColours()).toEqual(['#171a21', '#171a21']);
    await screenshot(page, 'phone-more');
    await more.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await more.waitFor({ state: 'detached' });
  }, 60_000);

  it("runs the CEO's loop on a phone: inbox, review, approve & merge onto main; and a send-back", async () => {
    // A link from a notification, opened on a phone with no session: the sign-in screen, then the
    // login link lands on that very page.
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.base}/tasks/${merge}/changes`);
    await page.getByRole('heading', { name: 'Sign in to Gaffer' }).waitFor();
    await page.getByText('opens this page again').waitFor();
    await page.goto(server.loginUrl());
    await page.waitForURL(`${server.base}/tasks/${merge}/changes`);
    await page.getByTestId('change-mergeable').waitFor();
    await page.getByTestId('bottom-bar').getByRole('link', { name: 'Inbox' }).click();
    const mainBefore = await server.remoteGit(['rev-parse', 'refs/heads/main']);
    const viewport = PHONE;
    /** The element lies on the screen, above the bottom bar. */
    const onScreen = async (locator: ReturnType<Page['getByRole']>) => {
      const box = await locator.boundingBox();
      const bar = await page.getByTestId('bottom-bar').boundingBox();
      expect(box, 'not laid out').not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(bar!.y + 1);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    };

    // The inbox: the card, its actions at touch size, and the way to the review.
    const card = page.getByTestId(`approval-${merge}`);
    await card.waitFor();
    await card.getByRole('link', { name: 'Review the change' }).click();
    await page.waitForURL(`**/tasks/${merge}/changes`);
    await page.getByTestId('change-mergeable').waitFor();

    // The review at phone size: the files to jump from, the unified diff only, the actions in reach.
    expect(await page.getByRole('button', { name: 'Split' }).count()).toBe(0);
    const files = page.getByRole('navigation', { name: 'Changed files' }).getByRole('button');
    expect(await files.count()).toBeGreaterThanOrEqual(1);
    await files.last().click();
    const diff = page.getByRole('region', { name: 'Diff' });
    await diff.locator('[data-testid^="diff-file-"]').first().waitFor();
    await screenshot(page, 'phone-review-top');
    const approve = page.getByTestId('review-bar').getByRole('button', { name: 'Approve & merge' });
    const sendBackButton = page.getByTestId('review-bar').getByRole('button', { name: 'Request changes…' });
    // Scrolled to the diff and through it, the actions stay on the screen.
    await diff.scrollIntoViewIfNeeded();
    await diff.evaluate((box) => box.scrollBy(0, box.scrollHeight));
    await page.locator('main').evaluate((main) => main.scrollBy(0, main.scrollHeight));
    await onScreen(approve);
    await onScreen(sendBackButton);
    await screenshot(page, 'phone-review');
    await expectAccessible(page);

    // Approve & merge, confirmed on a full-screen sheet: the merge lands on main.
    await approve.click();
    const confirm = page.getByRole('dialog', { name: 'Approve and merge?' });
    const yes = confirm.getByRole('button', { name: 'Yes, approve & merge' });
    await onScreen(yes);
    await yes.click();
    await expect
      .poll(async () => (await server.api('GET', `/api/tasks/${merge}`)).json.status, { timeout: 60_000 })
      .toBe('completed');
    expect(await server.remoteGit(['rev-parse', 'refs/heads/main'])).not.toBe(mainBefore);
    const onMain = (await server.remoteGit(['ls-tree', '-r', '--name-only', 'refs/heads/main'])).split('\n');
    expect(onMain.filter((file) => file.startsWith('scripted/')).length).toBeGreaterThanOrEqual(1);
    await page.getByTestId('bottom-bar').getByRole('link', { name: 'Inbox' }).click();
    await card.waitFor({ state: 'detached', timeout: 60_000 });

    // The other task goes back with the CEO's notes, from its review.
    const other = page.getByTestId(`approval-${sendBack}`);
    await other.getByRole('link', { name: 'Review the change' }).click();
    await page.waitForURL(`**/tasks/${sendBack}/changes`);
    await page.getByTestId('review-bar').getByRole('button', { name: 'Request changes…' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject and ask for changes' });
    await reject.getByRole('textbox').fill('Send the version as a header, not in the body, please.');
    await screenshot(page, 'phone-request-changes');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await reject.waitFor({ state: 'detached' });
    const { events } = (await server.api('GET', `/api/tasks/${sendBack}/events`)).json as {
      events: { action: string; reason: string | null }[];
    };
    expect(events.find((e) => e.action === 'ceo_reject')?.reason).toBe(
      'Send the version as a header, not in the body, please.',
    );
  }, 180_000);
});
