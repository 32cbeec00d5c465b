/**
 * What "works on a phone" means, checked in the page (docs/panel.md, "On a phone"): nothing scrolls
 * sideways — neither the document nor the page's own scroller; wide content (a table, a diff hunk,
 * a code block) scrolls inside a box of its own — and every primary action lies within the screen's
 * width and is at least 44 px tall (and wide).
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The phone and the tablet the suites use (CSS pixels). */
export const PHONE = { width: 390, height: 844 } as const;
export const TABLET = { width: 768, height: 1024 } as const;

/**
 * What scrolls sideways that should not: the document, the page's scroller (`main`), and any
 * element wider than the screen that is not inside an element scrolling on its own. Run in the page.
 */
const SIDEWAYS = `(() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const scrolling = (el) => {
    for (let at = el.parentElement; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (at.tagName !== 'MAIN' && ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) return true;
    }
    return false;
  };
  const doc = document.scrollingElement;
  if (doc.scrollWidth > width) found.push('the document is ' + doc.scrollWidth + ' px wide');
  const main = document.querySelector('main');
  if (main && main.scrollWidth > main.clientWidth + 1) found.push('the page scrolls sideways: ' + main.scrollWidth + ' px in ' + main.clientWidth);
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1 || scrolling(el)) continue;
    const name = el.tagName.toLowerCase() + (el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : '') +
      (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').slice(0, 3).join('.') : '');
    found.push(name + ' ends at ' + Math.round(box.right) + ' px: "' + (el.textContent || '').trim().slice(0, 60) + '"');
    if (found.length > 8) break;
  }
  return found;
})()`;

/** Visible primary actions outside the screen's width or smaller than 44 × 44 px. Run in the page. */
const SMALL_ACTIONS = `(() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('button[data-variant="primary"], a[data-variant="primary"]')]
    .filter((el) => el.offsetParent !== null)
    .map((el) => ({ text: (el.textContent || el.getAttribute('aria-label') || '').trim(), box: el.getBoundingClientRect() }))
    .filter(({ box }) => box.left < -1 || box.right > width + 1 || box.height < 44 || box.width < 44)
    .map(({ text, box }) => text + ' at x ' + Math.round(box.left) + '–' + Math.round(box.right) + ', ' + Math.round(box.width) + ' × ' + Math.round(box.height) + ' px');
})()`;

/** Fails with what sticks out when anything but a scroll box is wider than the screen. */
export async function expectFitsScreen(page: Page, what: string): Promise<void> {
  const found = (await page.evaluate(SIDEWAYS)) as string[];
  expect(found, `${what} scrolls sideways:\n${found.join('\n')}`).toEqual([]);
}

/** Fails with each primary action that is off the screen's width or under 44 × 44 px. */
export async function expectActionsInReach(page: Page, what: string): Promise<void> {
  const found = (await page.evaluate(SMALL_ACTIONS)) as string[];
  expect(found, `${what}: primary actions out of reach:\n${found.join('\n')}`).toEqual([]);
}
