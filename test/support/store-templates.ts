/**
 * The migrated template of the PostgreSQL test databases (`create database … template …`), made
 * once per set of migrations and shared by every test process of the run: creating a database and
 * running every migration takes a quarter of a second, and a run creates hundreds. Built under a
 * name of its own and renamed when complete, so racing workers never see half of one. (PGlite's is
 * the product's own: src/platform/db/pglite-template.ts, made by the suites' global setup.)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/client.js';
import { pgliteTemplateKey } from '../../src/platform/db/pglite-template.js';

let postgres: Promise<string> | undefined;

async function buildPostgresTemplate(adminUrl: string): Promise<string> {
  // Named by the migrations (the key PGlite's template goes by).
  const template = `gaffer_template_${pgliteTemplateKey()}`;
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
