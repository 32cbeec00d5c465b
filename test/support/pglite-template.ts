/**
 * Creating a PGlite database from nothing takes seconds (initdb in WASM, then every migration).
 * Tests instead copy a migrated template made once per set of migrations and shared by every test
 * process of the run (built aside, then renamed into place, so racing workers never see half of one).
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/platform/db/client.js';
import { migrationsFolder } from '../../src/platform/db/migrate.js';

let ready: Promise<string> | undefined;

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function buildTemplate(): Promise<string> {
  const template = join(tmpdir(), `gaffer-pglite-template-${migrationsHash()}`);
  if (existsSync(template)) return template;
  const building = `${template}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ dataDir: building });
  await database.close();
  try {
    renameSync(building, template);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another worker won the race
  }
  return template;
}

/** Puts a migrated PGlite database in `dataDir`, where `openDatabase({ dataDir })` will find it. */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  ready ??= buildTemplate();
  cpSync(join(await ready, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}
