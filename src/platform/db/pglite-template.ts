/**
 * A migrated, empty PGlite data directory made once (by `npm run build`, and by the integration
 * tests' global setup) and copied into a fresh data directory on first start: creating a database
 * (initdb in WebAssembly) and running every migration takes seconds; copying its ~40 MB (1,200
 * files) takes under one. The template is named by what it depends on — the migrations and PGlite's version — so a
 * stale one is never used (the start then creates and migrates as before) and a new build replaces it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { copyFile, cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrationsFolder } from './migrate.js';

/** dist/ of this checkout, from both src/ (tsx, vitest) and dist/ (built). */
const TEMPLATE_ROOT = fileURLToPath(new URL('../../../dist', import.meta.url));
const PREFIX = 'pglite-template-';

function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** What a template depends on: every migration file (SQL and journal) and PGlite's version. */
export function pgliteTemplateKey(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  const files = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql'));
  for (const file of [...files.sort(), 'meta/_journal.json']) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

export const pgliteTemplatePath = (root = TEMPLATE_ROOT): string =>
  join(root, `${PREFIX}${pgliteTemplateKey()}`);

/**
 * Copies the template into `location` when it holds no database yet and a template of this build
 * exists.
 */
export async function copyPgliteTemplate(location: string): Promise<void> {
  if (existsSync(join(location, 'PG_VERSION'))) return;
  const template = pgliteTemplatePath();
  if (!existsSync(join(template, 'PG_VERSION'))) return;
  // PG_VERSION last: a copy cut short is not taken for a database, and the next start copies again.
  await cp(template, location, { recursive: true, filter: (path) => path !== join(template, 'PG_VERSION') });
  await copyFile(join(template, 'PG_VERSION'), join(location, 'PG_VERSION'));
}

/**
 * Makes the template under `root` unless it is there, built aside and renamed into place (racing
 * builders never see half of one), and removes the stale ones beside it. `create` opens and closes
 * a migrated database in the directory it is given.
 */
export async function buildPgliteTemplate(
  create: (dataDir: string) => Promise<void>,
  root = TEMPLATE_ROOT,
): Promise<string> {
  const template = pgliteTemplatePath(root);
  mkdirSync(root, { recursive: true });
  if (!existsSync(template)) {
    const building = `${template}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await create(building);
      renameSync(join(building, 'pglite'), template);
    } catch (error) {
      if (!existsSync(template)) throw error; // else another builder won the race
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  }
  for (const entry of readdirSync(root)) {
    if (entry.startsWith(PREFIX) && join(root, entry) !== template && !entry.includes('.building-')) {
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
  return template;
}
