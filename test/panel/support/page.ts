/**
 * Helpers for a test's page: sign in through the real login link, save a screenshot to
 * test-results/panel/<name>.png (look at them), and an axe accessibility pass that fails on any
 * serious or critical violation.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { PanelServer } from './server.js';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'panel');

/**
 * Opens the login link and waits for the panel behind it: the inbox, or the page that sent this
 * browser to the sign-in screen.
 */
export async function signIn(page: Page, server: PanelServer): Promise<void> {
  await page.goto(server.loginUrl());
  await page.waitForURL((url) => url.origin === server.base && !url.pathname.startsWith('/login'));
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Every element an ARIA attribute names by id exists (the page is not mid-render); run in the page. */
const ARIA_REFERENCES_RESOLVE = `(() => {
  const names = ['aria-activedescendant', 'aria-controls', 'aria-labelledby', 'aria-describedby'];
  return [...document.querySelectorAll(names.map((name) => '[' + name + ']').join(','))].every((element) =>
    names.every((name) =>
      (element.getAttribute(name) || '').split(/\\s+/).every((id) => !id || document.getElementById(id) !== null),
    ),
  );
})()`;

/** Resolves once the document has not changed for 300 ms (at most 5 s). */
const DOM_QUIET = `new Promise((resolve) => {
  let timer = setTimeout(done, 300);
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, 300); });
  const deadline = setTimeout(done, 5000);
  function done() { observer.disconnect(); clearTimeout(timer); clearTimeout(deadline); resolve(true); }
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
})`;

/** Resolves once the page's document has not changed for 300 ms (at most 5 s). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(DOM_QUIET);
}

/**
 * Axe on the settled page (every rule, or `only` those named: a second theme needs only its
 * contrast checked; `settled` when the caller just checked it, so nothing is waited for): a list re-rendering after a search (a late answer of a query typed
 * before) may point an ARIA reference at an element that is gone for a frame, so the pass waits
 * until the document has stopped changing and every reference resolves (a few seconds at most);
 * one that never does is then axe's violation like any other.
 */
export async function expectAccessible(
  page: Page,
  options: { only?: string[]; settled?: boolean } = {},
): Promise<void> {
  if (!options.settled) {
    await settle(page);
    await page.waitForFunction(ARIA_REFERENCES_RESOLVE, undefined, { timeout: 5_000 }).catch(() => undefined);
  }
  const builder = new AxeBuilder({ page });
  const results = await (options.only ? builder.withRules(options.only) : builder).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`);
  expect(serious, serious.join('\n')).toEqual([]);
}
