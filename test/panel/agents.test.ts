/**
 * Agents in a real browser: the roster shows the seeded company and filters by role in the URL; an
 * agent's page spawns a real agent process (a small node script standing in for the agent CLI),
 * shows its output live over /ws/agents/{id}, and stops it after a confirmation with the server's
 * answer; its profile is edited (checked before sending); an A2A message sent through the API appears, in full, in the open conversation without a
 * reload. Each page passes axe.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

/**
 * A stand-in agent CLI: asks its egress proxy for a host nobody allowed (refused, on the run's
 * record), then prints a numbered line every 100 ms until SIGTERM, then `bye` and exit 0.
 */
const AGENT_SCRIPT = `
import { connect } from 'node:net';
const proxy = new URL(process.env.HTTPS_PROXY);
connect(Number(proxy.port), proxy.hostname)
  .on('error', () => {})
  .end('CONNECT registry.npmjs.org:443 HTTP/1.1\\r\\nhost: registry.npmjs.org:443\\r\\n\\r\\n');
let n = 0;
process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
setInterval(() => console.log('tick ' + ++n), 100);
`;

describe.skipIf(!chromiumAvailable)('agents', () => {
  let server: PanelServer;
  let browser: Browser;
  let page: Page;
  let scriptDir: string;

  beforeAll(async () => {
    scriptDir = mkdtempSync(join(tmpdir(), 'gaffer-panel-agent-'));
    const script = join(scriptDir, 'agent.mjs');
    writeFileSync(script, AGENT_SCRIPT);
    [server, browser] = await Promise.all([
      startPanelServer({
        agentRuntime: 'process',
        agentProvider: 'custom',
        agentCommandCustom: `${process.execPath} ${script}`,
        agentSandboxRead: [scriptDir],
        killGraceSeconds: 5,
      }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
    await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
  });

  it('shows the seeded company and filters it by role in the URL', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
    await page.getByTestId('agent-row-main-pm').waitFor();
    for (const slug of ['be-dev-1', 'main-pm', 'auditor']) {
      expect(await page.getByTestId(`agent-row-${slug}`).count()).toBe(1);
    }
    expect(await page.getByTestId('agent-row-main-pm').innerText()).toContain('main pm');
    await page.getByLabel('Role').selectOption('developer');
    await page.waitForURL(/role=developer/);
    await page.getByTestId('agent-row-main-pm').waitFor({ state: 'detached' });
    expect(await page.getByTestId('agent-row-be-dev-1').count()).toBe(1);
    await screenshot(page, 'agents-roster');
    await expectAccessible(page);

    // The filter is in the URL: a fresh load of it shows the same rows.
    await page.reload();
    await page.getByTestId('agent-row-be-dev-1').waitFor();
    expect(await page.getByTestId('agent-row-main-pm').count()).toBe(0);
  }, 120_000);

  it('spawns an agent, shows its output live, and stops it after a confirmation', async () => {
    await page.goto(`${server.base}/agents/be-dev-1`);
    await page.getByRole('heading', { name: 'Backend Developer 1' }).waitFor();
    expect(await page.getByTestId('live-output').innerText()).toContain('No runs yet');

    await page.getByRole('button', { name: 'Spawn…' }).click();
    const spawn = page.getByRole('dialog', { name: 'Spawn be-dev-1?' });
    await spawn.getByRole('textbox').fill('1a2b3c4d');
    await spawn.getByRole('button', { name: 'Spawn', exact: true }).click();
    await spawn.getByText('full 36-character id').waitFor();
    expect((await server.api('GET', '/api/orchestrator/agents')).json.agents).toEqual([]);
    await spawn.getByRole('textbox').fill('');
    await spawn.getByRole('button', { name: 'Spawn', exact: true }).click();
    await spawn.waitFor({ state: 'detached' });

    // Output arrives over the agent's socket, line by line, without a reload.
    const output = page.getByTestId('live-output');
    await output.getByText('tick 5', { exact: false }).waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="run-state"][data-state="running"]').first().waitFor();
    await screenshot(page, 'agent-detail-live-output');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Stop…' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop be-dev-1?' });
    await stop.getByRole('button', { name: 'Cancel' }).click();
    await stop.waitFor({ state: 'detached' });
    expect((await server.api('GET', '/api/orchestrator/agents')).json.agents).toHaveLength(1);

    await page.getByRole('button', { name: 'Stop…' }).click();
    await stop.getByRole('button', { name: 'Yes, stop it' }).click();
    await stop.getByTestId('stop-result').getByText('stopped', { exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'agent-stop-result');
    await stop.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Spawn…' }).waitFor();
    await output.getByText('bye').waitFor();
    expect((await server.api('GET', '/api/orchestrator/agents')).json.agents).toEqual([]);

    // What its network fence refused is on the page once the run is recorded.
    await page.reload();
    const blocked = page.getByTestId('agent-blocked');
    await blocked.getByText('registry.npmjs.org:443').waitFor();
    expect(await blocked.innerText()).toContain('1 connection refused by its network fence');
    expect(await blocked.innerText()).toContain('— not on the allowlist');
    await screenshot(page, 'agent-blocked-connections');
    await expectAccessible(page);

    // The server's answer when there is nothing to stop.
    const again = await server.api('POST', '/api/orchestrator/agents/be-dev-1/stop', { graceful: true });
    expect(again.status).toBe(409);
  }, 120_000);

  it('edits an agent’s profile, checking the form before it sends', async () => {
    await page.goto(`${server.base}/agents/be-dev-2`);
    await page.getByRole('heading', { name: 'Backend Developer 2' }).waitFor();
    await page.getByRole('button', { name: 'Edit…' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit be-dev-2' });
    await edit.getByLabel('Name').fill('   ');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Give the agent a name.').waitFor();
    await screenshot(page, 'agent-edit');
    await expectAccessible(page);
    expect((await server.api('GET', '/api/agents/be-dev-2')).json.name).toBe('Backend Developer 2');

    await edit.getByLabel('Name').fill('Backend Developer Two');
    await edit.getByLabel('Capabilities (comma-separated)').fill('postgres, node');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Backend Developer Two' }).waitFor();
    const saved = (await server.api('GET', '/api/agents/be-dev-2')).json;
    expect(saved).toMatchObject({ name: 'Backend Developer Two', capabilities: ['postgres', 'node'] });
  }, 120_000);

  it('shows an A2A message live, in full, in the open conversation', async () => {
    const opened = await server.api('POST', '/api/a2a/conversations', {
      target_agent: 'main-pm',
      topic: 'Release timing',
      initial_message: 'When can the health endpoint ship?',
    });
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    const conversationId =
      (opened.json.conversation as { id: string } | undefined)?.id ?? (opened.json.id as string);

    await page.goto(`${server.base}/agents?tab=conversations`);
    await page.getByRole('button', { name: 'Open the conversation between ceo and main-pm' }).click();
    await page.waitForURL(new RegExp(`conversation=${conversationId}`));
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('When can the health endpoint ship?').waitFor();

    // Longer than the frame's 240-character excerpt: the panel shows the full text from REST.
    const long = `Please also confirm the rollback plan. ${'Each step is written down and rehearsed. '.repeat(8)}The end.`;
    const sent = await server.api('POST', `/api/a2a/conversations/${conversationId}/messages`, {
      body: long,
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    await transcript.getByText('The end.', { exact: false }).waitFor();
    expect(await transcript.innerText()).toContain(long.trim());
    await screenshot(page, 'agents-conversation');
    await expectAccessible(page);
  }, 120_000);
});
