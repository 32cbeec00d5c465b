/**
 * Migrated templates of the test stores, made once per set of migrations and shared by every test
 * process of the run: creating a database from nothing and running every migration takes seconds on
 * PGlite (initdb in WASM) and a quarter of a second on PostgreSQL, and a run creates hundreds.
 * - PGlite: a data directory, copied; built aside, then renamed into place, so racing workers never
 *   see half of one.
 * - PostgreSQL: a template database (`create database … template …`), likewise built under a name
 *   of its own and renamed when complete.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/client.js';
import { migrationsFolder } from '../../src/platform/db/migrate.js';

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

let pglite: Promise<string> | undefined;

async function buildPgliteTemplate(): Promise<string> {
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
  pglite ??= buildPgliteTemplate();
  cpSync(join(await pglite, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

let postgres: Promise<string> | undefined;

async function buildPostgresTemplate(adminUrl: string): Promise<string> {
  const template = `gaffer_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount) return template;
    const building = `${template}_b${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.query(`create database ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 1 });
    await database.close();
    try {
      await admin.query(`alter database ${building} rename to ${template}`);
    } catch {
      await admin.query(`drop database if exists ${building} with (force)`); // another worker won
    }
    return template;
  } finally {
    await admin.end();
  }
}

/** Creates `name` on the server of `adminUrl` as a copy of the migrated template. */
export async function createMigratedDatabase(adminUrl: string, name: string): Promise<void> {
  postgres ??= buildPostgresTemplate(adminUrl);
  const template = await postgres;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
}
