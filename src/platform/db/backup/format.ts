/**
 * The backup file: gzip-compressed JSON lines, the same for PGlite and PostgreSQL, so a backup of
 * either restores into either.
 *
 *   {"format":"gaffer-backup","version":1,"created_at":…,"store":"pglite","migrations":22,"last_migration":"0021_…"}
 *   {"table":"agents","columns":["id","slug",…]}
 *   {…one row, as PostgreSQL's row_to_json wrote it…}
 *   {"end_table":"agents","rows":31,"sha256":"…"}        (the digest of that table's row lines)
 *   …one block per table, parents before children…
 *   {"end":true,"tables":43,"rows":12345}
 *
 * A file that is cut short, altered, or not a Gaffer backup fails `readBackup` before anything is
 * written anywhere.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

export const BACKUP_FORMAT = 'gaffer-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  store: 'pglite' | 'postgres';
  /** How many migrations the store had applied: the snapshot's schema. */
  migrations: number;
  last_migration: string | null;
}

export interface TableDump {
  table: string;
  columns: string[];
  /** The rows as JSON objects keyed by column. */
  rows: Record<string, unknown>[];
  sha256: string;
}

export interface Backup {
  header: BackupHeader;
  tables: TableDump[];
}

export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

/** Digests a table's row lines as they are written and read. */
export class RowDigest {
  readonly #hash = createHash('sha256');
  rows = 0;
  add(line: string): void {
    this.#hash.update(line).update('\n');
    this.rows += 1;
  }
  hex(): string {
    return this.#hash.digest('hex');
  }
}

/** Reads and checks a whole backup file; throws BackupFileError naming what is wrong. */
export async function readBackup(source: string | Readable): Promise<Backup> {
  const lines = createInterface({
    input: (typeof source === 'string' ? createReadStream(source) : source).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let header: BackupHeader | null = null;
  const tables: TableDump[] = [];
  let open: { dump: TableDump; digest: RowDigest } | null = null;
  let ended = false;
  let lineNumber = 0;
  const parse = (line: string): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {}
    throw new BackupFileError(`line ${lineNumber} is not a JSON object: the file is damaged`);
  };
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (ended) throw new BackupFileError(`line ${lineNumber} follows the end of the backup`);
      const value = parse(line);
      if (!header) {
        if (value.format !== BACKUP_FORMAT)
          throw new BackupFileError(
            'this is not a Gaffer backup (its first line names no gaffer-backup format)',
          );
        if (value.version !== BACKUP_VERSION)
          throw new BackupFileError(
            `backup format version ${String(value.version)} is not one this Gaffer reads`,
          );
        header = value as unknown as BackupHeader;
      } else if (open) {
        if (typeof value.end_table === 'string') {
          if (value.end_table !== open.dump.table)
            throw new BackupFileError(`table ${open.dump.table} ends as ${value.end_table}`);
          const sha = open.digest.hex();
          if (value.rows !== open.digest.rows || value.sha256 !== sha)
            throw new BackupFileError(`the rows of table ${open.dump.table} do not match their checksum`);
          open.dump.sha256 = sha;
          tables.push(open.dump);
          open = null;
        } else {
          open.digest.add(line);
          open.dump.rows.push(value);
        }
      } else if (typeof value.table === 'string' && Array.isArray(value.columns)) {
        open = {
          dump: { table: value.table, columns: value.columns as string[], rows: [], sha256: '' },
          digest: new RowDigest(),
        };
      } else if (value.end === true) {
        const total = tables.reduce((sum, t) => sum + t.rows.length, 0);
        if (value.tables !== tables.length || value.rows !== total)
          throw new BackupFileError('the backup ends with other totals than it holds');
        ended = true;
      } else throw new BackupFileError(`line ${lineNumber} is neither a table nor the end`);
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError(`the file cannot be read as a gzip backup: ${(error as Error).message}`);
  }
  if (!header) throw new BackupFileError('the file is empty');
  if (!ended) throw new BackupFileError('the backup is cut short: its end is missing');
  return { header, tables };
}
