/**
 * The embedded store's first start copies the build's migrated template instead of creating and
 * migrating a database: a new data directory is that template (same system identifier), a copy cut
 * short is copied again, a stale template is never used, and a store opened as it is (`migrate:
 * false`, as restore and move do) stays empty. The template the suites' global setup made is the
 * one `npm run build` makes.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase, preparePgliteTemplate, queryRows } from '../src/platform/db/client.js';
import { buildPgliteTemplate, pgliteTemplatePath } from '../src/platform/db/pglite-template.js';

const made: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gaffer-template-test-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function identity(database: Database): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    database.db,
    sql`select system_identifier::text as id from pg_control_system()`,
  );
  return row!.id;
}

/** The system identifier of a copy of this build's template (the template itself is never opened). */
async function templateIdentity(): Promise<string> {
  const copy = scratch();
  cpSync(pgliteTemplatePath(), join(copy, 'pglite'), { recursive: true });
  const database = await openDatabase({ dataDir: copy, migrate: false });
  try {
    return await identity(database);
  } finally {
    await database.close();
  }
}

const migrated = async (database: Database) =>
  (
    await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )
  )[0]!.n;

describe('the prepared embedded store', () => {
  it('is what a new data directory starts from, migrated and empty', async () => {
    expect(existsSync(join(await preparePgliteTemplate(), 'PG_VERSION'))).toBe(true);
    const expected = await templateIdentity();
    const database = await openDatabase({ dataDir: scratch() });
    try {
      expect(await identity(database)).toBe(expected);
      expect(await migrated(database)).toBeGreaterThan(20);
      const [tasks] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from tasks`);
      expect(tasks!.n).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('is copied again over a copy that was cut short', async () => {
    const dataDir = scratch();
    mkdirSync(join(dataDir, 'pglite', 'base'), { recursive: true });
    writeFileSync(join(dataDir, 'pglite', 'base', 'half-written'), 'cut short');
    const database = await openDatabase({ dataDir });
    try {
      expect(await identity(database)).toBe(await templateIdentity());
    } finally {
      await database.close();
    }
  });

  it('is not used when asked not to, nor for a store opened as it is', async () => {
    const expected = await templateIdentity();
    const own = await openDatabase({ dataDir: scratch(), template: false });
    try {
      expect(await identity(own)).not.toBe(expected);
      expect(await migrated(own)).toBeGreaterThan(20);
    } finally {
      await own.close();
    }
    const raw = await openDatabase({ dataDir: scratch(), migrate: false });
    try {
      const [tables] = await queryRows<{ n: number }>(
        raw.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables!.n).toBe(0);
    } finally {
      await raw.close();
    }
  });

  it('is built once per set of migrations, and a stale one beside it is removed', async () => {
    const root = scratch();
    const stale = join(root, 'pglite-template-0123456789abcdef');
    mkdirSync(stale);
    let builds = 0;
    const create = async (dataDir: string) => {
      builds += 1;
      await (await openDatabase({ dataDir, template: false })).close();
    };
    const template = await buildPgliteTemplate(create, root);
    expect(template).toBe(pgliteTemplatePath(root));
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(existsSync(stale)).toBe(false);
    await buildPgliteTemplate(create, root);
    expect(builds).toBe(1);
  }, 60_000);
});
