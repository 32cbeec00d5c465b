/**
 * Projects in a real browser against a real server and the fake forge: the list, creating a project
 * (checked before sending; the server's 409 next to the slug), the Budget & Ops card saved (read
 * back over the API) and a bad lockfile path answered by the server's 422 next to its field, the
 * agents' network allowlist (kept across a reload; each refused entry named under the field), the
 * ladder, the write-only git token (set / not set, never the value; clear asks first), and the
 * CI-watch cycle history showing a real cycle that opened a fix task. Each page passes axe.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeForge, startFakeForge } from '../support/fake-forge/index.js';
import type { Json } from '../support/release-world.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

const SECRET = 'ghp_panelSecretValue123';

describe.skipIf(!chromiumAvailable)('projects', () => {
  let server: PanelServer;
  let forge: FakeForge;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, forge, browser] = await Promise.all([
      startPanelServer({}, { flags: ['ci_watch'] }),
      startFakeForge(),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await forge?.close();
  });

  /** The project page is long: a tall window shows it whole (the shell scrolls its main pane, not the page). */
  const openProjectPage = async (slug: string) => {
    await page.setViewportSize({ width: 1360, height: 2700 });
    await page.goto(`${server.base}/projects/${slug}`);
  };
  // biome-ignore lint/suspicious/noExplicitAny: assertions walk the JSON answer freely
  const project = async (slug: string): Promise<any> =>
    (await server.api('GET', `/api/projects/${slug}`)).json;

  it('lists the projects and creates one, refusing a bad slug before sending and a taken one from the server', async () => {
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByTestId('project-row-shop').waitFor();
    await screenshot(page, 'projects-list');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Slug').fill('Billing API');
    await dialog.getByLabel('Name').fill('Billing');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.getByTestId('error-slug').getByText('Use 1–50 characters: a-z, 0-9 and -.').waitFor();
    await dialog.getByTestId('error-git_url').waitFor();
    expect((await project('billing-api')).error?.code).toBe('not_found');

    // The server's refusal lands next to the field it names.
    await dialog.getByLabel('Slug').fill('shop');
    await dialog.getByLabel('Git URL').fill('https://github.com/acme/billing.git');
    await dialog.getByLabel('Provider').selectOption('github');
    await dialog.getByLabel('Forge API URL').fill(forge.githubApiUrl);
    await dialog.getByLabel('Git token').fill(forge.token);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    const taken = await dialog.getByTestId('error-slug').innerText();
    expect(taken).toMatch(/slug/i);
    await screenshot(page, 'projects-create-error');
    await expectAccessible(page);

    await dialog.getByLabel('Slug').fill('billing');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${server.base}/projects/billing`);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    expect(await project('billing')).toMatchObject({
      slug: 'billing',
      git_provider: 'github',
      forge_api_url: forge.githubApiUrl,
      has_git_token: true,
      ci_watch_enabled: false,
      ci_watch_workflow: 'ci.yml',
      dep_update_command: null,
    });
  }, 120_000);

  it('saves the Budget & Ops card and shows the server’s 422 next to the field it names', async () => {
    await openProjectPage('billing');
    const card = page.getByTestId('budget-ops-card');
    await card.waitFor();
    expect(await card.getByLabel('CI-watch workflow').getAttribute('placeholder')).toBe('ci.yml');
    await card.getByText('empty = the dependency bot opens nothing here').waitFor();

    await card.getByLabel('Watch CI on the default branch (CI-watch)').check();
    await card.getByLabel('Dependency update command').fill('npm update --package-lock-only');
    await card.getByLabel('Lockfile paths').fill('package-lock.json, web/package-lock.json');
    await card.getByLabel('Monthly budget (USD)').fill('250');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Saved.').waitFor();
    expect(await project('billing')).toMatchObject({
      ci_watch_enabled: true,
      ci_watch_workflow: 'ci.yml',
      dep_update_command: 'npm update --package-lock-only',
      dep_update_paths: 'package-lock.json,web/package-lock.json',
      monthly_budget_usd: 250,
    });

    // A path the server refuses: its message under the field, nothing saved.
    await card.getByLabel('Lockfile paths').fill('../package-lock.json');
    await card.getByRole('button', { name: 'Save' }).click();
    const error = card.getByTestId('error-dep_update_paths');
    await error.waitFor();
    expect(await error.innerText()).toContain('"../package-lock.json" must not contain ".."');
    expect((await project('billing')).dep_update_paths).toBe('package-lock.json,web/package-lock.json');
    await screenshot(page, 'project-budget-ops-422');
    await expectAccessible(page);
    await card.getByRole('button', { name: 'Discard changes' }).click();
  }, 120_000);

  it('keeps the agents’ network allowlist across a reload and names each entry the server refuses', async () => {
    await openProjectPage('billing');
    const card = page.getByTestId('budget-ops-card');
    const allowlist = card.getByLabel('Agent network allowlist');
    await allowlist.waitFor();
    await card.getByText('Hosts agents of this project may reach besides their model').waitFor();
    expect(await allowlist.inputValue()).toBe('');

    // One per line or comma-separated; stored trimmed and without repeats.
    await allowlist.fill('registry.npmjs.org\n pypi.org, files.pythonhosted.org\n\nPYPI.org');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Saved.').waitFor();
    const stored = ['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org'];
    expect((await project('billing')).agent_network_allow).toEqual(stored);
    await page.reload();
    await allowlist.waitFor();
    expect(await allowlist.inputValue()).toBe(stored.join('\n'));

    // Entries the proxy would not understand: each named under the field, one per line; nothing saved.
    await allowlist.fill('registry.npmjs.org\nhttps://pypi.org/simple\n10.0.0.0/8');
    await card.getByRole('button', { name: 'Save' }).click();
    const error = card.getByTestId('error-agent_network_allow');
    await error.waitFor();
    const lines = (await error.innerText()).split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^"https:\/\/pypi\.org\/simple": .*without a scheme/),
      expect.stringMatching(/^"10\.0\.0\.0\/8": .*CIDR ranges are not supported/),
    ]);
    expect(await allowlist.getAttribute('aria-invalid')).toBe('true');
    expect((await project('billing')).agent_network_allow).toEqual(stored);
    await screenshot(page, 'project-agent-network-allow-422');
    await expectAccessible(page);
    await card.getByRole('button', { name: 'Discard changes' }).click();
    expect(await allowlist.inputValue()).toBe(stored.join('\n'));
  }, 120_000);

  it('edits the environment ladder and keeps the git token write-only', async () => {
    await openProjectPage('billing');
    const ladder = page.getByTestId('ladder-card');
    await ladder.getByRole('button', { name: 'Add rung' }).click();
    await ladder.getByRole('button', { name: 'Save ladder' }).click();
    await ladder.getByText('Every rung needs a name and a branch.').waitFor();
    await ladder.getByLabel('Rung 2 branch').fill('prod');
    await ladder.getByRole('button', { name: 'Add rung' }).click();
    await ladder.getByLabel('Rung 3 name').fill('staging');
    await ladder.getByLabel('Rung 3 branch').fill('staging');
    await ladder.getByRole('button', { name: 'Move rung 3 up' }).click();
    await ladder.getByRole('button', { name: 'Save ladder' }).click();
    await expect
      .poll(async () => (await project('billing')).environments)
      .toEqual([
        { name: 'dev', branch: 'main' },
        { name: 'staging', branch: 'staging' },
        { name: 'prod', branch: 'prod' },
      ]);

    const state = page.getByTestId('git-token-state');
    expect(await state.innerText()).toBe('Token: set');
    await page.getByRole('button', { name: 'Clear token' }).click();
    const confirm = page.getByRole('dialog', { name: 'Clear the git token?' });
    await confirm.getByRole('button', { name: 'Yes, clear the token' }).click();
    await page.getByText('Token: not set').waitFor();
    expect((await project('billing')).has_git_token).toBe(false);

    await page.getByLabel('Set a token').fill(SECRET);
    await page.getByRole('button', { name: 'Save token' }).click();
    await page.getByText('Token: set').waitFor();
    expect((await project('billing')).has_git_token).toBe(true);
    expect(await page.getByLabel('Replace the token').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    expect(JSON.stringify(await project('billing'))).not.toContain(SECRET);
    await screenshot(page, 'project-ladder-token');
    await expectAccessible(page);

    // Back to the forge's token for the CI-watch cycle below.
    await server.api('PATCH', '/api/projects/billing', { git_token: forge.token });
  }, 120_000);

  it('runs a real CI-watch cycle from the page (asked first) and shows it, with the fix task it opened', async () => {
    forge.addRun({
      owner: 'acme',
      repo: 'billing',
      workflow: 'ci.yml',
      branch: 'main',
      headSha: 'c'.repeat(40),
      conclusion: 'failure',
      name: 'CI',
    });
    await openProjectPage('billing');
    await page.getByText('No cycles yet').waitFor();
    await page.getByRole('button', { name: 'Run a cycle now' }).click();
    await page
      .getByRole('dialog', { name: 'Run Multi-repo CI-watch now?' })
      .getByRole('button', { name: 'Yes, run a cycle' })
      .click();
    const table = page.getByTestId('cycles-ci_watch');
    await table.waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const cycles = (await server.api('GET', '/api/board-programs/ci_watch/cycles')).json.cycles as Json[];
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ trigger: 'run_now', outcome: 'completed', tasks_opened: 1 });
    const taskId = cycles[0].opened_task_ids[0] as string;
    expect((await server.api('GET', `/api/tasks/${taskId}`)).json.project_id).toBe(
      (await project('billing')).id,
    );

    const row = table.locator('tbody tr').first();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(1, 7).map((cell) => cell.split('\n')[0]!.trim())).toEqual([
      'run now',
      '1',
      '1',
      '0',
      '0',
      'completed',
    ]);
    await row.getByRole('link', { name: taskId.slice(0, 8) }).waitFor();
    await screenshot(page, 'project-engine-cycles');
    await expectAccessible(page);
  }, 120_000);
});
