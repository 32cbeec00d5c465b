/**
 * The release proposal card in a real browser, on a proposal made by the REAL readiness sweep over a
 * real git repository (ladder dev → staging → prod) served by the fake forge: the card shows the
 * version, bump, why it qualifies, gaps, changelog and files; "Reject with changes" refuses a short
 * note before sending and cancels the proposal; a fresh proposal approved (confirmed) shows the blue
 * running band with both buttons disabled; the release commit's CI going red shows the reason inline
 * and "Retry approve & publish"; after a green re-run the retry publishes and the card says so. On
 * a phone the card fits the screen with its decisions in reach.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeForge, startFakeForge } from '../support/fake-forge/index.js';
import {
  ciRun,
  gafferProject,
  type Json,
  RELEASE_CONFIG,
  type ReleaseClient,
  type ReleaseRepo,
  releaseRoutes,
  seedReleaseRepo,
  waitForProposal,
} from '../support/release-world.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { expectActionsInReach, expectFitsScreen, PHONE } from './support/responsive.js';
import { type PanelServer, startPanelServer } from './support/server.js';

const WAIT = 60_000;

describe.skipIf(!chromiumAvailable)('the release proposal card', () => {
  let server: PanelServer;
  let forge: FakeForge;
  let repo: ReleaseRepo;
  let browser: Browser;
  let page: Page;
  let client: ReleaseClient;
  let ceo: ReturnType<typeof releaseRoutes>;

  beforeAll(async () => {
    [forge, repo, browser] = await Promise.all([startFakeForge(), seedReleaseRepo(), launchBrowser()]);
    forge.serveGit('acme', 'gaffer', repo.bare);
    server = await startPanelServer(RELEASE_CONFIG, { flags: ['release_manager'] });
    client = {
      async request(method, path, body) {
        const answer = await server.api(method, path, body as object | undefined);
        return { status: answer.status, body: answer.json as Json };
      },
    };
    ceo = releaseRoutes(client);
    const created = await server.api('POST', '/api/projects', gafferProject(forge));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    await repo.commit(
      'staging',
      { 'hotfix.txt': 'from staging\n' },
      'fix(staging): a hotfix made on staging',
    );
    await repo.commit('dev', { 'src/kanban.ts': 'export {};\n' }, 'feat(kanban): drag cards (#7)');
    ciRun(
      forge,
      await repo.commit('dev', { 'src/pause.ts': 'export {};\n' }, 'fix: the pause banner clears'),
      'success',
    );
    page = await (await browser.newContext({ viewport: { width: 1360, height: 1100 } })).newPage();
    await signIn(page, server);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await forge?.close();
    repo?.cleanup();
  });

  /** One readiness pass through the real board program; answers the proposal it opened. */
  async function propose(): Promise<Json> {
    const sweep = await ceo.runNow();
    expect(sweep.body.tasks_opened, JSON.stringify(sweep.body)).toBe(1);
    return (await ceo.proposal()).body;
  }

  it('shows the proposal the readiness sweep made, and rejecting it with changes cancels it', async () => {
    const proposal = await propose();
    expect(proposal.version).toBe('0.2.0');
    await page.goto(`${server.base}/`);
    const card = page.getByTestId('release-proposal');
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toContain('Release 0.2.0 (minor)');
    expect(text).toContain(proposal.bump_rule);
    expect(text).toContain('2 commits · 1 feat · 1 fix');
    expect(text).toContain(proposal.report.threshold);
    await card.getByText('Files to bump').click();
    await card.getByText('src/version.ts').waitFor();
    await card.getByText(/^Changelog/).click();
    await card.getByText('drag cards (#7)').first().waitFor();
    expect(await card.getByRole('button', { name: 'Approve & publish' }).isEnabled()).toBe(true);
    await screenshot(page, 'release-proposal');
    await expectAccessible(page);

    // On a phone the card fits the screen, its decisions in reach, and its confirmation a full sheet.
    const phone = await (
      await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
    ).newPage();
    await signIn(phone, server);
    const phoneCard = phone.getByTestId('release-proposal');
    await phoneCard.getByRole('button', { name: 'Approve & publish' }).waitFor();
    await expectFitsScreen(phone, 'the release card on a phone');
    await expectActionsInReach(phone, 'the release card on a phone');
    await screenshot(phone, 'phone-release-proposal');
    await phoneCard.getByRole('button', { name: 'Approve & publish' }).click();
    const sheet = phone.getByRole('dialog', { name: 'Approve and publish 0.2.0?' });
    await sheet.waitFor();
    await expectActionsInReach(phone, 'the release confirmation on a phone');
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await phone.context().close();

    await card.getByRole('button', { name: 'Reject with changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject with changes' });
    await dialog.getByRole('textbox').fill('too short');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('Say what must change in at least 10 characters.').waitFor();
    expect((await ceo.proposal()).status).toBe(200);

    await dialog.getByRole('textbox').fill('Document the kanban drag first, then propose again.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await ceo.proposal()).status).toBe(404);
    const task = await server.api('GET', `/api/tasks/${proposal.task_id}`);
    expect(task.json.status).toBe('cancelled');
  }, 120_000);

  it('approves: running band, the release CI red → the reason inline and Retry, then published', async () => {
    const proposal = await propose(); // the slot was freed by the rejection
    const prodBefore = await repo.tip('prod');
    // A second window has its confirmation open before the first approves.
    const other = await page.context().newPage();
    await other.goto(`${server.base}/`);
    await other.getByTestId('release-proposal').getByRole('button', { name: 'Approve & publish' }).click();
    const otherConfirm = other.getByRole('dialog', { name: 'Approve and publish 0.2.0?' });
    await otherConfirm.waitFor();

    await page.goto(`${server.base}/`);
    const card = page.getByTestId('release-proposal');
    await card.getByRole('button', { name: 'Approve & publish' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve and publish 0.2.0?' });
    await confirm.getByRole('button', { name: 'Yes, approve & publish' }).click();

    // The executor waits for the release commit's CI: the card says it is running, buttons disabled.
    const running = card.getByTestId('release-running');
    await running.waitFor({ timeout: WAIT });
    expect(await running.innerText()).toContain(
      'Publishing 0.2.0 — running in the background (may take tens of minutes)',
    );
    expect(await card.getByRole('button', { name: 'Approve & publish' }).isDisabled()).toBe(true);
    expect(await card.getByRole('button', { name: 'Reject with changes' }).isDisabled()).toBe(true);
    const pushed = await waitForProposal(
      client,
      (answer) =>
        answer.status === 200 && answer.body.execute_step === 'release_ci' && !!answer.body.commit_sha,
      WAIT,
    );
    const sha = pushed.body.commit_sha as string;
    expect(await repo.tip('prod')).not.toBe(prodBefore);
    await screenshot(page, 'release-running');
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await screenshot(page, 'release-running-dark');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();

    // The second window's approve is refused (409 release_in_flight), and it says so.
    await otherConfirm.getByRole('button', { name: 'Yes, approve & publish' }).click();
    const refused = otherConfirm.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/in flight|running/i);
    await screenshot(other, 'release-in-flight-refused');
    await other.keyboard.press('Escape');
    await other.getByTestId('release-running').waitFor();
    await other.getByText(/^Another approve of this release is already running/).waitFor();
    await other.close();

    ciRun(forge, sha, 'failure', { branch: 'prod' });
    const failed = card.getByTestId('release-failed');
    await failed.waitFor({ timeout: WAIT });
    const reason = await failed.innerText();
    expect(reason).toContain('Last attempt failed: the release commit’s CI failed or never turned green');
    expect(reason).toContain(`CI of the release commit at ${sha.slice(0, 8)} is failure`);
    const retry = card.getByRole('button', { name: 'Retry approve & publish' });
    expect(await retry.isEnabled()).toBe(true);
    expect(forge.releases('acme', 'gaffer')).toEqual([]);
    await screenshot(page, 'release-failed-retry');
    await expectAccessible(page);
    // The red band stays readable in the dark theme too.
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await screenshot(page, 'release-failed-retry-dark');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();

    ciRun(forge, sha, 'success', { branch: 'prod', attempt: 2 }); // the re-run passed
    await retry.click();
    await page
      .getByRole('dialog', { name: 'Retry and publish 0.2.0?' })
      .getByRole('button', { name: 'Yes, approve & publish' })
      .click();
    const published = page.getByTestId('release-published');
    await published.waitFor({ timeout: WAIT });
    expect(await published.innerText()).toContain('Release 0.2.0 published (v0.2.0)');
    expect(await card.count()).toBe(0);
    // Nothing is held any more: the inbox counts only the two release acknowledgements.
    await page.getByRole('heading', { name: 'Inbox — 2 waiting for you' }).waitFor();
    expect(forge.releases('acme', 'gaffer')).toMatchObject([{ tag_name: 'v0.2.0', target_commitish: sha }]);
    expect((await server.api('GET', `/api/tasks/${proposal.task_id}`)).json.status).toBe('completed');
    await screenshot(page, 'release-published');
    await expectAccessible(page);
  }, 180_000);
});
