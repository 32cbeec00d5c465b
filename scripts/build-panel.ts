/**
 * Builds the panel (panel/ → dist/panel) with Vite. `npm start` and `npm run build` run it without
 * flags: it builds only when the panel's sources changed since the last build (a hash of every
 * file under panel/ plus the lockfile, kept in dist/panel/.build-stamp). `npm run build:panel`
 * passes --force. The integration suites' global setup calls `buildPanelIfStale` before any file runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PANEL_SOURCE_DIR = join(ROOT, 'panel');
export const PANEL_OUT_DIR = join(ROOT, 'dist', 'panel');
const STAMP = join(PANEL_OUT_DIR, '.build-stamp');
const LOCK = join(ROOT, 'dist', '.panel-build.lock');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return entry.isFile() && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A hash of the panel's sources (names and contents) and the lockfile: what a build depends on. */
export function panelSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(PANEL_SOURCE_DIR), join(ROOT, 'package-lock.json')].sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function panelIsStale(): boolean {
  if (!existsSync(join(PANEL_OUT_DIR, 'index.html')) || !existsSync(STAMP)) return true;
  return readFileSync(STAMP, 'utf8').trim() !== panelSourceHash();
}

export async function buildPanel(): Promise<void> {
  const { build } = await import('vite');
  const sourceHash = panelSourceHash();
  // Vite follows NODE_ENV, which Vitest sets to `test`: that would build React's development bundle.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(PANEL_SOURCE_DIR, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(STAMP, `${sourceHash}\n`);
}

/**
 * Builds when stale. Several processes (parallel test files) may ask at once: one builds under a
 * lock directory while the others wait for it, then look again.
 */
export async function buildPanelIfStale(): Promise<boolean> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    if (!panelIsStale()) return false;
    try {
      mkdirSync(LOCK);
    } catch {
      // Someone else is building; a lock older than five minutes is left over from a crash.
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > 300_000)
        rmSync(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      if (!panelIsStale()) return false;
      await buildPanel();
      return true;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  if (force) {
    await buildPanel();
    console.log('panel built into dist/panel');
  } else if (await buildPanelIfStale()) {
    console.log('panel built into dist/panel (its sources changed)');
  }
}
