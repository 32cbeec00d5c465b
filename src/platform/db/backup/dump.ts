/**
 * Writes a backup of the whole store (format.ts) from one transaction's view: on PostgreSQL a
 * read-only REPEATABLE READ transaction, so writes go on while it runs and none of them is half in
 * the file; on PGlite (one connection) the transaction holds other statements until it ends.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { type Database, type Db, queryRows } from '../client.js';
import { migrationsFolder } from '../migrate.js';
import { readCatalog, type TableInfo } from './catalog.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupHeader, RowDigest } from './format.js';

export interface DumpSummary {
  tables: number;
  rows: number;
  header: BackupHeader;
}

/** The tags of the migrations in this build, in order (drizzle's journal). */
export function migrationTags(): string[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}

/** How many migrations the store has applied (0 on a store never migrated). */
export async function appliedMigrations(db: Db): Promise<number> {
  const [exists] = await queryRows<{ found: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  if (!exists?.found) return 0;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  );
  return row?.n ?? 0;
}

/** Streams the backup, gzip-compressed, into `out` (a file or a response); ends it. */
export async function dumpStore(database: Database, out: Writable, now: Date): Promise<DumpSummary> {
  const gzip = createGzip();
  gzip.pipe(out);
  // A reader that goes away (a client hanging up) ends the dump, rather than leaving the
  // transaction open for a drain that never comes.
  const gone = new AbortController();
  out.once('close', () => gone.abort());
  const write = async (line: string) => {
    if (gone.signal.aborted) throw new Error("the backup's reader went away");
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain', { signal: gone.signal });
  };
  const summary = await database.db.transaction(
    async (tx) => {
      const migrations = await appliedMigrations(tx);
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        created_at: now.toISOString(),
        store: database.kind,
        migrations,
        last_migration: migrationTags()[migrations - 1] ?? null,
      };
      await write(JSON.stringify(header));
      const tables = await readCatalog(tx);
      let rows = 0;
      for (const table of tables) {
        await write(JSON.stringify({ table: table.name, columns: table.columns }));
        const digest = new RowDigest();
        for (const row of await rowTexts(tx, table)) {
          digest.add(row);
          await write(row);
        }
        rows += digest.rows;
        await write(JSON.stringify({ end_table: table.name, rows: digest.rows, sha256: digest.hex() }));
      }
      await write(JSON.stringify({ end: true, tables: tables.length, rows }));
      return { tables: tables.length, rows, header };
    },
    database.kind === 'postgres' ? { isolationLevel: 'repeatable read', accessMode: 'read only' } : undefined,
  );
  gzip.end();
  await once(out, 'finish', { signal: gone.signal });
  return summary;
}

/**
 * Per table: its row count and a digest of its rows that ignores their order (the sorted
 * row_to_json texts), to compare two stores table by table.
 */
export async function tableChecksums(db: Db): Promise<Record<string, { rows: number; sha256: string }>> {
  const out: Record<string, { rows: number; sha256: string }> = {};
  for (const table of await readCatalog(db)) {
    const digest = new RowDigest();
    for (const row of (await rowTexts(db, table)).sort()) digest.add(row);
    out[table.name] = { rows: digest.rows, sha256: digest.hex() };
  }
  return out;
}

/** A table's stored columns, row by row, as PostgreSQL's row_to_json writes them. */
async function rowTexts(db: Db, table: TableInfo): Promise<string[]> {
  const columns = sql.join(
    table.columns.map((column) => sql.identifier(column)),
    sql`, `,
  );
  const rows = await queryRows<{ row: string }>(
    db,
    sql`select row_to_json(x)::text as row from (select ${columns} from ${sql.identifier(table.name)}) x`,
  );
  return rows.map(({ row }) => row);
}
