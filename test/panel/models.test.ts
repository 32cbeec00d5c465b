/**
 * Settings → Models & agents in a real browser, against a fake OpenAI-compatible server on loopback:
 * a provider is connected with its key (write-only: never shown, set, replaced, cleared), its Test
 * shows the probe's answer inline (a refused key, the models listed, a 429 with its Retry-After),
 * a role is routed to it and an agent checked; the doctor's findings are listed. An agent whose CLI
 * fails on start shows, on its page and on its task's, which CLI, which model and the CLI's own words.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm/index.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

const RIGHT_KEY = 'sk-right-key-0123456789';
const WRONG_KEY = 'sk-wrong-key-9876543210';

/** An agent CLI that refuses its command line, as a CLI does after a flag it had is removed. */
const REFUSING_CLI = `
console.error("error: unexpected argument '--full-auto' found");
process.exit(2);
`;

describe.skipIf(!chromiumAvailable)('Models & agents', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let fake: FakeLlm;
  let scriptDir: string;

  beforeAll(async () => {
    scriptDir = mkdtempSync(join(tmpdir(), 'gaffer-panel-models-'));
    const script = join(scriptDir, 'refusing-cli.mjs');
    writeFileSync(script, REFUSING_CLI);
    fake = await startFakeLlm({ apiKey: RIGHT_KEY });
    [server, browser] = await Promise.all([
      startPanelServer({
        agentRuntime: 'process',
        agentProvider: 'custom',
        agentCommandCustom: `${process.execPath} ${script}`,
        agentSandboxRead: [scriptDir],
      }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
  });

  it('connects a provider with a write-only key, tests it, and routes a role to it', async () => {
    await page.goto(`${server.base}/settings`);
    await page.getByRole('link', { name: 'Models & agents' }).click();
    await page.waitForURL(/tab=models/);
    await page.getByText('No model provider is connected').waitFor();
    // The doctor's findings: the runtime in force and each built-in CLI.
    const doctor = page.getByRole('region', { name: 'Agent CLIs' });
    await doctor.getByTestId('doctor-runtime-process').waitFor();
    expect(await doctor.getByTestId('doctor-runtime-process').innerText()).toContain('starting custom');
    for (const cli of ['claude', 'codex', 'gemini'])
      await doctor.getByTestId(`doctor-agent_cli-${cli}`).waitFor();

    // Connect: checked before sending, then created with the wrong key.
    const form = page.getByRole('form', { name: 'Connect a provider' });
    await form.getByLabel('Provider').selectOption('compatible');
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.getByText('Give the server’s base URL').waitFor();
    await form.getByLabel('Base URL').fill(`${fake.url}/v1`);
    await form.getByLabel('Default model').fill('fake-large');
    await form.getByLabel('API key').fill(WRONG_KEY);
    await form.getByRole('button', { name: 'Connect' }).click();
    const card = page.getByTestId('provider-local');
    await card.getByTestId('key-state').filter({ hasText: 'set' }).waitFor();
    expect(await form.getByLabel('API key').inputValue()).toBe('');
    expect((await server.api('GET', '/api/providers/local')).json).toMatchObject({
      kind: 'openai',
      base_url: `${fake.url}/v1`,
      default_model: 'fake-large',
      api_key_set: true,
    });

    // Test: the refused key, then the right one, then a 429 — each answered inline.
    await card.getByRole('button', { name: 'Test' }).click();
    await card.getByTestId('probe-answer').filter({ hasText: 'The key was refused (HTTP 401)' }).waitFor();
    await card.getByLabel('API key for local').fill(RIGHT_KEY);
    await card.getByRole('button', { name: 'Replace key' }).click();
    await expect.poll(() => card.getByLabel('API key for local').inputValue()).toBe('');
    await card.getByRole('button', { name: 'Test' }).click();
    await card
      .getByTestId('probe-answer')
      .filter({ hasText: 'Connected: 2 models listed, fake-large among them.' })
      .waitFor();
    expect(fake.requests.at(-1)?.apiKey).toBe(RIGHT_KEY);
    fake.script({ kind: 'rate_limited', retryAfter: '7' });
    await card.getByRole('button', { name: 'Test' }).click();
    await card.getByTestId('probe-answer').filter({ hasText: 'Rate limited (HTTP 429)' }).waitFor();
    expect(await card.getByTestId('probe-answer').innerText()).toContain('Retry after 7 s.');
    // The key never reaches the page.
    expect(await page.content()).not.toContain(RIGHT_KEY);

    // Route the developers to it (the provider's default model), then check one developer.
    const developers = page.getByTestId('route-role-developer');
    await developers.getByLabel('Provider for Role: developer').selectOption('local');
    await developers.getByRole('button', { name: 'Save' }).click();
    await developers
      .getByTestId('route-runs')
      .filter({ hasText: 'local · fake-large (its default)' })
      .waitFor();
    expect((await server.api('GET', '/api/providers/routing')).json).toMatchObject({
      global: null,
      roles: { developer: { provider: 'local', model: null } },
    });
    await page.getByLabel('Check an agent').selectOption('be-dev-1');
    await page
      .getByTestId('resolved-route')
      .filter({ hasText: 'be-dev-1 runs local · fake-large (the developer route)' })
      .waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-models');
    await expectAccessible(page);

    // Google Gemini, at a Gemini-API host given on the same form: probed on its own wire.
    await form.getByLabel('Provider').selectOption('gemini');
    await form.getByLabel('Base URL').fill(fake.url);
    await form.getByLabel('API key').fill(RIGHT_KEY);
    await form.getByRole('button', { name: 'Connect' }).click();
    const google = page.getByTestId('provider-google');
    await google.getByRole('button', { name: 'Test' }).click();
    await google.getByTestId('probe-answer').filter({ hasText: 'Connected: 2 models listed' }).waitFor();
    expect(fake.requests.at(-1)).toMatchObject({ wire: 'gemini', path: '/v1beta/models', apiKey: RIGHT_KEY });
    expect(await google.innerText()).toContain('Gemini API');

    // Clear the key: not set any more, here and over the API.
    await card.getByRole('button', { name: 'Clear key' }).click();
    await card.getByTestId('key-state').filter({ hasText: 'not set' }).waitFor();
    expect((await server.api('GET', '/api/providers/local')).json.api_key_set).toBe(false);
  }, 120_000);

  it('shows an agent whose CLI fails on start: its CLI, its model and the CLI’s own words', async () => {
    await server.api('POST', '/api/providers', {
      name: 'spare',
      kind: 'openai',
      base_url: `${fake.url}/v1`,
      default_model: 'fake-small',
    });
    expect(
      (await server.api('PUT', '/api/providers/routing', { agents: { 'be-dev-2': { provider: 'spare' } } }))
        .status,
    ).toBe(200);
    const created = await server.api('POST', '/api/tasks', {
      title: 'Add a health endpoint',
      description: 'GET /health answering the version.',
      acceptance_criteria: ['GET /health answers 200'],
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      project_id: server.projectId,
      team: 'backend',
      assigned_to: 'be-dev-2',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const taskId = created.json.id as string;
    const spawned = await server.api('POST', '/api/orchestrator/agents/be-dev-2/spawn', { task_id: taskId });
    expect(spawned.status, JSON.stringify(spawned.json)).toBeLessThan(300);
    await expect
      .poll(
        async () =>
          ((await server.api('GET', '/api/stream/be-dev-2')).json.runs as { status: string }[])[0]?.status,
        {
          timeout: 30_000,
        },
      )
      .toBe('failed');

    await page.goto(`${server.base}/agents/be-dev-2`);
    const lastRun = page.getByTestId('agent-last-run');
    await lastRun.filter({ hasText: 'failed (exit 2)' }).waitFor();
    expect(await lastRun.innerText()).toContain("error: unexpected argument '--full-auto' found");
    expect(await lastRun.innerText()).toContain('custom CLI on fake-small');
    expect(await page.getByTestId('agent-model').innerText()).toContain(
      'spare · fake-small (the agent route)',
    );
    await screenshot(page, 'agent-cli-failed');
    await expectAccessible(page);

    await page.goto(`${server.base}/tasks/${taskId}?tab=transcript`);
    await page
      .getByTestId('run-failure')
      .filter({ hasText: "error: unexpected argument '--full-auto' found" })
      .waitFor();
  }, 120_000);
});
