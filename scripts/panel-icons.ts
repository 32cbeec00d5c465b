/**
 * `npx tsx scripts/panel-icons.ts`: draws the panel's app icons (panel/public/icons/*.png, committed)
 * from icon.svg with the Debian chromium the browser tests use — for the web app manifest and the
 * home screen of a phone. Run again only when icon.svg changes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dir = fileURLToPath(new URL('../panel/public/icons/', import.meta.url));
const svg = readFileSync(`${dir}icon.svg`, 'utf8');
/**
 * name, size, the inset of the mark (a maskable icon keeps it in the safe zone, the inner 80 %), and
 * whether the square is filled (a phone rounds a maskable or an Apple touch icon itself; transparent
 * corners would show black).
 */
const ICONS: [string, number, number, boolean][] = [
  ['icon-192.png', 192, 0, false],
  ['icon-512.png', 512, 0, false],
  ['icon-maskable-512.png', 512, 0.1, true],
  ['apple-touch-icon.png', 180, 0, true],
];

const browser = await chromium.launch({
  executablePath: process.env.GAFFER_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const [name, size, insetShare, filled] of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inset = Math.round(size * insetShare);
    await page.setContent(
      `<body style="margin:0;background:${filled ? '#4338ca' : 'transparent'}"><div style="padding:${inset}px;width:${size - 2 * inset}px;height:${size - 2 * inset}px">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body>`,
    );
    await page.screenshot({ path: `${dir}${name}`, omitBackground: !filled });
    await page.close();
  }
} finally {
  await browser.close();
}
