/**
 * The X post queue in a real browser against a fake X API on loopback: held drafts show their
 * impact bar (score and the rules they fail); editing the body moves the live 280 counter and
 * disables approve past the limit; "Approve & post" posts the edited text through POST /2/tweets
 * and moves the post to the history; "Reject…" refuses a too-short reason, then sends the draft
 * back with its reason, which the head of marketing sees. Axe on the page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityHeaders } from '../support/app.js';
import { FAKE_X_TOKEN, type FakeX, startFakeX } from '../support/fake-x.js';
import { chromiumAvailable, launchBrowser } from './support/browser.js';
import { expectAccessible, screenshot, signIn } from './support/page.js';
import { type PanelServer, startPanelServer } from './support/server.js';

const GOOD =
  'Gaffer 0.30.0 ships the operator maintenance pause: drain or kill dispatch for up to 24 hours, ' +
  'with a countdown on every page. Notes: https://example.com/r/0.30.0';
const HYPE = 'Big news!!! Our amazing new pause is here 🚀 #devtools #ai';

describe.skipIf(!chromiumAvailable)('the X post queue', () => {
  let server: PanelServer;
  let fake: FakeX;
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};

  async function draft(body: string): Promise<string> {
    const headers = identityHeaders(server.platform.secret)('hom-1', 'head_marketing', 'board');
    const response = await fetch(`${server.base}/api/x/posts`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'release', body, release_ref: '0.30.0' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    [server, fake, browser] = await Promise.all([startPanelServer(), startFakeX(), launchBrowser()]);
    const set = await server.api('PUT', '/api/x/credentials', {
      bearer_token: FAKE_X_TOKEN,
      base_url: fake.url,
    });
    expect(set.status).toBe(200);
    ids.good = await draft(GOOD);
    ids.hype = await draft(HYPE);
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, server);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it('shows each held draft with its impact bar and the rules it fails', async () => {
    await page.getByRole('link', { name: 'Social' }).click();
    await page.waitForURL(/\/social$/);
    const good = page.getByTestId(`x-post-${ids.good}`);
    const hype = page.getByTestId(`x-post-${ids.hype}`);
    await good.waitFor();
    expect(await good.getByTestId('impact-bar').getAttribute('data-score')).toBe('100');
    expect(await good.getByText('Passes every rule.').count()).toBe(1);
    expect(await hype.getByTestId('impact-bar').getAttribute('data-score')).toBe('15');
    for (const rule of ['deliverable_first', 'no_hashtags', 'no_emoji', 'no_exclamation', 'no_hype']) {
      expect(await hype.getByTestId(`failed-${rule}`).count(), rule).toBe(1);
    }
    await screenshot(page, 'x-posts-queue');
    await expectAccessible(page);
  });

  it('counts characters live, blocks approve past 280, and posts the edited text', async () => {
    const card = page.getByTestId(`x-post-${ids.good}`);
    const text = card.getByRole('textbox');
    const approve = card.getByRole('button', { name: 'Approve & post' });
    await text.fill('x'.repeat(281));
    await card.getByTestId('x-post-counter').getByText('281/280 — 1 over the limit').waitFor();
    expect(await approve.isDisabled()).toBe(true);
    await screenshot(page, 'x-posts-over-limit');

    const edited = GOOD.replace('every page', 'every panel page');
    await text.fill(edited);
    // X counts the link as 23 characters, whatever its length.
    const link = 'https://example.com/r/0.30.0';
    await card
      .getByTestId('x-post-counter')
      .getByText(`${edited.length - link.length + 23}/280`)
      .waitFor();
    await approve.click();
    await page.getByTestId(`x-history-${ids.good}`).waitFor();
    expect(fake.posts.at(-1)?.text).toBe(edited);
    expect(await page.getByTestId(`x-post-${ids.good}`).count()).toBe(0);
  });

  it('rejects with a reason the head of marketing sees', async () => {
    const card = page.getByTestId(`x-post-${ids.hype}`);
    await card.getByRole('button', { name: 'Reject…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this post' });
    await dialog.getByRole('textbox').fill('no');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('Give a reason of at least 4 characters.').waitFor();
    await dialog.getByRole('textbox').fill('Name what shipped and drop the hype.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page
      .getByTestId(`x-history-${ids.hype}`)
      .getByText(/Name what shipped/)
      .waitFor();
    await screenshot(page, 'x-posts-history');

    const headers = identityHeaders(server.platform.secret)('hom-1', 'head_marketing', 'board');
    const seen = await fetch(`${server.base}/api/x/posts/${ids.hype}`, { headers });
    expect(await seen.json()).toMatchObject({
      status: 'rejected',
      reject_reason: 'Name what shipped and drop the hype.',
    });
  });
});
