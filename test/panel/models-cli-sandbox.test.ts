/**
 * Settings → Models & agents beside the agent CLI the runtime starts: one lying in the home of the
 * server's user itself, which the agent sandbox cannot bind, is marked "not bound" with a notice
 * naming the exact path to add to GAFFER_AGENT_SANDBOX_READ (screenshotted, axe-clean); the run
 * limits are listed beside the runtime.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { probeSandbox } from '../../src/platform/process/index.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the CLI-outside-the-sandbox panel test: ${bwrap.reason}`);

describe.skipIf(!chromiumAvailable || !bwrap.ok)(
  'an agent CLI the sandbox cannot bind, on Models & agents',
  () => {
    let server: PanelServer;
    let browser: Browser;
    let page: Page;
    const scratch = mkdtempSync(join(tmpdir(), 'gaffer-panel-cli-home-'));
    const home = join(scratch, 'home');
    const loose = join(home, 'my-agent-cli');

    beforeAll(async () => {
      mkdirSync(home);
      writeFileSync(loose, '#!/bin/sh\necho hello\n');
      chmodSync(loose, 0o755);
      // The browser first, with the real home; then the server's user's home is the fake one.
      browser = await launchBrowser();
      vi.stubEnv('HOME', home);
      server = await startPanelServer({
        agentRuntime: 'process',
        agentProvider: 'custom',
        agentCommandCustom: `${loose} -p {prompt}`,
        agentSandbox: 'on',
      });
      page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
      await signIn(page, server);
    }, 180_000);
    afterAll(async () => {
      vi.unstubAllEnvs();
      await browser?.close();
      await server?.close();
      rmSync(scratch, { recursive: true, force: true });
    });

    it('marks it not bound, with the path to add beside it', async () => {
      await page.goto(`${server.base}/settings?tab=models`);
      const doctor = page.getByRole('region', { name: 'Agent CLIs' });
      const row = doctor.getByTestId('doctor-agent_cli-custom');
      await row.waitFor();
      expect(await row.getByRole('cell').first().innerText()).toBe('not bound');
      const notice = row.getByRole('note', { name: 'Agent CLI outside the sandbox' });
      expect(await notice.innerText()).toContain(
        `Add ${loose} to GAFFER_AGENT_SANDBOX_READ and restart Gaffer`,
      );
      expect(await row.innerText()).toContain(`its folder ${home} is the home of the server's user`);
      await doctor.getByTestId('doctor-runtime-limits').waitFor();
      await doctor.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-models-cli-not-bound');
      await expectAccessible(page);
    }, 60_000);
  },
);
