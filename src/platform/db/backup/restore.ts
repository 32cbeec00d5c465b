/**
 * Restores a backup (read and checked whole first: format.ts) into a store: migrated to the
 * snapshot's schema, filled in one transaction — parents before children, sequences moved past the
 * rows — then migrated forward to this build's schema. A store with rows is refused unless `force`
 * (which empties it in the same transaction). A restore that fails leaves the store as it was.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, type Db, queryRows } from '../client.js';
import { applyMigrations, migrationsFolder } from '../migrate.js';
import { parentsFirst, readCatalog } from './catalog.js';
import { appliedMigrations, migrationTags } from './dump.js';
import { type Backup, BackupFileError } from './format.js';

const BATCH = 500;

export class StoreNotEmptyError extends Error {
  override readonly name = 'StoreNotEmptyError';
  constructor(readonly tables: { table: string; rows: number }[]) {
    super(
      `the store is not empty (${tables.map((t) => `${t.table}: ${t.rows}`).join(', ')}); restore into an empty ` +
        'store, or pass --force to replace everything in it',
    );
  }
}

export interface RestoreSummary {
  tables: { table: string; rows: number }[];
  rows: number;
  /** Migrations applied after the rows, from the snapshot's schema to this build's. */
  migratedForward: number;
}

/** Rows per public table (only those with rows). */
export async function nonEmptyTables(db: Db): Promise<{ table: string; rows: number }[]> {
  const found: { table: string; rows: number }[] = [];
  for (const table of await readCatalog(db)) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${sql.identifier(table.name)}`,
    );
    if (row && row.n > 0) found.push({ table: table.name, rows: row.n });
  }
  return found;
}

export async function restoreStore(
  database: Database,
  backup: Backup,
  options: { force?: boolean } = {},
): Promise<RestoreSummary> {
  const tags = migrationTags();
  if (backup.header.migrations > tags.length) {
    throw new BackupFileError(
      `the backup's schema (${backup.header.last_migration}) is newer than this Gaffer's (${tags.at(-1)}): restore it with a newer Gaffer`,
    );
  }
  const before = await appliedMigrations(database.db);
  if (before < backup.header.migrations) await migrateTo(database, backup.header.migrations);
  const filled = await nonEmptyTables(database.db);
  if (filled.length > 0 && !options.force) throw new StoreNotEmptyError(filled);

  const restored = await database.db.transaction(async (tx) => {
    const catalog = new Map((await readCatalog(tx)).map((table) => [table.name, table]));
    if (filled.length > 0) {
      const names = sql.join(
        [...catalog.keys()].map((name) => sql.identifier(name)),
        sql`, `,
      );
      await tx.execute(sql`truncate ${names} cascade`);
    }
    const counts: { table: string; rows: number }[] = [];
    for (const dump of backup.tables) {
      const target = catalog.get(dump.table);
      if (!target) {
        if (dump.rows.length === 0) continue;
        throw new BackupFileError(`table ${dump.table} of the backup does not exist in this store's schema`);
      }
      const columns = dump.columns.filter((column) => target.columns.includes(column));
      const names = sql.join(
        columns.map((column) => sql.identifier(column)),
        sql`, `,
      );
      const rows = parentsFirst(dump.rows, target.selfReferences);
      for (let at = 0; at < rows.length; at += BATCH) {
        const batch = JSON.stringify(rows.slice(at, at + BATCH));
        await tx.execute(
          sql`insert into ${sql.identifier(dump.table)} (${names}) overriding system value
              select ${names} from json_populate_recordset(null::${sql.identifier(dump.table)}, ${batch}::json)`,
        );
      }
      for (const column of target.sequenced) {
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${dump.table}, ${column}),
                coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(dump.table)}), 0) + 1, false)`,
        );
      }
      counts.push({ table: dump.table, rows: rows.length });
    }
    return counts;
  });
  const atSnapshot = await appliedMigrations(database.db);
  await applyMigrations(database);
  const after = await appliedMigrations(database.db);
  return {
    tables: restored,
    rows: restored.reduce((sum, t) => sum + t.rows, 0),
    migratedForward: after - atSnapshot,
  };
}

/** Applies this build's migrations up to the `count`-th (applyMigrations on a cut journal). */
export async function migrateTo(database: Database, count: number): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'gaffer-migrations-'));
  try {
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalPath = join(folder, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
    journal.entries = journal.entries.slice(0, count);
    writeFileSync(journalPath, JSON.stringify(journal));
    await applyMigrations(database, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
